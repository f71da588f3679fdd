"""Fixtures for the web app tests: a live server on 127.0.0.1, a headless chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from tenpai.serve.web.config import WebConfig

from .helpers import CHROMIUM, CHROMIUM_ARGS, LiveServer


@pytest.fixture()
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(WebConfig(records=(tmp_path,))).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless; the tests skip (saying why) only when it is not installed."""
    if not CHROMIUM.exists():
        pytest.skip("browser tests need /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $TENPAI_WEB_SHOTS when set (to refresh docs/img/web), else tmp."""
    target = os.environ.get("TENPAI_WEB_SHOTS")
    if target:
        path = Path(target)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("shots")

"""Shared fixtures: where the real records live, and a skip when they are absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path | None:
    """../shared/data beside the checkout, or $TENPAI_DATA; None when neither exists."""
    env = os.environ.get("TENPAI_DATA")
    candidates = [Path(env)] if env else []
    candidates += [REPO.parent / "shared" / "data", REPO.parent.parent / "shared" / "data"]
    for c in candidates:
        if c.is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The real game records; tests that need them skip with a clear message when absent."""
    d = shared_data_dir()
    if d is None:
        pytest.skip("real records not found: set TENPAI_DATA or place shared/data beside the repo")
    return d

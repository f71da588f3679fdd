"""Shared fixtures: where the real records live (a skip when they are absent), a local Ray."""

from __future__ import annotations

import os
from collections.abc import Iterator
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


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A real local Ray (2 CPUs) for one test module (starting Ray takes seconds); the modules
    that use it import ``ray`` themselves, which the dev extra installs."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()

"""Slow checks here run only when asked for (``pytest -m slow``), never in CI's plain run."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _skip_slow_unless_selected(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("slow") is None:
        return
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("slow check: run with -m slow")

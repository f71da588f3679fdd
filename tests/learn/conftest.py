"""Fixtures of the learning tests: a tiny discard dataset built from one folder of real records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: A small folder of Houou mjlog records that every learning test can afford to replay.
SMALL_FOLDER = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"


@pytest.fixture
def gao56_discards(data_dir: Path, tmp_path: Path) -> Callable[[int], Path]:
    """Build a gao56 discard-only dataset of the folder's first ``limit`` games; return its path.

    A factory, because tests differ in how many games they need (fewer is faster).
    """
    src = data_dir / SMALL_FOLDER
    if not src.is_dir():
        pytest.skip(f"{SMALL_FOLDER} not in the shared data")

    def build(limit: int) -> Path:
        from tenpai.learn.dataset import BuildOptions, build_dataset

        ds = tmp_path / f"ds{limit}"
        build_dataset([src], ds, BuildOptions(encoder="gao56", kinds=("discard",), limit=limit))
        return ds

    return build

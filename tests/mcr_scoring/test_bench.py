"""The benchmark helper runs and reports sane numbers (the timing itself is not asserted)."""

from __future__ import annotations

import pytest

from tenpai.bench.fan import bench_fan


def test_bench_fan_reports_both_sides() -> None:
    pytest.importorskip("MahjongGB")
    out = bench_fan(200, seed=3)
    assert out["hands"] == 200
    assert out["mahjonggb_us"] > 0 and out["ours_cold_us"] > 0 and out["ours_warm_us"] > 0
    assert out["ratio"] > 0

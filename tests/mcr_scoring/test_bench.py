"""The benchmark helper runs and reports sane numbers (the timing itself is not asserted)."""

from __future__ import annotations

import pytest

from tenpai.bench.fan import bench_fan
from tenpai.rules.mcr.evaluate import compiled_available


def test_bench_fan_reports_both_sides() -> None:
    pytest.importorskip("MahjongGB")
    out = bench_fan(200, seed=3, repeats=3)
    assert out["hands"] == 200 and out["repeats"] == 3
    assert out["ours_path"] == ("compiled" if compiled_available() else "python")
    for side in ("mahjonggb", "ours", "python_cold", "python_warm"):
        low, mid, high = (out[f"{side}_min_us"], out[f"{side}_us"], out[f"{side}_max_us"])
        assert isinstance(low, float) and isinstance(mid, float) and isinstance(high, float)
        assert 0 < low <= mid <= high
    ratio, low, high = out["ratio"], out["ratio_min"], out["ratio_max"]
    assert isinstance(ratio, float) and isinstance(low, float) and isinstance(high, float)
    assert 0 < low <= high

"""``bench engine``: the compiled round, the Python round and the peer in one interleaved run."""

from __future__ import annotations

from tenpai.bench.engine import run_engine_bench
from tenpai.rules.riichi import compiled_round


def test_engine_bench_reports_both_rounds_per_block() -> None:
    result = run_engine_bench(games=3, seed=5, vs=None, blocks=2)
    s = result.summary()
    assert len(result.blocks) == 2
    assert s["games"] == 3 and s["peer"] is None and s["ratio"] is None
    if compiled_round.available():
        assert s["engine"] == "compiled"
        assert s["python_hanchan_per_s"] > 0 and s["speedup_vs_python"] > 0
        assert all(ours > 0 and python > 0 for ours, python, _ in result.blocks)
    else:
        assert s["engine"] == "python" and "python_hanchan_per_s" not in s
    assert s["decisions_per_s"] > 0 and s["ms_per_hanchan"] > 0

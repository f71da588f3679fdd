"""The agent latency benchmark times every seat-0 request and summarises it sanely."""

from __future__ import annotations

from typer.testing import CliRunner

from tenpai.bench.agent import run_agent_bench
from tenpai.cli.main import app


def test_every_request_is_timed_once_alone() -> None:
    r = run_agent_bench("defensive", games=1, seed=3, batch=4)
    s = r.summary()
    assert r.decisions == len(r.single_ms) == len(r.reference_ms) > 20
    assert 0 < s["median_ms"] <= s["p95_ms"]
    assert s["batched_ms_per_decision"] > 0 and s["batch"] == 4


def test_unknown_agent_is_a_usage_error() -> None:
    r = CliRunner().invoke(app, ["bench", "agent", "--agent", "nobody"])
    assert r.exit_code == 2 and "choose one of" in r.output

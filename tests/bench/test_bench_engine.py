"""``bench engine``: the compiled round, the Python round and the peer in one interleaved run."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tenpai.bench.engine import run_engine_bench
from tenpai.cli.main import app
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


def test_engine_bench_plays_three_player_hanchan() -> None:
    result = run_engine_bench(games=2, seed=5, vs=None, blocks=2, players=3)
    s = result.summary()
    assert s["players"] == 3 and s["games"] == 2 and len(result.blocks) == 2
    assert s["engine"] == ("compiled" if compiled_round.available() else "python")
    assert s["decisions_per_s"] > 0


def test_engine_bench_turns_the_engines_order_game_by_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No engine always runs first: whatever the first game of a round is worth (caches,
    clock) must not fall to one side."""
    import tenpai.bench.engine as bench

    played: list[tuple[int, str]] = []

    def ours(seed: int, engine: str, rules: object = None) -> int:
        played.append((seed, engine))
        return 1

    def peer(seed: int, players: int = 4) -> None:
        played.append((seed, "riichienv"))

    class Compiled:
        compiled = True

    monkeypatch.setattr(bench, "_ours", ours)
    monkeypatch.setattr(bench, "_riichienv_game", peer)
    monkeypatch.setattr(bench, "RiichiGame", lambda *a, **k: Compiled())
    monkeypatch.setattr(bench, "play", lambda *a, **k: None)
    bench.run_engine_bench(games=6, seed=100, blocks=2)
    firsts = [next(e for s, e in played if s == 100 + g) for g in range(6)]
    assert set(firsts) == {"auto", "python", "riichienv"}
    assert firsts[:3] == ["auto", "python", "riichienv"]


def test_engine_bench_refuses_other_player_counts() -> None:
    with pytest.raises(ValueError, match="3 or 4 players"):
        run_engine_bench(games=1, vs=None, players=2)


def test_bench_engine_command_takes_the_player_count() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["bench", "engine", "--players", "3", "--games", "1", "--vs", "none",
                              "--json"])
    assert out.exit_code == 0, out.output
    assert "3-player" in out.output
    assert json.loads(out.output.strip().splitlines()[-1])["players"] == 3
    bad = runner.invoke(app, ["bench", "engine", "--players", "5"])
    assert bad.exit_code == 2

"""``tenpai verify engines``: seeded games on both engine paths, compared event by event."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.arena import engine_check
from tenpai.arena.engine_check import RULE_SETS, RuleSet, first_difference, run_check
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.rules.mcr.evaluate import compiled_available
from tenpai.rules.riichi import compiled_round

built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")
#: MCR in one hand (Botzone's rules), so the child process's game takes a second
MCR_ONE = RuleSet("mcr", "mcr", "botzone", ("random", "efficiency", "expert"))


@built
def test_both_riichi_presets_play_identical_games() -> None:
    summary = run_check(4, 20, ["tenhou", "mahjong_soul"], length="tonpuu")
    assert summary.identical and summary.divergence is None
    assert summary.games == {"tenhou": 2, "mahjong_soul": 2}
    assert summary.hands["tenhou"] >= 8 and summary.events["mahjong_soul"] > 500


@pytest.mark.skipif(not compiled_available(), reason="compiled MCR evaluator not built")
def test_mcr_is_compared_with_a_pure_python_child() -> None:
    summary = run_check(2, 7, [MCR_ONE])
    assert summary.identical and summary.games == {"mcr": 2}, summary.as_dict()


def test_the_child_streams_one_line_per_seed() -> None:
    out = io.StringIO()
    engine_check._serve(MCR_ONE, io.StringIO("3\n4\n"), out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    stream = json.loads(lines[0])
    assert stream[-1][0] == "final_scores" and stream[0][0] == "start_game"
    assert RuleSet.from_argv(MCR_ONE.argv()) == MCR_ONE


@built
def test_a_difference_names_the_seed_and_the_first_event(monkeypatch: Any) -> None:
    real = engine_check.play

    def tampered(rule_set: RuleSet, seed: int, engine: str) -> Any:
        game = real(rule_set, seed, engine)
        if engine == "compiled" and seed == 31:
            i = next(i for i, e in enumerate(game.events) if e.type == "dahai")
            e = game.events[i]
            game.events[i] = e.with_(tsumogiri=not e.tsumogiri)
        return game

    monkeypatch.setattr(engine_check, "play", tampered)
    summary = run_check(5, 30, ["tenhou"], length="tonpuu")
    assert not summary.identical and summary.games == {"tenhou": 1}
    d = summary.divergence
    assert d is not None and d["seed"] == 31 and d["rule_set"] == "tenhou"
    assert d["first"].startswith("event ") and "dahai" in d["first"]
    res = CliRunner().invoke(app, ["verify", "engines", "--games", "3", "--seed", "30",
                                   "--rules", "tenhou", "--length", "tonpuu"])
    assert res.exit_code == 1
    assert "tenhou seed 31 differs: event" in res.stderr
    assert json.loads(res.stdout)["divergence"]["seed"] == 31


def test_first_difference() -> None:
    assert first_difference([[1], [2]], [[1], [2]]) is None
    assert first_difference([[1], [2]], [[1], [3]]) == "event 1: compiled [2] / python [3]"
    assert first_difference([[1]], [[1], [2]]) == "compiled 1 events / python 2"


def test_tenhou_sanma_is_played_on_both_paths_or_skipped_with_its_reason() -> None:
    summary = run_check(3, 0, ["tenhou_sanma"])
    if compiled_round.available():
        assert summary.identical and summary.games == {"tenhou_sanma": 3}
        assert summary.skipped == {}
        return
    # without the build (TENPAI_PURE_PYTHON=1) there is nothing to compare with: said so
    assert summary.games == {} and "tenhou_sanma" in summary.skipped
    assert "not built or is switched off" in summary.skipped["tenhou_sanma"]
    res = CliRunner().invoke(app, ["verify", "engines", "--rules", "tenhou_sanma"])
    assert res.exit_code == 1 and "no rule set could be compared" in res.stderr
    assert "tenhou_sanma skipped" in res.stderr


def test_every_listed_rule_set_is_known_and_bad_options_exit_2() -> None:
    assert set(RULE_SETS) == {"tenhou", "mahjong_soul", "tenhou_sanma", "mcr"}
    with pytest.raises(ValueError, match="unknown rule set"):
        run_check(1, 0, ["riichi"])
    runner = CliRunner()
    assert runner.invoke(app, ["verify", "engines", "--rules", "riichi"]).exit_code == 2
    assert runner.invoke(app, ["verify", "engines", "--length", "long"]).exit_code == 2


@built
def test_the_stream_holds_every_compared_field() -> None:
    game = engine_check.play(RULE_SETS["tenhou"], 1, "compiled")
    stream = engine_check.stream_of(game)
    hora = next((row for row, e in zip(stream, game.events) if e.type == "hora"), None)
    if hora is not None:  # han, fu and yaku travel with the win
        e = next(e for e in game.events if e.type == "hora")
        assert e.han in hora and [list(y) for y in e.yaku] in hora
    assert stream[-1] == ["final_scores", list(game.final_scores)]
    assert len(stream) == len(game.events) + 1
    assert all(isinstance(e, Event) for e in game.events)


@built
def test_an_interrupt_ends_the_check_with_the_games_compared() -> None:
    def stop_after_one(summary: Any, name: str, i: int) -> None:
        raise KeyboardInterrupt

    summary = run_check(5, 40, ["tenhou"], length="tonpuu", progress=stop_after_one)
    assert summary.interrupted and summary.games == {"tenhou": 1}
    assert summary.as_dict()["interrupted"] is True and summary.identical

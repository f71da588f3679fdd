"""``tenpai verify engines``: seeded games on both engine paths, compared in lock-step."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena import engine_check, lockstep
from tenpai.arena.engine_check import RULE_SETS, RuleSet, run_check, seat_agents
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



def test_the_child_answers_one_report_line_per_message() -> None:
    """The MCR reference's protocol: a seed starts a game, answers (seat, index in the legal
    list) step it, a refused answer comes back as an error line."""
    game = engine_check.new_game(MCR_ONE, 3, "python")
    first = game.pending()[0]
    inp = io.StringIO('{"seed": 3}\n'
                      f'{{"answers": [[{first.seat}, 0]]}}\n'
                      '{"answers": [[9, 0]]}\n')
    out = io.StringIO()
    lockstep.serve(lambda s: engine_check.new_game(MCR_ONE, s, "python"), inp, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    pending, events, done, final = json.loads(lines[0])
    assert events[0][0] == "start_game" and not done and final is None
    assert pending[0][0] == first.seat and len(pending[0][1]) == len(first.legal)
    assert dict(pending[0][2])["hand"] == list(first.observation.hand)
    seen = len(game.events)
    game.step({first.seat: first.legal[0]})
    assert json.loads(lines[1])[1] == json.loads(lockstep.report_json_of(game.events[seen:]))
    assert "error" in json.loads(lines[2])
    assert RuleSet.from_argv(MCR_ONE.argv()) == MCR_ONE
    assert RuleSet.from_argv(RULE_SETS["mcr"].argv()) == RULE_SETS["mcr"]


class _Planted:
    """A compiled game with one planted difference (a test double around the real one):
    ``drop`` hides the last legal action of the first decision with a choice once
    ``at_event`` events are logged, ``flip`` turns one logged discard's tsumogiri flag."""

    def __init__(self, game: Any, *, drop: bool = False, flip: bool = False,
                 peek: bool = False, at_event: int = 40) -> None:
        self.inner, self.drop, self.flip, self.at_event = game, drop, flip, at_event
        self.peek = peek
        self.altered: int | None = None  # the seat whose decision lost an action

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def events(self) -> list[Event]:
        events: list[Event] = self.inner.events
        if not self.flip or len(events) <= self.at_event:
            return events
        i = next((i for i in range(self.at_event, len(events)) if events[i].type == "dahai"),
                 None)
        if i is None:
            return events
        out = list(events)
        out[i] = out[i].with_(tsumogiri=not out[i].tsumogiri)
        return out

    def pending(self) -> Any:
        got = self.inner.pending()
        if self.peek and len(self.inner.events) >= self.at_event:
            return [replace(d, observation=_OneRiverShort(d.observation)) for d in got]
        if not self.drop or len(self.inner.events) < self.at_event or self.altered == -1:
            return got
        out = []
        for d in got:
            if (self.altered is None and len(d.legal) > 1) or self.altered == d.seat:
                self.altered = d.seat  # the same decision asked twice stays altered
                d = replace(d, legal=d.legal[:-1])
            out.append(d)
        return out

    def step(self, answers: Any) -> None:
        self.inner.step(answers)
        if self.altered is not None:
            self.altered = -1  # one decision only


class _OneRiverShort:
    """An observation whose view of seat 1's river has lost its last tile."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]:
        rivers = list(self.inner.rivers)
        rivers[1] = rivers[1][:-1]
        return tuple(rivers)


def _planting(monkeypatch: Any, seed: int, **how: Any) -> None:
    real = engine_check.new_game

    def planted(rule_set: RuleSet, s: int, engine: str) -> Any:
        game = real(rule_set, s, engine)
        return _Planted(game, **how) if engine == "compiled" and s == seed else game

    monkeypatch.setattr(engine_check, "new_game", planted)


@built
def test_the_lockstep_catches_a_legal_action_offered_on_one_path_only(monkeypatch: Any) -> None:
    _planting(monkeypatch, 31, drop=True)
    summary = run_check(5, 30, ["tenhou"], length="tonpuu")
    assert not summary.identical and summary.games == {"tenhou": 1}
    d = summary.divergence
    assert d is not None and d["seed"] == 31 and d["rule_set"] == "tenhou"
    assert d["first"].startswith("after step ")
    assert "legal actions differ: compiled only [], python only [{'type': " in d["first"]
    assert d["agents"] == seat_agents(RULE_SETS["tenhou"], 31, 4)


@built
def test_the_lockstep_catches_an_observation_that_differs(monkeypatch: Any) -> None:
    _planting(monkeypatch, 33, peek=True)
    summary = run_check(4, 32, ["tenhou"], length="tonpuu")
    assert not summary.identical and summary.games == {"tenhou": 1}
    d = summary.divergence
    assert d is not None and d["seed"] == 33
    assert "'s observation differs in rivers: compiled ((" in d["first"], d["first"]


@built
def test_a_difference_names_the_seed_and_the_first_event(monkeypatch: Any) -> None:
    _planting(monkeypatch, 31, flip=True)
    summary = run_check(5, 30, ["tenhou"], length="tonpuu")
    assert not summary.identical and summary.games == {"tenhou": 1}
    d = summary.divergence
    assert d is not None and d["seed"] == 31 and d["rule_set"] == "tenhou"
    assert d["first"].startswith("after step ") and "new event" in d["first"]
    assert "dahai" in d["first"], d["first"]
    res = CliRunner().invoke(app, ["verify", "engines", "--games", "3", "--seed", "30",
                                   "--rules", "tenhou", "--length", "tonpuu"])
    assert res.exit_code == 1
    assert "tenhou seed 31 differs: after step" in res.stderr
    assert json.loads(res.stdout)["divergence"]["seed"] == 31


@pytest.mark.skipif(not compiled_available(), reason="compiled MCR evaluator not built")
def test_the_child_reference_catches_a_different_game() -> None:
    """The JSON comparison against the pure-Python child names a difference: the compiled
    side plays seed 5 while the child is started on seed 6 (another deal)."""
    ref = engine_check.reference_for(MCR_ONE)
    assert isinstance(ref, lockstep.ChildReference)
    try:
        game = engine_check.new_game(MCR_ONE, 5, "compiled")
        agents = [make_agent("random", i) for i in range(4)]
        result = lockstep.lockstep(game, ref, 6, agents)
    finally:
        ref.close()
    assert result.difference is not None and result.difference.startswith("at the start, new event")


@built
def test_a_clean_seeded_run_passes_on_the_command_line() -> None:
    res = CliRunner().invoke(app, ["verify", "engines", "--games", "2", "--seed", "11",
                                   "--rules", "tenhou_sanma,tenhou", "--length", "tonpuu"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["identical"] and out["games"] == 2 and out["divergence"] is None
    per = out["per_rule_set"]
    assert per["tenhou_sanma"]["games"] == 1 and per["tenhou"]["games"] == 1
    assert per["tenhou"]["decisions"] > 100
    assert per["tenhou"]["observations"] >= per["tenhou"]["decisions"]
    assert out["agents"]["tenhou"]["heavy"] == ["expert"]
    assert "2 games identical on both paths" in res.stderr


def test_heavy_agents_take_one_seat_in_their_share_of_the_games() -> None:
    rs = RuleSet("x", "riichi", "tenhou", ("random", "efficiency"), heavy=("expert",),
                 heavy_share=0.25)
    seats = [seat_agents(rs, s, 4) for s in range(800)]
    heavy = [x for x in seats if "expert" in x]
    assert 140 <= len(heavy) <= 260
    assert all(x.count("expert") == 1 for x in heavy)
    assert seats == [seat_agents(rs, s, 4) for s in range(800)]  # the seed decides
    assert seat_agents(replace(rs, heavy_share=0.0), 3, 4) == [
        "efficiency", "random", "efficiency", "random"]


@built
def test_an_event_travels_with_every_compared_field() -> None:
    game = engine_check.play(RULE_SETS["tenhou"], 1, "compiled")
    hora = next((e for e in game.events if e.type == "hora"), None)
    if hora is not None:  # han, fu and yaku travel with the win
        row = json.loads(lockstep.report_json_of(hora))
        assert hora.han in row and [list(y) for y in hora.yaku] in row
    assert len(json.loads(lockstep.report_json_of(game.events[0]))) == len(lockstep.FIELDS)
    assert all(isinstance(e, Event) for e in game.events)


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
def test_an_interrupt_ends_the_check_with_the_games_compared() -> None:
    def stop_after_one(summary: Any, name: str, i: int) -> None:
        raise KeyboardInterrupt

    summary = run_check(5, 40, ["tenhou"], length="tonpuu", progress=stop_after_one)
    assert summary.interrupted and summary.games == {"tenhou": 1}
    assert summary.as_dict()["interrupted"] is True and summary.identical


@built
def test_an_answer_the_reference_refuses_is_a_difference() -> None:
    class Refusing(lockstep.InProcessReference):
        def step(self, answers: Any) -> lockstep.Report:
            raise ValueError("not legal here")

    rs = RULE_SETS["tenhou"]
    ref = Refusing(lambda s: engine_check.new_game(rs, s, "python"))
    game = engine_check.new_game(rs, 4, "compiled")
    result = lockstep.lockstep(game, ref, 4, [make_agent("random", i)
                                              for i in range(4)])
    assert result.difference is not None
    assert result.difference.startswith("after step 1, at event ")
    assert "python refused the answers [(0, " in result.difference
    assert "not legal here" in result.difference

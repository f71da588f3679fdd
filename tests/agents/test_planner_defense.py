"""Reading an MCR table's danger (tenpai.rules.mcr.danger) and the planner that defends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.agents.planner import PlannerAgent, defended_discard, planned_discard
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.cli.main import app
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.mcr.danger import (
    READY_TABLE,
    DangerError,
    deal_in_probability,
    read_opponents,
    ready_probability,
    wait_weight,
)


def _k(name: str) -> int:
    return T.kind_of(T.parse(name)[0])


def _t(name: str) -> int:
    return T.parse(name)[0]


def _discard(actor: int, name: str) -> Event:
    return Event("dahai", actor=actor, pai=_t(name))


def _pon(actor: int, target: int, name: str) -> Event:
    return Event("pon", actor=actor, target=target, pai=_t(name),
                 consumed=(_t(name), _t(name)))


def _chi(actor: int, target: int, called: str, a: str, b: str) -> Event:
    return Event("chi", actor=actor, target=target, pai=_t(called), consumed=(_t(a), _t(b)))


#: Seat 1 has three melds (a late, open hand); seats 2 and 3 none.  Seat 1's last discard is
#: 9p; after it seat 2 threw 5s and seat 3 threw 4m, both of which seat 1 let pass.
_THREAT_EVENTS = [
    Event("start_kyoku"),
    _discard(0, "1z"), _discard(1, "2z"), _discard(2, "3z"), _discard(3, "9m"),
    _discard(0, "7z"), _pon(1, 0, "7z"), _discard(1, "6z"),
    _discard(2, "8s"), _chi(3, 2, "8s", "6s", "7s"), _discard(3, "1s"),
    _discard(0, "2p"), _pon(1, 0, "2p"), _discard(1, "4z"),
    _discard(2, "9s"), _discard(3, "2s"), _discard(0, "9s"),
    _chi(1, 0, "9s", "7s", "8s"), _discard(1, "9p"),
    _discard(2, "5s"), _discard(3, "4m"),
]


def test_a_tile_passed_since_the_threats_last_discard_is_safe_against_it() -> None:
    readings = {r.seat: r for r in read_opponents(0, _THREAT_EVENTS)}
    threat = readings[1]
    assert threat.melds == 3 and threat.discards == 4
    assert threat.passed == {_k("5s"), _k("4m")}
    assert _k("9p") in threat.own_discards
    unseen = [3] * 34
    only_threat = [threat]
    assert deal_in_probability(_k("4m"), only_threat, unseen) == 0.0
    assert deal_in_probability(_k("5s"), only_threat, unseen) == 0.0
    assert deal_in_probability(_k("5m"), only_threat, unseen) > 0.0
    # its own discard is not safe (no furiten) but less likely its wait than a fresh tile
    own = deal_in_probability(_k("9p"), only_threat, unseen)
    assert 0.0 < own < deal_in_probability(_k("9m"), only_threat, unseen)


def test_a_player_with_no_meld_early_in_the_hand_is_no_threat() -> None:
    readings = {r.seat: r for r in read_opponents(0, _THREAT_EVENTS[:5])}
    assert readings[2].melds == 0 and readings[2].discards == 1
    assert readings[2].ready == READY_TABLE[0][0] == 0.0
    assert deal_in_probability(_k("5m"), [readings[2]], [3] * 34) == 0.0


def test_readiness_grows_along_the_hand_and_four_melds_are_the_most_ready() -> None:
    for melds in range(5):
        row = [ready_probability(melds, d) for d in range(0, 18)]
        assert row == sorted(row)
    for d in range(0, 18):
        assert ready_probability(4, d) == max(ready_probability(m, d) for m in range(5))
    assert ready_probability(9, 99) == READY_TABLE[-1][-1]


def test_copies_in_sight_rule_shapes_out() -> None:
    unseen = [4] * 34
    fresh = wait_weight(_k("5m"), unseen)
    # all four 4m and all four 6m in sight: 5m only completes pair and single waits
    walled = list(unseen)
    walled[_k("4m")] = walled[_k("6m")] = 0
    assert wait_weight(_k("5m"), walled) < fresh
    # an honour whose other copies are all in sight (the reader holds the last) completes
    # nothing
    gone = list(unseen)
    gone[_k("7z")] = 0
    assert wait_weight(_k("7z"), gone) == 0.0
    # an honour completes fewer shapes than a middle tile
    assert wait_weight(_k("7z"), unseen) < fresh
    assert wait_weight(_k("1m"), unseen) < fresh


def test_bad_readings_are_typed_errors() -> None:
    with pytest.raises(DangerError, match="seat"):
        read_opponents(4, [])
    with pytest.raises(DangerError, match="34"):
        wait_weight(0, [4] * 33)
    with pytest.raises(DangerError, match="kind"):
        deal_in_probability(34, [], [4] * 34)


@dataclass
class _Table:
    """The parts of an MCR observation the defended discard reads."""

    seat: int
    events: list[Event]
    counts: list[int]
    seen: list[int]

    def visible_counts(self) -> list[int]:
        return list(self.seen)


def test_with_nothing_to_keep_the_defending_planner_throws_the_passed_tile() -> None:
    # given no target to keep, 4m (passed by the three-meld seat 1) and not efficiency's 9s
    hand = T.parse("1m2m3m7m8m9m2p3p4p5s6s9s4m5p")
    counts = T.counts34(hand)
    seen = [0] * 34
    for e in _THREAT_EVENTS:
        if e.type == "dahai" and e.pai is not None:
            seen[T.kind_of(e.pai)] += 1
    table = _Table(0, _THREAT_EVENTS, counts, seen)
    discards = [Event("dahai", actor=0, pai=t) for t in hand]
    on = PlannerSettings(defense=True, threat=0.1, deal_in_cost=20.0)
    assert max(r.ready for r in read_opponents(0, _THREAT_EVENTS)) >= on.threat
    choice = defended_discard(table, discards, {}, on)
    assert choice.pai is not None and T.kind_of(choice.pai) == _k("4m")
    planned = planned_discard(counts, discards, seen, {})
    assert planned.pai is not None and T.kind_of(planned.pai) == _k("9s")
    # no threat (only the first go-around has been played): the planned discard
    early = _Table(0, _THREAT_EVENTS[:5], counts, seen)
    assert defended_discard(early, discards, {}, on) == planned


@pytest.mark.parametrize("preset", ["botzone", "mcr_official"])
def test_the_defending_planner_plays_legal_and_deterministic_games(
        preset: str, first_hand: Callable[..., list[Event]]) -> None:
    def table() -> list[Agent]:
        names = ["planner_defend", "efficiency", "planner_defend", "planner"]
        return [make_agent(n, 5 * 4 + i) for i, n in enumerate(names)]

    first = first_hand(table(), 5, preset)
    assert first == first_hand(table(), 5, preset)
    assert any(e.type == "hora" or e.type == "ryukyoku" for e in first)


def test_planner_defend_is_registered_with_defense_on() -> None:
    agent = make_agent("planner_defend", 0)
    assert isinstance(agent, PlannerAgent) and agent.settings.defense
    assert agent.identity == "defense=True"
    plain = make_agent("planner", 0)
    assert isinstance(plain, PlannerAgent) and not plain.settings.defense
    assert plain.identity == ""  # the shipped planner's runs still pool with older ones


@pytest.mark.parametrize(("var", "value"), [
    ("TENPAI_PLANNER_DEFENSE", "maybe"),
    ("TENPAI_PLANNER_DEAL_IN_COST", "-3"),
    ("TENPAI_PLANNER_DEAL_IN_COST", "lots"),
    ("TENPAI_PLANNER_THREAT", "1.5"),
    ("TENPAI_PLANNER_TIE", "nan"),
])
def test_bad_settings_are_one_line_errors(
        var: str, value: str, bad_setting_is_one_line: Callable[[str, str], None]) -> None:
    bad_setting_is_one_line(var, value)


def test_settings_are_read_from_the_environment() -> None:
    s = PlannerSettings.from_env({"TENPAI_PLANNER_DEFENSE": "on",
                                  "TENPAI_PLANNER_DEAL_IN_COST": "30",
                                  "TENPAI_PLANNER_THREAT": "0.2"})
    assert s == PlannerSettings(defense=True, deal_in_cost=30.0, threat=0.2)
    assert s.describe() == "deal_in_cost=30.0,defense=True,threat=0.2"


def test_the_arena_refuses_a_bad_setting_with_exit_2(arena_refuses: Callable[..., None]
                                                     ) -> None:
    arena_refuses("TENPAI_PLANNER_THREAT", "-1", "planner_defend,planner,planner,planner")
    r = CliRunner().invoke(app, ["botzone-bot", "--agent", "planner"], input="")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "PLANNER_THREAT" in r.output


def test_the_calibration_counts_only_wins_worth_eight_fans() -> None:
    from tenpai.bench.mcr_danger_calibration import winning_kinds

    # 123 456 78m + 234s + 55p: 9m completes a pure straight (16 fans), 6m only a chicken
    # hand below 8
    counts = T.counts34(T.parse("12345678m234s55p"))
    assert winning_kinds(counts, (), 0, 0) == {_k("9m")}


def test_the_calibration_replays_a_stored_run(tmp_path: object, capsys: pytest.CaptureFixture[str]
                                              ) -> None:

    from tenpai.bench.mcr_danger_calibration import main

    db = Path(str(tmp_path)) / "run.db"
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--agents",
                                 "planner,efficiency,efficiency,efficiency", "--games", "4",
                                 "--seed", "3", "--workers", "1", "--no-progress",
                                 "--db", str(db)])
    assert r.exit_code == 0, r.output
    main([str(db)])
    out = capsys.readouterr().out
    assert "0 melds:" in out and "kinds passed: deal-in rate" in out

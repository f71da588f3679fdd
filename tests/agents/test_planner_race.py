"""The race-weighted value (``TENPAI_PLANNER_RACE``, ``tenpai.rules.mcr.plan.race``): a
target's completion at each future own draw counted as far as no other seat has won first."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from math import comb

import pytest
from typer.testing import CliRunner

from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.cli.main import app
from tenpai.rules.mcr.plan import (
    BOTS_SURVIVAL,
    DEFAULT_VALUATION,
    PlanError,
    PlanState,
    RaceError,
    Target,
    best_by_discard,
    completion_probability,
    plan,
    race_probability,
    target_probability,
)
from tenpai.rules.mcr.plan.race import survival

_ONES = (1.0,) * 22
_HANDS = ["12345678m234s55p7z", "1122m3344p5566s7z1s", "113355m2468p99s12z"]


@pytest.mark.parametrize("text", _HANDS)
def test_off_is_todays_value_exactly(text: str, hand_state: Callable[..., PlanState]) -> None:
    state = hand_state(text, draws=10)
    targets = plan(state)
    assert targets
    for t in targets:
        assert t.race_probability is None
        share = 0.4 if t.self_draw_only else 1.0
        assert t.value == t.probability * (24 + t.points) * share
        assert t.probability == target_probability(state, t.family, t.hand, t.needed,
                                                   state.unseen, True) or t.self_draw_only


@pytest.mark.parametrize("claims", [0.0, 0.3])
@pytest.mark.parametrize("text", _HANDS)
def test_a_survival_of_one_is_todays_value(text: str, claims: float,
                                            hand_state: Callable[..., PlanState]) -> None:
    state = hand_state(text, draws=10, claim_rate=claims)
    off = plan(state)
    ones = plan(replace(state, race=_ONES))
    assert [(t.family, t.hand) for t in ones] == [(t.family, t.hand) for t in off]
    for a, b in zip(off, ones):
        assert b.race_probability == a.probability and b.value == a.value
    assert best_by_discard(replace(state, race=_ONES)).keys() == best_by_discard(state).keys()


def test_the_race_probability_is_the_sum_over_draws_worked_directly() -> None:
    # one winning kind with 3 live copies among 60 unseen: P(t) = 1 - C(57, t) / C(60, t)
    live = [0] * 34
    live[0] = 3
    needed = ((0, 1),)

    def p(t: int) -> float:
        return 1 - comb(57, t) / comb(60, t)

    for drawn, draws in ((0, 21), (9, 12), (15, 6)):
        s = survival(BOTS_SURVIVAL, drawn, draws)
        direct = sum((p(t) - p(t - 1)) * s[t] for t in range(1, draws + 1))
        got = race_probability(lambda t: completion_probability(needed, live, 60, t),
                               completion_probability(needed, live, 60, draws), draws, drawn,
                               BOTS_SURVIVAL, first=1)
        assert got == pytest.approx(direct, rel=1e-12)
        assert 0.0 < got < p(draws)


def test_the_survival_is_the_tables_ratio() -> None:
    s = survival(BOTS_SURVIVAL, 9, 12)
    assert s[0] == 1.0 and s[3] == pytest.approx(BOTS_SURVIVAL[12] / BOTS_SURVIVAL[9])
    assert s[12] == pytest.approx(BOTS_SURVIVAL[21] / BOTS_SURVIVAL[9])
    assert all(a >= b for a, b in pairwise(s))
    # past the table's end the last figure holds
    assert survival(BOTS_SURVIVAL, 20, 5)[5] == pytest.approx(BOTS_SURVIVAL[21] / BOTS_SURVIVAL[20])
    with pytest.raises(RaceError):
        survival(BOTS_SURVIVAL, -1, 3)


def test_of_two_equally_likely_targets_the_earlier_is_worth_more() -> None:
    # the same total probability (0.5) and points: one completes by draw 2, one at draw 10
    def early(t: int) -> float:
        return 0.5 if t >= 2 else 0.0

    def late(t: int) -> float:
        return 0.5 if t >= 10 else 0.0

    r_early = race_probability(early, 0.5, 12, 9, BOTS_SURVIVAL)
    r_late = race_probability(late, 0.5, 12, 9, BOTS_SURVIVAL)
    assert r_early == pytest.approx(0.5 * BOTS_SURVIVAL[11] / BOTS_SURVIVAL[9])
    assert r_late == pytest.approx(0.5 * BOTS_SURVIVAL[19] / BOTS_SURVIVAL[9])

    def target(race: float | None) -> Target:
        return Target("free", (0,) * 34, (), (), (), 10, 0, False, 0.5, DEFAULT_VALUATION, race)

    assert target(r_early).value > target(r_late).value
    # with the race off both are worth the same
    assert target(None).value == 0.5 * 34


def test_the_race_turns_a_discard_toward_the_quicker_target() -> None:
    # a position of the planner's on the development walls of seed 4470: off, it keeps a
    # 21-fan hand two tiles away; in the race, the 9-fan hand one tile away
    args = ["explain", "--hand", "3456678m77999p88s", "--draws", "12", "--seat-wind", "S",
            "--seen", "122388m1114469p122399s1122234445666777z", "--json"]
    off = json.loads(CliRunner().invoke(app, args).output)
    on = CliRunner().invoke(app, args, env={"TENPAI_PLANNER_RACE": "bots"})
    assert on.exit_code == 0, on.output
    race = json.loads(on.output)
    assert off["discard"] == "8s" and race["discard"] == "6m"
    assert off["by_discard"]["8s"]["race_probability"] is None
    kept = race["by_discard"]["6m"]
    assert kept["race_probability"] < kept["probability"]


def test_explain_names_the_race_when_it_is_on() -> None:
    args = ["explain", "--hand", "12345678m234s55p7z", "--draws", "10"]
    off = CliRunner().invoke(app, args)
    on = CliRunner().invoke(app, args, env={"TENPAI_PLANNER_RACE": "bots"})
    assert off.exit_code == 0 and on.exit_code == 0
    assert "in the race" not in off.output and "in the race" in on.output


def test_the_setting_is_read_and_named() -> None:
    s = PlannerSettings.from_env({"TENPAI_PLANNER_RACE": "Bots"})
    assert s.race == "bots" and s.race_table == BOTS_SURVIVAL and s.describe() == "race=bots"
    assert PlannerSettings.from_env({"TENPAI_PLANNER_RACE": "off"}) == PlannerSettings()
    assert PlannerSettings().race_table == ()
    assert PlannerAgent(0, settings=s).identity == "race=bots"


@pytest.mark.parametrize("value", ["on", "1", "fast"])
def test_a_bad_race_setting_is_one_line(
        value: str, bad_setting_is_one_line: Callable[[str, str], None]) -> None:
    bad_setting_is_one_line("TENPAI_PLANNER_RACE", value)


def test_the_arena_and_explain_refuse_a_bad_race_setting_with_exit_2(
        arena_refuses: Callable[..., None]) -> None:
    arena_refuses("TENPAI_PLANNER_RACE", "fast")
    e = CliRunner().invoke(app, ["explain", "--hand", "12345678m234s55p7z"])
    assert e.exit_code == 2 and "TENPAI_PLANNER_RACE" in e.output


@pytest.mark.parametrize("table", [(0.9, 0.8), (1.0, 0.5, 0.6), (1.0, 0.0), ()])
def test_a_bad_table_is_refused(table: tuple[float, ...],
                                hand_state: Callable[..., PlanState]) -> None:
    if table:
        with pytest.raises(PlanError, match=r"PlanState\.race"):
            hand_state(_HANDS[0], race=table)
    else:
        assert hand_state(_HANDS[0], race=table).race == ()

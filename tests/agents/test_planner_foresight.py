"""``TENPAI_PLANNER_SIGHT=draws``: the planner that knows the order of its own draws — the
draws it reads are the ones the engine deals it, and its targets are ranked by when they
complete (:mod:`tenpai.rules.mcr.plan.foresight`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.agents.planner_sight import SightError, own_draws
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL
from tenpai.rules.mcr.game import MCRGame
from tenpai.rules.mcr.plan import PlanState
from tenpai.rules.mcr.plan.foresight import (
    completion_draw,
    foresight_best,
    foresight_by_discard,
)
from tenpai.rules.mcr.plan.race import BOTS_SURVIVAL


def _counts(compact: str) -> tuple[int, ...]:
    return tuple(T.parse_counts(compact))


def test_completion_is_the_draw_that_brings_the_last_needed_tile() -> None:
    assert completion_draw((), (5, 6)) == 0
    assert completion_draw(((3, 1),), (9, 3, 3)) == 2
    assert completion_draw(((3, 2), (7, 1)), (3, 7, 1, 3)) == 4
    assert completion_draw(((3, 2),), (3, 1, 2)) is None  # one copy is not two
    assert completion_draw(((3, 1),), ()) is None


def _draws_to(kinds: list[int], filler: int, n: int = 12) -> tuple[int, ...]:
    return tuple(kinds + [filler] * (n - len(kinds)))


def test_a_target_completed_sooner_is_worth_more() -> None:
    # a pure straight in characters (16 fans) needs 7m and lets 9s go; the draws that bring
    # the 7m early make the target 9s's discard keeps worth more than late ones
    hand = _counts("12345689m11p2349s")
    state = PlanState(concealed=hand, draws=12)
    early = foresight_by_discard(state, _draws_to([6], 33))
    late = foresight_by_discard(state, _draws_to([33] * 10 + [6], 33))
    assert early and late
    k = 26  # 9s
    assert early[k].value > late[k].value > 0.0
    s = BOTS_SURVIVAL
    assert early[k].probability == pytest.approx(s[10] / s[9])  # drawn 9, completes at the 1st
    assert not early[k].self_draw_only
    never = foresight_by_discard(state, _draws_to([], 33))
    assert all(t.value < early[k].value for t in never.values())


def test_every_foresight_target_is_completed_by_the_draws() -> None:
    hand = _counts("1237m456p789s1122z")
    draws = (30, 6, 2, 15, 19, 31, 27, 8, 8, 0)
    state = PlanState(concealed=hand, draws=len(draws))
    by_discard = foresight_by_discard(state, draws)
    assert by_discard
    for kind, t in by_discard.items():
        assert t.keeps(kind)
        assert completion_draw(t.needed, draws) is not None
    waiting = PlanState(concealed=_counts("237m456p789s1122z"), draws=len(draws))
    best = foresight_best(waiting, draws)
    assert best is not None and completion_draw(best.needed, draws) is not None


def test_own_draws_are_the_tiles_the_seat_then_draws() -> None:
    game = MCRGame(BOTZONE, seed=5)
    agents = [EfficiencyAgent(s) for s in range(4)]
    foreseen: dict[int, tuple[int, ...]] = {}
    since: dict[int, int] = {}
    table = game.round
    assert table is not None
    while not game.done:
        pending = game.pending()
        for d in pending:
            if d.seat not in foreseen and any(e.type == "dahai" for e in d.legal):
                foreseen[d.seat] = own_draws(d.observation)
                since[d.seat] = len(table.events)
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})
    assert len(foreseen) == 4
    for seat, future in foreseen.items():
        drawn = tuple(T.kind_of(e.pai) for e in table.events[since[seat]:]
                      if e.type == "tsumo" and e.actor == seat and e.pai is not None)
        assert drawn and drawn == future[:len(drawn)]


def test_a_shared_wall_is_refused_in_one_line() -> None:
    game = MCRGame(MCR_OFFICIAL, seed=4)
    d = next(d for d in game.pending() if any(e.type == "dahai" for e in d.legal))
    with pytest.raises(SightError, match="SIGHT=draws reads a seat's own wall") as err:
        own_draws(d.observation)
    assert "\n" not in str(err.value)


def test_the_foresighted_planner_plays_whole_games() -> None:
    seer = PlannerAgent(0, settings=PlannerSettings(sight="draws"))
    assert seer.identity == "sight=draws"
    plain = PlannerAgent(0)
    differs = 0
    for seed in (21, 22):
        game = MCRGame(BOTZONE, seed=seed)
        while not game.done:
            answers = {}
            for d in game.pending():
                answers[d.seat] = seer.act(d.observation, d.legal)
                if answers[d.seat] != plain.act(d.observation, d.legal):
                    differs += 1
            game.step(answers)
    assert differs > 0  # knowing the draws changes some decisions


def test_draws_needs_the_plain_valuation(monkeypatch: pytest.MonkeyPatch,
                                         arena_refuses: Callable[..., None]) -> None:
    with pytest.raises(ValueError, match="SIGHT=draws values targets by its own race") as err:
        PlannerSettings(sight="draws", claims=0.3)
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="SIGHT=draws"):
        PlannerSettings(sight="draws", race="bots")
    monkeypatch.setenv("TENPAI_PLANNER_SIGHT", "draws")
    arena_refuses("TENPAI_PLANNER_CLAIMS", "0.3")

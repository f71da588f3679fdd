"""``TENPAI_PLANNER_SIGHT``: the planner as an instrument that reads hidden tiles — its odds on
the real walls (``walls``), or never throwing a tile an opponent's real hand wins on
(``wins``) — checked against the engine itself."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.agents.planner_sight import SightError, undeclared_discards, wall_live
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.game import MCRGame
from tenpai.search.mcr.worlds import hidden_wall_slots


def _discard_turns(rules: MCRRules, seed: int) -> Iterator[tuple[MCRGame, Decision]]:
    """Every discard decision of a seeded game of four efficiency players, with the game as it
    stands (the caller must not keep it past the next step)."""
    game = MCRGame(rules, seed=seed)
    agents = [EfficiencyAgent(s) for s in range(4)]
    while not game.done:
        pending = game.pending()
        for d in pending:
            if any(e.type == "dahai" for e in d.legal):
                yield game, d
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})


@pytest.mark.parametrize(("rules", "seed"), [(BOTZONE, 3), (MCR_OFFICIAL, 4)])
def test_walls_are_the_undrawn_tiles(rules: MCRRules, seed: int) -> None:
    checked = 0
    for game, d in _discard_turns(rules, seed):
        assert game.round is not None
        undrawn = Counter(T.kind_of(t) for lst, a, b in hidden_wall_slots(game.round)
                          for t in lst[a:b] if T.kind_of(t) >= 0)
        assert wall_live(d.observation) == tuple(undrawn[k] for k in range(34))
        checked += 1
    assert checked > 20


def _someone_wins_on(game: MCRGame, d: Decision, e: Event) -> bool:
    """Whether, after ``d.seat`` throws ``e``, the engine offers another seat a win on it
    (not a self-draw of the next seat, which the engine reaches when no one may claim)."""
    after = copy.deepcopy(game)
    after.step({d.seat: e})
    return any(x.type == "hora" and x.target == d.seat and x.actor != d.seat
               for p in after.pending() for x in p.legal)


def test_wins_keeps_exactly_the_discards_no_one_wins_on() -> None:
    dangerous = 0
    for seed in (101, 104):  # short games (each discard is played out on a copy) with danger
        for game, d in _discard_turns(BOTZONE, seed):
            discards = [e for e in d.legal if e.type == "dahai"]
            by_kind = {T.kind_of(e.pai): e for e in discards if e.pai is not None}
            won = {k for k, e in by_kind.items() if _someone_wins_on(game, d, e)}
            kept = {T.kind_of(e.pai) for e in undeclared_discards(d.observation, discards)
                    if e.pai is not None}
            if won == set(by_kind):  # every discard wins for someone: all are left
                assert kept == set(by_kind)
            else:
                assert kept == set(by_kind) - won
            dangerous += bool(won)
    assert dangerous >= 5  # the check met positions where some discard deals in


def test_a_table_without_hidden_tiles_is_refused_in_one_line() -> None:
    _game, d = next(_discard_turns(BOTZONE, 3))

    class SeatState(MCRRound):
        """Stands for the Botzone bot's seat state, which does not know the others' tiles."""

    d.observation._table.__class__ = SeatState
    for sight, read in (("walls", lambda: wall_live(d.observation)),
                        ("wins", lambda: undeclared_discards(d.observation, d.legal))):
        with pytest.raises(SightError, match=f"SIGHT={sight} reads the engine's own table") as err:
            read()
        assert "\n" not in str(err.value)


def test_the_sighted_planners_play_by_what_they_see() -> None:
    walls = PlannerAgent(0, settings=PlannerSettings(sight="walls"))
    wins = PlannerAgent(0, settings=PlannerSettings(sight="wins"))
    assert (walls.identity, wins.identity) == ("sight=walls", "sight=wins")
    game = MCRGame(BOTZONE, seed=11)
    turns = 0
    while not game.done:
        answers = {}
        for d in game.pending():
            agent = wins if d.seat % 2 else walls
            answers[d.seat] = a = agent.act(d.observation, d.legal)
            if a.type != "dahai":
                continue
            turns += 1
            if agent is walls:
                assert walls.state(d.observation).live == wall_live(d.observation)
            else:
                discards = [e for e in d.legal if e.type == "dahai"]
                assert a in undeclared_discards(d.observation, discards)
        game.step(answers)
    assert turns > 20


def test_bad_sights_are_one_line(bad_setting_is_one_line: Callable[[str, str], None],
                                 arena_refuses: Callable[..., None]) -> None:
    bad_setting_is_one_line("TENPAI_PLANNER_SIGHT", "hands")
    arena_refuses("TENPAI_PLANNER_SIGHT", "hands")

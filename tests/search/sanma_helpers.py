"""Tables at the decisions of seeded three-player (``tenhou_sanma``, tonpuu) games played by
``efficiency``, which sets Norths aside (shared by the three-player search tests)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU_SANMA
from tenpai.search.worlds import hidden_slots

SANMA_TONPUU = dataclasses.replace(TENHOU_SANMA, length="tonpuu")
NORTH = 30


def sanma_decisions(seed: int, limit: int = 400) -> Iterator[tuple[RiichiRound, Decision]]:
    """Every pending decision of a seeded three-player efficiency game (the round is live)."""
    game = RiichiGame(SANMA_TONPUU, seed=seed)
    agent = EfficiencyAgent(seed)
    steps = 0
    while not game.done and steps < limit:
        assert game.round is not None
        for d in game.pending():
            yield game.round, d
        game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
        steps += 1


def find_sanma(pred: Callable[[RiichiRound, Decision], bool], seeds: range = range(40)
               ) -> tuple[RiichiRound, Decision]:
    """A copy of the first three-player table where ``pred`` holds, and its decision."""
    for seed in seeds:
        for rnd, d in sanma_decisions(seed):
            if pred(rnd, d):
                copy = clone(rnd)
                return copy, next(x for x in copy.pending() if x.seat == d.seat)
    raise AssertionError("no such decision in the seeded three-player games")


def hidden(rnd: RiichiRound, seat: int) -> Counter[int]:
    """The tiles ``seat`` cannot see at ``rnd``: the others' concealed tiles and the wall's
    hidden slots."""
    out: Counter[int] = Counter()
    for s in range(rnd.players):
        if s != seat:
            out.update(rnd.hands[s])
    for lst, a, b in hidden_slots(rnd):
        out.update(lst[a:b])
    return out


def fingerprint(rnd: RiichiRound) -> tuple[object, ...]:
    w = rnd.wall
    return (tuple(tuple(h) for h in rnd.hands), tuple(w.live), tuple(w.dora), tuple(w.ura),
            tuple(w.rinshan))


def swap_hidden(rnd: RiichiRound, seat: int) -> RiichiRound:
    """A copy where the next seat's first three concealed tiles and the next three live-wall
    tiles have changed places: the same view for ``seat``, other hidden tiles."""
    other = clone(rnd)
    opp = (seat + 1) % rnd.players
    w = other.wall
    top = w.live[w._next:w._next + 3]
    hand = other.hands[opp]
    w.live[w._next:w._next + 3] = hand[:3]
    other.hands[opp] = top + hand[3:]
    return other

"""Tables at chosen moments of seeded games played by ``efficiency`` (shared by the tests)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.flow import Decision
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

TONPUU = dataclasses.replace(TENHOU, length="tonpuu")


def decisions(seed: int, limit: int = 400) -> Iterator[tuple[RiichiRound, Decision]]:
    """Every pending decision of a seeded efficiency game (the round is live: copy to keep)."""
    game = RiichiGame(TONPUU, seed=seed)
    agent = EfficiencyAgent(seed)
    steps = 0
    while not game.done and steps < limit:
        assert game.round is not None
        for d in game.pending():
            yield game.round, d
        game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
        steps += 1


def find(pred: Callable[[RiichiRound, Decision], bool], seeds: range = range(40)
         ) -> tuple[RiichiRound, Decision]:
    from tenpai.engine.snapshot import clone

    for seed in seeds:
        for rnd, d in decisions(seed):
            if pred(rnd, d):
                copy = clone(rnd)
                mine = next(x for x in copy.pending() if x.seat == d.seat)
                return copy, mine
    raise AssertionError("no such decision in the seeded games")

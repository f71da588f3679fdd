"""The decisions ``search_mcr`` would search, drawn from seeded self-play of its planner.

The MCR twin of :mod:`tenpai.search.searched_decisions`: every seat plays the planner's own
choice, so the decisions a measurement compares ways of choosing at do not depend on what it
compares.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tenpai.events import Event
    from tenpai.rules.mcr.flow.round import MCRRound
    from tenpai.search.mcr.agent import MCRSearchAgent

__all__ = ["mcr_searched_decisions"]


def mcr_searched_decisions(agent: MCRSearchAgent, games: int, seed: int, max_decisions: int = 0,
                           preset: str = "botzone"
                           ) -> Iterator[tuple[MCRRound, int, list[Event], Sequence[Event]]]:
    """``(table, seat, candidates, legal)`` at every decision where ``agent`` would search
    (the planner unsure by the agent's ``close``; candidates its top ``top_k``, the planner's
    choice first) in ``games`` one-hand games of ``preset`` of seeds ``seed * 1000 + g``, every
    seat playing the planner's choice; at most ``max_decisions`` (0: every game played out)."""
    from tenpai.rules.mcr.flow.round import MCRRound
    from tenpai.rules.mcr.flow.rules import PRESETS
    from tenpai.rules.mcr.game import MCRGame
    from tenpai.search.mcr.agent import planner_unsure

    s = agent.settings
    found = 0
    for g in range(games):
        game = MCRGame(PRESETS[preset], seed=seed * 1000 + g)
        while not game.done:
            moves = {}
            for d in game.pending():
                choice, ranked = agent.planner.ranking(d.observation, d.legal)
                moves[d.seat] = choice
                table = getattr(d.observation, "_table", None)
                if (isinstance(table, MCRRound) and planner_unsure(d.observation, ranked, s.close)
                        and not (max_decisions and found >= max_decisions)):
                    found += 1
                    yield table, d.seat, [e for e, _v in ranked[: s.top_k]], d.legal
            game.step(moves)
        if max_decisions and found >= max_decisions:
            return

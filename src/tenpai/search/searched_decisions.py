"""The decisions a registered ``search`` would search, drawn from seeded self-play of its prior.

The measurement tools (:mod:`tenpai.search.leaf_agreement`, :mod:`tenpai.search.choice_evidence`)
compare ways of valuing or choosing at the same decisions.  Taking them from games in which
every seat plays the prior's own choice keeps the games independent of what is compared: the
decisions are the same whichever leaf or rule a tool tries.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tenpai.rules.riichi.flow.round import RiichiRound
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior import PriorAnswer

__all__ = ["searched_decisions"]


def searched_decisions(agent: SearchAgent, games: int, seed: int, max_decisions: int = 0
                       ) -> Iterator[tuple[RiichiRound, int, PriorAnswer]]:
    """``(table, seat, prior answer)`` at every decision where ``agent`` would search (more
    than one candidate, the prior's own choice below the agent's threshold) in ``games``
    Tenhou tonpuu games of seeds ``seed * 1000 + g``, every seat playing the prior's choice;
    at most ``max_decisions`` of them (0: every game played out)."""
    from tenpai.rules.riichi.compiled_round import python_table
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import PRESETS

    rules = dataclasses.replace(PRESETS["tenhou"], length="tonpuu")
    threshold = agent.settings.threshold
    found = 0
    for g in range(games):
        game = RiichiGame(rules, seed=seed * 1000 + g)
        while not game.done:
            pending = game.pending()
            answers = agent.prior.answer_batch([(d.observation, d.legal) for d in pending])
            for d, pa in zip(pending, answers):
                if (len(pa.candidates) > 1 and pa.choice_prior < threshold
                        and not (max_decisions and found >= max_decisions)):
                    table = python_table(getattr(d.observation, "_table", None))
                    if table is not None:
                        found += 1
                        yield table, d.seat, pa
            game.step({d.seat: pa.choice for d, pa in zip(pending, answers)})
        if max_decisions and found >= max_decisions:
            return

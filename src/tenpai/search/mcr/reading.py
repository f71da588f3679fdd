"""Weighted MCR worlds: fair draws kept in proportion to how well they explain the discards.

The fair sampler (:mod:`tenpai.search.mcr.worlds`) deals every unseen tile anywhere with equal
chance, so its worlds hold the opponents' real waits no more often than chance.  Knowing the
opponents' hands outright (``SIGHT=hands``) was worth +8.65 [+1.74, +15.55] points a game over
the planner against three greedy bots (seed 47307), most of it from dealing in less; this
module is the honest half of that: it reads the hands from what the table shows.

**The reading.**  A player who plays for speed keeps the best shanten its hand allows: of the
kinds it could throw, it throws one that leaves the MCR shanten (:func:`~tenpai.hand.shanten_mcr`,
every winning form) as low as any other does.  Under a world that gives an opponent the
concealed hand ``H`` just before a discard of ``d``, each kind ``k`` in ``H`` gets the weight
``miss ** (shanten after throwing k − the lowest shanten after any throw)``, and the discard's
probability is ``d``'s weight over the sum: the kinds that keep the best shanten share most of
it, each step of shanten given away costs a factor ``miss``.  A world's log weight is the sum
over the opponents' scored discards.  ``miss`` is a ratio, not a share: with 10 kinds that
keep the best shanten and 2 that do not, ``miss`` = 0.1 gives each keeper 1 / 10.2 and each
breaker 0.1 / 10.2, however many kinds break it.  The greedy bots never break it (they
break ties among the keepers by counting useful draws, which is not modelled here); people
and our own planner do when they steer for fans, so it is a setting
(``$TENPAI_SEARCH_MCR_MISS``), not zero.

**Which discards.**  ``H`` must be exact, so only the discards the world's current hand
explains are scored: the Riichi search's walk
(:func:`~tenpai.search.weights.scored_discards`) — from the opponent's latest discard back
through the discards of the tile just drawn (a tsumogiri leaves the hand as it was), up to
and including the first discard from the hand, stopped by a call or kong of that opponent.
``H`` is then the world's current hand plus the discarded tile.  Where the view does not say
which discards were tsumogiri (the Botzone protocol does not), only the latest is scored.

**The worlds.**  ``pool × worlds`` fair draws (:func:`~tenpai.search.mcr.worlds.draw_hidden`
of seeds of their own) are weighted, resampled systematically to ``worlds`` picks
(:func:`~tenpai.search.weights.resampled`), and each played world keeps its pick's hands and
concealed kongs on a wall shuffled by its own seed
(:func:`~tenpai.search.mcr.worlds.reshuffled_wall`), so a pick played twice is two worlds.
What a world is made of is a :class:`~tenpai.search.mcr.worlds.HiddenDraw` as before, so the
compiled core's exported worlds play weighted worlds as they play fair ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.search.mcr.worlds import HiddenDraw
from tenpai.search.weights import scored_discards

__all__ = ["SCORED_PER_SEAT", "WORLDS_MODES", "Evidence", "ShantenReading"]

#: ``uniform``: every fair draw counts the same; ``weighted``: this module's reading.
WORLDS_MODES: Final = ("uniform", "weighted")
#: At most this many discards scored per opponent (a shanten per kind each: cheap).
SCORED_PER_SEAT: Final = 4


@dataclass(frozen=True, slots=True)
class Evidence:
    """The discards a world is weighed by: per opponent, the kinds it threw that its current
    hand explains (latest first)."""

    discards: dict[int, tuple[int, ...]]

    @property
    def scored(self) -> int:
        return sum(len(d) for d in self.discards.values())


class ShantenReading:
    """The speed player's likelihood of the opponents' discards (module docstring)."""

    def __init__(self, miss: float = 0.1) -> None:
        if not 0.0 < miss < 1.0:
            raise ValueError(f"the reading's miss ratio must be in (0, 1), got {miss}")
        self.miss = miss
        self._cache: dict[tuple[int, ...], tuple[int, ...]] = {}

    @staticmethod
    def evidence(events: Sequence[Event], others: Sequence[int]) -> Evidence:
        """The scored discards of each seat of ``others`` in a position's view ``events``."""
        out: dict[int, tuple[int, ...]] = {}
        for s in others:
            kinds = []
            for i in scored_discards(events, s, SCORED_PER_SEAT):
                pai = events[i].pai
                assert pai is not None  # scored_discards keeps discards with a tile
                kinds.append(T.kind_of(pai))
            if kinds:
                out[s] = tuple(kinds)
        return Evidence(out)

    def _after(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """Shanten after throwing each kind of ``counts`` (99 where the kind is not held)."""
        got = self._cache.get(counts)
        if got is None:
            c = list(counts)
            after = []
            for k in range(34):
                if c[k] == 0:
                    after.append(99)
                    continue
                c[k] -= 1
                after.append(shanten_mcr(c))
                c[k] += 1
            got = self._cache[counts] = tuple(after)
        return got

    def discard_log_p(self, counts: Sequence[int], kind: int) -> float:
        """Log probability of throwing ``kind`` from concealed tiles of kind counts ``counts``
        (34 kinds, the thrown tile included)."""
        if counts[kind] == 0:
            raise ValueError(f"a hand without kind {kind} cannot throw it")
        after = self._after(tuple(counts))
        low = min(after)
        total = sum(self.miss ** (a - low) for a in after if a != 99)
        return (after[kind] - low) * math.log(self.miss) - math.log(total)

    def log_weight(self, evidence: Evidence, drawn: HiddenDraw) -> float:
        """The world's log weight: every scored discard against the world's hand for its seat."""
        total = 0.0
        for s, kinds in evidence.discards.items():
            counts = T.counts34(drawn.hands[s])
            for kind in kinds:
                counts[kind] += 1
                total += self.discard_log_p(counts, kind)
                counts[kind] -= 1
        return total

    def log_weights(self, evidence: Evidence, draws: Sequence[HiddenDraw]) -> list[float]:
        """:meth:`log_weight` of each draw."""
        return [self.log_weight(evidence, d) for d in draws]

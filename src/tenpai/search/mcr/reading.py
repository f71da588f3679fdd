"""Weighted MCR worlds: drawn hands kept in proportion to how well they explain the discards.

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
keep the best shanten and 2 that do not, ``miss`` = 0.5 gives each keeper 1 / 11 and each
breaker 0.5 / 11, however many kinds break it.  The greedy bots never break it (they
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

**The worlds.**  ``pool × worlds`` draws of seeds of their own — fair ones
(:func:`~tenpai.search.mcr.worlds.draw_hidden`, ``WORLDS_MODE=weighted``) or speed players'
hands (:func:`draw_speed_hidden`, ``WORLDS_MODE=speed``) — are weighted, resampled
systematically to ``worlds`` picks (:func:`~tenpai.search.weights.resampled`), and each
played world keeps its pick's hands and concealed kongs on a wall shuffled by its own seed
(:func:`~tenpai.search.mcr.worlds.reshuffled_wall`), so a pick played twice is two worlds.
What a world is made of is a :class:`~tenpai.search.mcr.worlds.HiddenDraw` as before, so the
compiled core's exported worlds play weighted worlds as they play fair ones.

**Why a second proposal.**  Thirteen tiles at random are almost never ready, and a pool of 64
such draws rarely holds one hand that is, so weighting fair draws cannot give the worlds the
opponents' waits: on 32 development games of the planner against the greedy bots (seed 47201,
``python -m tenpai.bench.mcr_reading_calibration``), fair weighted worlds said a tile that was
a real wait completes an opponent's hand 0.6 % of the time, uniform ones 0.1 %, and neither
read the waits better than the other; the speed players' hands said 13 % on the waits against
5 % elsewhere and cut the log-loss of that question by a quarter.  The weights then add little
on top (``miss`` 0.3 to 0.95 all did about as well, 0.1 worse, its few heavy draws crowding
out the rest), hence the default 0.5.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.search.mcr.worlds import HiddenDraw, WorldView, draw_hidden
from tenpai.search.weights import scored_discards

__all__ = ["MAX_TURNS", "SCORED_PER_SEAT", "WORLDS_MODES", "Evidence", "ShantenReading",
           "draw_speed_hidden", "speed_turns", "turns_taken"]

#: ``uniform``: every fair draw counts the same; ``weighted``: fair draws weighted by this
#: module's reading; ``speed``: speed players' hands (:func:`draw_speed_hidden`) weighted so;
#: ``history``: each opponent's hand picked by its whole discard history
#: (:mod:`tenpai.search.mcr.history`).
WORLDS_MODES: Final = ("uniform", "weighted", "speed", "history")
#: Hands whose throws the reading remembers before it forgets them all.
CACHE_LIMIT: Final = 200_000
#: A speed hand is improved by at most this many draws (an opponent's turns so far).
MAX_TURNS: Final = 30
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

    def __init__(self, miss: float = 0.5) -> None:
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

    def after(self, counts: Sequence[int]) -> tuple[int, ...]:
        """Shanten after throwing each kind of ``counts`` (99 where the kind is not held)."""
        key = tuple(counts)
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()  # a long arena run would otherwise keep every hand seen
            c = list(counts)
            after = []
            for k in range(34):
                if c[k] == 0:
                    after.append(99)
                    continue
                c[k] -= 1
                after.append(shanten_mcr(c))
                c[k] += 1
            got = self._cache[key] = tuple(after)
        return got

    def discard_log_p(self, counts: Sequence[int], kind: int) -> float:
        """Log probability of throwing ``kind`` from concealed tiles of kind counts ``counts``
        (34 kinds, the thrown tile included)."""
        if counts[kind] == 0:
            raise ValueError(f"a hand without kind {kind} cannot throw it")
        after = self.after(counts)
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


def turns_taken(events: Sequence[Event], others: Sequence[int]) -> dict[int, int]:
    """Each seat of ``others``' discards so far in a view: the draws a speed hand is improved
    by (a call's discard counts too: the called tile took a draw's place)."""
    n = dict.fromkeys(others, 0)
    for e in events:
        if e.type == "dahai" and e.actor in n:
            n[e.actor] += 1
    return n


def draw_speed_hidden(view: WorldView, seed: int, turns: Mapping[int, int],
                      reading: ShantenReading) -> HiddenDraw:
    """Hidden tiles whose opponents' hands look like a speed player's after its turns.

    A fair draw's hand is 13 tiles at random, rarely ready; an opponent who has drawn and
    thrown ten times while keeping its best shanten is often ready.  So each opponent's hand
    starts as :func:`~tenpai.search.mcr.worlds.draw_hidden`'s and is then improved by its
    ``turns`` (at most :data:`MAX_TURNS`): a random tile of the undrawn wall comes in, the
    kind whose throw leaves the lowest shanten goes back (ties at random).  The hands stay
    within the unseen tiles and the wall is shuffled again afterwards, so the world is as
    consistent with the view as a fair one; only which hands are likely changes.  This is a
    proposal, not a posterior: the weights that follow (:meth:`ShantenReading.log_weights`)
    do not divide by its density.
    """
    base = draw_hidden(view, seed)
    rng = random.Random(seed ^ 0x5EED)
    wall = list(base.wall)
    plain = [i for i, t in enumerate(wall) if T.kind_of(t) >= 0]
    hands: dict[int, list[int]] = {}
    for s, hand in base.hands.items():
        hand = list(hand)
        speed_turns(hand, wall, plain, turns.get(s, 0), reading, rng)
        hands[s] = hand
    rng.shuffle(wall)
    return HiddenDraw(hands, base.kong_tiles, wall)


def speed_turns(hand: list[int], wall: list[int], plain: Sequence[int], turns: int,
                reading: ShantenReading, rng: random.Random) -> None:
    """Improve ``hand`` in place as a speed player's over ``turns`` (at most
    :data:`MAX_TURNS`): a tile of ``wall`` at a random index of ``plain`` (places holding no
    flower) comes in, a kind whose throw leaves the lowest shanten (ties at random) goes back
    to that place."""
    if not plain:
        return
    for _ in range(min(turns, MAX_TURNS)):
        i = plain[rng.randrange(len(plain))]
        hand.append(wall[i])
        after = reading.after(T.counts34(hand))
        low = min(after)
        kind = rng.choice([k for k, a in enumerate(after) if a == low])
        j = next(j for j, t in enumerate(hand) if T.kind_of(t) == kind)
        wall[i] = hand.pop(j)

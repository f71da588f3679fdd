"""Weights of sampled worlds: how likely each opponent's observed discards are under them.

A world proposes concealed hands for the opponents; the opponents' recorded discards are
evidence about those hands.  The weight of a world is the probability, under the prior network
(``pg``'s discard head — the policy fitted to Houou players), that each opponent would have
discarded what it did *holding the hand the world gives it*, multiplied over opponents and
over the discards that can be scored exactly:

* an opponent's hand at a discard is known from the world's current hand only while nothing
  has changed it since: walking back from its latest discard, every tsumogiri (the drawn tile
  went straight out) leaves the hand as it is now, so the discard is scored against "the
  current hand plus the discarded tile"; the walk includes the first hand-tile discard
  (tedashi) it meets and stops there, because before it the hand held a tile drawn later that
  the world does not name.  A call or kan by the opponent also stops the walk;
* discards after the opponent's own riichi are forced and say nothing (skipped, the walk goes
  on to the declaration discard, which is scored);
* the network sees the public table as it was just before that discard (rivers, melds, dora,
  scores, riichi flags — one :class:`~tenpai.learn.state.RoundTracker` pass per decision, the
  same for every world) with the world's hand swapped in; its softmax over the kinds in that
  hand gives the probability of the kind discarded.  The ``discard_threat`` head is used where
  ``pg`` itself would use it (another seat's riichi stands).

``temperature`` tempers the log-likelihood (weight = likelihood ** (1 / temperature)): a network
fitted to people is over-sure about any single player, and a handful of worlds must not all
give way to one.

Not used: 001's tenpai / wait models (``tenpai.mdp``): they sit above the search layer and they
predict from public features only, so they cannot tell one sampled hand from another except
through "ready or not"; the network reads the hand itself.

Cost: one network call per decision over (pool worlds × scored discards) rows; at most
:data:`MAX_SCORED` discards per opponent (the latest and the hand-tile discard that ends the
walk), so at most 6 rows per world (docs/search_runs.md has the measured milliseconds).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.state import RoundTracker, SeatView
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = [
    "MAX_SCORED",
    "DiscardLikelihood",
    "ScoredDiscard",
    "SummedLikelihood",
    "WorldLikelihood",
    "effective_size",
    "normalised",
    "resampled",
    "scored_discards",
    "systematic_resample",
]

_HAND_CHANGES = ("chi", "pon", "daiminkan", "ankan", "kakan", "nukidora")


@dataclass(frozen=True, slots=True)
class ScoredDiscard:
    """One discard of ``seat`` the world's hand explains exactly: the public view before it."""

    seat: int
    tile: int
    view: SeatView
    head: str


#: At most this many discards per opponent are scored (the latest and the hand-tile discard
#: that ends the walk): the network call is the weights' whole cost.
MAX_SCORED = 2


def scored_discards(events: Sequence[Event], seat: int, limit: int = MAX_SCORED) -> list[int]:
    """Indices in ``events`` of ``seat``'s discards that can be scored against its current
    hand (see the module docstring), latest first; of a walk longer than ``limit``, its first
    ``limit - 1`` and its last."""
    reach_at = next((i for i, e in enumerate(events)
                     if e.type == "reach" and e.actor == seat), None)
    out: list[int] = []
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.actor != seat:
            continue
        if e.type in _HAND_CHANGES:
            break
        if e.type != "dahai" or e.pai is None:
            continue
        forced = reach_at is not None and i > reach_at + 1
        if forced:
            continue
        out.append(i)
        if not e.tsumogiri:
            break
    if len(out) > limit:
        out = [*out[: limit - 1], out[-1]]
    return out


def systematic_resample(weights: Sequence[float], n: int, u: float) -> list[int]:
    """``n`` indices drawn in proportion to ``weights`` with one uniform ``u`` in [0, 1): each
    index appears floor or ceil of n·w times (less variance than n independent draws)."""
    total = float(sum(weights))
    if not total > 0 or n <= 0:
        raise ValueError("systematic_resample needs positive weights and n > 0")
    out: list[int] = []
    step = total / n
    point = u * step
    acc = 0.0
    i = 0
    for _ in range(n):
        while i < len(weights) - 1 and acc + weights[i] <= point:
            acc += weights[i]
            i += 1
        out.append(i)
        point += step
    return out


class DiscardLikelihood:
    """The prior network's log-likelihood of each opponent's scorable discards, per world.

    ``agent`` is an :class:`~tenpai.agents.sl.SLAgent` (``pg``): its ``encoder`` and
    ``bundle.logits`` are used directly, one batch per call.
    """

    def __init__(self, agent: Any, temperature: float = 1.0) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be > 0, got {temperature}")
        self.agent = agent
        self.temperature = temperature
        heads = set(agent.bundle.heads)
        if "discard" not in heads:
            raise ValueError("the weighting network has no discard head")
        self._threat = "discard_threat" in heads

    # ------------------------------------------------------------------ public state
    def evidence(self, events: Sequence[Event], seat: int, players: int,
                 rules: RiichiRules | None = None) -> list[ScoredDiscard]:
        """The scorable discards of every opponent of ``seat``, with the public table before
        each, from the seat's (masked) event list (``rules`` are not read: the network saw the
        table, not its rules)."""
        wanted: dict[int, int] = {}
        for s in range(players):
            if s != seat:
                for i in scored_discards(events, s):
                    wanted[i] = s
        if not wanted:
            return []
        tracker = RoundTracker(watch=())
        out: list[ScoredDiscard] = []
        last = max(wanted)
        for i, e in enumerate(events[: last + 1]):
            if i in wanted:
                s = wanted[i]
                assert e.pai is not None
                out.append(ScoredDiscard(s, e.pai, self._public_view(tracker, s),
                                         self._head(tracker, s)))
            tracker.apply(e)
        return out

    def _head(self, tracker: RoundTracker, s: int) -> str:
        threat = not tracker.riichi[s] and any(
            on for o, on in enumerate(tracker.riichi_accepted) if o != s)
        return "discard_threat" if threat and self._threat else "discard"

    @staticmethod
    def _public_view(tracker: RoundTracker, s: int) -> SeatView:
        saved_hand, saved_red = tracker.hands[s], tracker.red[s]
        tracker.hands[s] = [0] * 34
        try:
            return tracker.view(s, with_history=False)
        finally:
            tracker.hands[s] = saved_hand
            tracker.red[s] = saved_red

    # ------------------------------------------------------------------ per world
    def log_weights(
        self, evidence: Sequence[ScoredDiscard], hands: Sequence[Mapping[int, Sequence[int]]]
    ) -> list[float]:
        """Tempered log-likelihood of ``evidence`` for each world; ``hands[w][s]`` is seat s's
        concealed tiles (tile codes) in world w.  Worlds without evidence all get 0."""
        n = len(hands)
        if not evidence:
            return [0.0] * n
        rows: dict[str, list[tuple[int, SeatView, int]]] = {}
        for w, world in enumerate(hands):
            for ev in evidence:
                if len(world[ev.seat]) % 3 != 1:
                    continue  # not between turns (a kan in progress): no exact hand
                tiles = [*world[ev.seat], ev.tile]
                counts = T.counts34(tiles)
                red = [0, 0, 0]
                for t in tiles:
                    if T.is_red(t):
                        red[t - 34] += 1
                view = dataclasses.replace(ev.view, hand=tuple(counts),
                                           red=(red[0], red[1], red[2]))
                rows.setdefault(ev.head, []).append((w, view, T.kind_of(ev.tile)))
        logl = [0.0] * n
        for head, items in rows.items():
            x = self.agent.encoder.encode_batch([v for _w, v, _k in items])
            logits = np.asarray(self.agent.bundle.logits(head, x), dtype=np.float64)
            for (w, view, kind), row in zip(items, logits):
                legal = [k for k in range(34) if view.hand[k] > 0]
                z = row[legal]
                top = float(z.max())
                lse = top + math.log(float(np.exp(z - top).sum()))
                logl[w] += float(row[kind]) - lse
        return [v / self.temperature for v in logl]


class WorldLikelihood(Protocol):
    """Evidence read once per decision from the seat's view, then a log weight per world.

    ``rules``: the table's, where the caller has them (the search agent passes its table's), for
    the parts that judge legality (:class:`~tenpai.search.win_passes.WinPassLikelihood`: which
    wins had a yaku); ``None``, a part's own default."""

    def evidence(self, events: Sequence[Event], seat: int, players: int,
                 rules: RiichiRules | None = None) -> Any: ...

    def log_weights(self, evidence: Any,
                    hands: Sequence[Mapping[int, Sequence[int]]]) -> list[float]: ...


class SummedLikelihood:
    """Independent pieces of evidence (the discards, the calls): their log weights add."""

    def __init__(self, parts: Sequence[WorldLikelihood]) -> None:
        if not parts:
            raise ValueError("SummedLikelihood needs at least one part")
        self.parts = tuple(parts)

    def evidence(self, events: Sequence[Event], seat: int, players: int,
                 rules: RiichiRules | None = None) -> list[Any]:
        return [p.evidence(events, seat, players, rules) for p in self.parts]

    def log_weights(self, evidence: Sequence[Any],
                    hands: Sequence[Mapping[int, Sequence[int]]]) -> list[float]:
        total = [0.0] * len(hands)
        for part, ev in zip(self.parts, evidence):
            total = [a + b for a, b in zip(total, part.log_weights(ev, hands))]
        return total


def resampled(weights: Sequence[float], n: int, u: float) -> list[int]:
    """:func:`systematic_resample`'s ``n`` picks, interleaved: they come in pool order, and a
    budget that stops playing early should still have played picks from across the pool."""
    picks = systematic_resample(weights, n, u)
    order = sorted(range(len(picks)), key=lambda i: ((i * 5) % len(picks), i))
    return [picks[i] for i in order]


def normalised(log_weights: Sequence[float]) -> list[float]:
    """Weights summing to one from log weights (the largest first subtracted: no overflow)."""
    top = max(log_weights)
    raw = [math.exp(v - top) for v in log_weights]
    total = sum(raw)
    return [r / total for r in raw]


def effective_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size of normalised weights (n when equal, 1 when one takes all)."""
    return 1.0 / sum(w * w for w in weights)

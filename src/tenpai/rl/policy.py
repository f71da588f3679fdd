"""The learner of policy-gradient self-play: the supervised agent with a *sampling* discard head.

Seed 002 fine-tunes only the discard network; pon, chi (and here riichi and kan) keep the
supervised decisions, exactly as :class:`~tenpai.agents.sl.SLAgent` makes them.  For every
discard the learner draws a kind from the softmax of the discard head over the legal kinds (at
``temperature``) instead of taking the best one, and hands the runner a :class:`DiscardSample`
holding what the gradient step needs: the encoded input, the legal mask, the kind drawn, its
log-probability under the weights that drew it, the shanten after the discard (for 002's
win-distance shaping) and the hand it belongs to.

The draw is a deterministic function of the observation and the learner's ``seed`` (a hash of
the seat's own deal, the hand and the position in it), not of a shared random stream, so the
same spec gives the same games however many tables or workers play it.

``greedy=True`` takes the supervised agent's own choice (the best-scored kind, the same tile
:class:`SLAgent` plays) instead of a draw and still records it: the trunk and the rollouts of
the vine estimator (:mod:`tenpai.rl.vine`) play the greedy policy but need the encoded
positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.agents.sl import SLAgent
from tenpai.engine.wall import SplitMix64
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.models.bundle import ModelBundle
from tenpai.rl.rewards import HandKey, hand_key

__all__ = [
    "DiscardSample",
    "SampledDiscards",
    "SamplingSLAgent",
    "draw_id",
    "draw_kind",
    "greedy_kind",
    "masked_log_softmax",
    "uniform_for",
]

_MASK = 0xFFFF_FFFF_FFFF_FFFF


@dataclass(frozen=True, slots=True)
class DiscardSample:
    """What one sampled discard leaves for training (``Step.info`` of the self-play runner)."""

    x: np.ndarray
    legal: np.ndarray
    action: int
    logp: float
    shanten_after: int
    hand: HandKey


def masked_log_softmax(logits: np.ndarray, legal: np.ndarray, temperature: float) -> np.ndarray:
    """Log-probabilities over the legal classes (``-inf`` elsewhere), numerically stable."""
    z = np.where(legal, logits.astype(np.float64) / temperature, -np.inf)
    z = z - z[legal].max()
    out: np.ndarray = z - np.log(np.exp(z[legal]).sum())
    return out


class SampledDiscards:
    """What both learners share: the temperature, ``act_batch`` through the info form, and
    turning one drawn kind into the discard event and its :class:`DiscardSample`."""

    seed: int
    temperature: float = 1.0
    #: Play the best-scored kind (the supervised agent's choice) instead of drawing one.
    greedy: bool = False

    def _set_temperature(self, temperature: float) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be positive, got {temperature}")
        self.temperature = temperature

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [a for a, _ in self.act_batch_with_info(requests)]

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, DiscardSample | None]]:
        raise NotImplementedError

    def _sample(
        self,
        obs: Any,
        legal: Sequence[Event],
        logits: np.ndarray,
        x: np.ndarray,
        hand: Sequence[int],
        shanten_of: Callable[[list[int]], int],
    ) -> tuple[Event, DiscardSample]:
        discards = [e for e in legal if e.type == "dahai" and e.pai is not None]
        if self.greedy:
            kind, mask, logp = greedy_kind(discards, logits, self.temperature)
        else:
            kind, mask, logp = draw_kind(
                discards, logits, self.temperature, uniform_for(self.seed, obs)
            )
        counts = list(hand)
        counts[kind] -= 1
        sample = DiscardSample(
            x=np.array(x, copy=True),
            legal=mask,
            action=kind,
            logp=logp,
            shanten_after=shanten_of(counts),
            hand=hand_key(obs.events[0]),
        )
        return SLAgent.discard_of_kind(discards, kind), sample


class SamplingSLAgent(SampledDiscards, SLAgent):
    """:class:`SLAgent` whose discards are drawn from the discard head (see the module doc)."""

    def __init__(
        self,
        model: str | ModelBundle = "default",
        seed: int = 0,
        name: str = "pg_learner",
        temperature: float = 1.0,
        threads: int | None = 1,
        greedy: bool = False,
    ) -> None:
        super().__init__(model, seed, name=name, threads=threads)
        self._set_temperature(temperature)
        self.greedy = greedy

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, DiscardSample | None]]:
        queries = [self._plan(obs, legal) for obs, legal in requests]
        scores, inputs = self._score(queries)
        rows: dict[int, int] = {}
        x_all: np.ndarray | None = None
        if "discard" in inputs:
            idx, x_all = inputs["discard"]
            rows = {i: r for r, i in enumerate(idx)}
        out: list[tuple[Event, DiscardSample | None]] = []
        for i, q in enumerate(queries):
            if q.answer is not None:
                out.append((q.answer, None))
                continue
            choice = self._decide(q, scores[i])
            if choice.type != "dahai" or i not in rows or x_all is None or q.view is None:
                out.append((choice, None))
                continue
            obs = requests[i][0]
            out.append(
                self._sample(
                    obs, q.legal, scores[i]["discard"], x_all[rows[i]], q.view.hand, shanten
                )
            )
        return out


def draw_kind(
    discards: Sequence[Event], logits: np.ndarray, temperature: float, u: float
) -> tuple[int, np.ndarray, float]:
    """The kind drawn with the uniform ``u`` from the softmax over the discards' kinds, the
    legal mask and the kind's log-probability."""
    kinds = sorted({T.kind_of(e.pai or 0) for e in discards})
    return draw_id(logits, kinds, temperature, u)


def draw_id(logits: np.ndarray, ids: Sequence[int], temperature: float,
            u: float) -> tuple[int, np.ndarray, float]:
    """The id drawn with the uniform ``u`` from the softmax over the legal ``ids`` (the
    inverse of the cumulative distribution at ``u``), the legal mask and the id's
    log-probability."""
    mask = np.zeros(len(logits), dtype=bool)
    mask[list(ids)] = True
    logp = masked_log_softmax(logits, mask, temperature)
    legal = np.flatnonzero(mask)
    cdf = np.cumsum(np.exp(logp[legal]))
    at = int(np.searchsorted(cdf, u * cdf[-1], side="right"))
    chosen = int(legal[min(at, len(legal) - 1)])
    return chosen, mask, float(logp[chosen])


def greedy_kind(
    discards: Sequence[Event], logits: np.ndarray, temperature: float
) -> tuple[int, np.ndarray, float]:
    """The best-scored kind among the discards' kinds (chosen exactly as
    :meth:`SLAgent._discard` chooses, so a greedy learner plays the supervised agent's games),
    the legal mask and the kind's log-probability at ``temperature``."""
    mask = np.zeros(34, dtype=bool)
    for e in discards:
        mask[T.kind_of(e.pai or 0)] = True
    kinds = {T.kind_of(e.pai) for e in discards if e.pai is not None}
    kind = int(max(kinds, key=lambda k: logits[k]))
    logp = masked_log_softmax(logits, mask, temperature)
    return kind, mask, float(logp[kind])


def uniform_for(seed: int, obs: Any) -> float:
    """A uniform draw in [0, 1) fixed by ``seed``, the seat's own deal and the moment."""
    events = obs.events
    start = events[0]
    own = start.tehais[obs.seat] if start.tehais else ()
    key = hash((seed, obs.seat, hand_key(start), tuple(own or ()), len(events)))
    return (SplitMix64(key & _MASK).next() >> 11) / float(1 << 53)

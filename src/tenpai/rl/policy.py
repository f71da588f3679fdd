"""The learner of policy-gradient self-play: the supervised agent with *sampling* heads.

Seed 002 fine-tunes only the discard network; pon, chi (and here riichi and kan) keep the
supervised decisions, exactly as :class:`~tenpai.agents.sl.SLAgent` makes them.  For every
discard the learner draws a kind from the softmax of the discard head over the legal kinds (at
``temperature``) instead of taking the best one, and hands the runner a :class:`DiscardSample`
holding what the gradient step needs: the encoded input, the legal mask, the kind drawn, its
log-probability under the weights that drew it, the shanten after the discard (for 002's
win-distance shaping) and the hand it belongs to.

``heads`` widens this beyond 002: the Riichi learner may also draw its riichi, pon and chi
decisions from those heads (each a sample of its own ``head``), or leave its discards to the
greedy start and draw only those.  Why: the supervised heads are trained on human choices, and
their argmax leans to the majority answer ("do not call", "do not riichi") wherever the records
disagree; a probe that merely shifted those heads' logits moved the rank (docs/rl_runs.md), which a
discard-only gradient cannot find.  A request that declines riichi and then discards yields two
samples, returned together as a tuple (:func:`samples_of` reads either form).

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
from typing import Any, ClassVar

import numpy as np

from tenpai import tiles as T
from tenpai.agents.sl import SLAgent
from tenpai.engine.wall import SplitMix64
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.learn.decisions import chi_class
from tenpai.models.bundle import ModelBundle
from tenpai.rl.rewards import HandKey, hand_key

__all__ = [
    "DECISION_HEADS",
    "DiscardSample",
    "SampleInfo",
    "SampledDiscards",
    "SamplingSLAgent",
    "draw_id",
    "draw_kind",
    "greedy_kind",
    "masked_log_softmax",
    "samples_of",
    "uniform_for",
]

_MASK = 0xFFFF_FFFF_FFFF_FFFF

#: Riichi heads besides ``discard`` that a learner may sample, each with the salt of its own
#: uniform draw (so a declined riichi and the discard of the same request are independent).
DECISION_HEADS = {"riichi": 1, "pon": 2, "chi": 3}


@dataclass(frozen=True, slots=True)
class DiscardSample:
    """What one sampled decision leaves for training (``Step.info`` of the self-play runner):
    a discard, or with ``head`` another head's choice (class 0 = pass, as the head reads it)."""

    x: np.ndarray
    legal: np.ndarray
    action: int
    logp: float
    shanten_after: int
    hand: HandKey
    head: str = "discard"


#: What a learner attaches to one request: nothing, one sample, or several (a declined riichi
#: and the discard that follows it in the same request).
SampleInfo = DiscardSample | tuple[DiscardSample, ...] | None


def samples_of(info: Any) -> tuple[DiscardSample, ...]:
    """The samples a step's ``info`` holds: none, one, or a tuple of them."""
    if isinstance(info, DiscardSample):
        return (info,)
    if isinstance(info, tuple):
        return tuple(i for i in info if isinstance(i, DiscardSample))
    return ()


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
    #: Draws come from the agent's own seeded streams, so a learner never serves other games'
    #: tables in an arena (it overrides the supervised agent's opt-in).
    shares_tables: ClassVar[bool] = False

    def _set_temperature(self, temperature: float) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be positive, got {temperature}")
        self.temperature = temperature

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [a for a, _ in self.act_batch_with_info(requests)]

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> Sequence[tuple[Event, SampleInfo]]:
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
    """:class:`SLAgent` whose discards (and, with ``heads``, riichi / pon / chi decisions) are
    drawn from its heads (see the module doc)."""

    def __init__(
        self,
        model: str | ModelBundle = "default",
        seed: int = 0,
        name: str = "pg_learner",
        temperature: float = 1.0,
        threads: int | None = 1,
        greedy: bool = False,
        heads: Sequence[str] = ("discard",),
    ) -> None:
        super().__init__(model, seed, name=name, threads=threads)
        self._set_temperature(temperature)
        self.greedy = greedy
        unknown = sorted(set(heads) - {"discard", *DECISION_HEADS})
        if unknown or not heads:
            raise ValueError(f"heads {list(heads)!r}: choose among discard, "
                             f"{', '.join(DECISION_HEADS)}")
        missing = [h for h in heads if h not in self.bundle.heads]
        if missing:
            raise ValueError(f"the model has no {', '.join(missing)} head to sample")
        #: The heads whose choices are drawn and recorded; the others play greedily.
        self.heads = tuple(heads)

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, SampleInfo]]:
        queries = [self._plan(obs, legal) for obs, legal in requests]
        scores, inputs = self._score(queries)
        rows = {head: {i: r for r, i in enumerate(idx)} for head, (idx, _) in inputs.items()}
        out: list[tuple[Event, SampleInfo]] = []
        for i, q in enumerate(queries):
            if q.answer is not None:
                out.append((q.answer, None))
                continue
            obs = requests[i][0]
            s = dict(scores[i])
            drawn = self._draw_decisions(q, obs, s, inputs, rows, i)
            choice = self._decide(q, s)
            if (choice.type == "dahai" and "discard" in self.heads and q.view is not None
                    and i in rows.get("discard", {})):
                choice, sample = self._sample(obs, q.legal, s["discard"],
                                              inputs["discard"][1][rows["discard"][i]],
                                              q.view.hand, shanten)
                drawn.append(sample)
            out.append((choice, None if not drawn else drawn[0] if len(drawn) == 1
                        else tuple(drawn)))
        return out

    def _draw_decisions(
        self, q: Any, obs: Any, s: dict[str, np.ndarray],
        inputs: dict[str, tuple[list[int], np.ndarray]], rows: dict[str, dict[int, int]], i: int,
    ) -> list[DiscardSample]:
        """Draw the sampled riichi / pon / chi heads of one request and pin each drawn class in
        ``s`` (so :meth:`SLAgent._decide` plays it); a chi is not asked after a drawn pon, and
        nothing is drawn when the greedy kan head takes a kan first (it is decided before)."""
        drawn: list[DiscardSample] = []
        kans = any(e.type in ("ankan", "kakan", "daiminkan") for e in q.legal)
        if kans and "kan" in s and s["kan"][1] > s["kan"][0]:
            return drawn
        for head, salt in DECISION_HEADS.items():
            if head not in self.heads or head not in s:
                continue
            if head == "chi" and drawn and drawn[-1].head == "pon" and drawn[-1].action == 1:
                continue
            ids = _decision_ids(head, q.legal)
            u = uniform_for((self.seed << 3) | salt, obs)
            action, mask, logp = draw_id(s[head], ids, self.temperature, u)
            pinned = np.full(len(s[head]), -1e9, dtype=np.float64)
            pinned[action] = 0.0
            s[head] = pinned
            drawn.append(DiscardSample(
                x=np.array(inputs[head][1][rows[head][i]], copy=True), legal=mask,
                action=action, logp=logp, shanten_after=0, hand=hand_key(obs.events[0]),
                head=head,
            ))
        return drawn


def _decision_ids(head: str, legal: Sequence[Event]) -> list[int]:
    """The classes a decision head may choose here: 0 (pass) and 1 (take), or for chi 0 and
    the chi shapes among ``legal``."""
    if head != "chi":
        return [0, 1]
    shapes = {chi_class(T.kind_of(e.pai), [T.kind_of(c) for c in e.consumed])
              for e in legal if e.type == "chi" and e.pai is not None}
    return [0, *sorted(shapes)]


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

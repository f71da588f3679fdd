"""``pg_planner``: a learned policy over the planner's own candidates (issue 43, item 3).

A network that must rediscover the planner's fan targets from the table's planes could not
even imitate it (51 % agreement, docs/mcr_strength_runs.md).  This policy is given what the planner
computes instead: at each discard, and at each chow/pung offer, every candidate action gets a
short feature vector — is it the planner's choice, is it ``efficiency``'s, the value,
probability, fans and missing tiles of the best target it keeps, the MCR shanten and live
effective tiles it leaves, its deal-in risk as :mod:`tenpai.rules.mcr.danger` reads the table,
and (since session 36) that risk and the shanten given up weighed by how far the hand is and how
likely a rival is ready, which the planner's value never reads — and the logits are a linear
function of those features (:class:`PlannerHead`).

The start (:meth:`PlannerHead.start`) weighs only the "planner's choice" feature, so its
greedy choice *is* the planner's; policy gradient (:mod:`tenpai.rl.planner_pg`) then learns
when the other features should override it.  Weights are a small JSON file (no pickle, nothing
executed when loading).  Wins are always declared and concealed kongs follow the planner, as
in ``planner``; open kongs are never called.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai import tiles as T
from tenpai.agents.efficiency import best_discard_mcr, is_mcr_observation, mcr_ukeire
from tenpai.agents.planner import PlannerAgent, PlannerError, planned_discard
from tenpai.atomic import write_text_atomic
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.danger import deal_in_probability, read_opponents
from tenpai.rules.mcr.plan import WIN_POINTS, Target

__all__ = [
    "CALL_FEATURES",
    "DISCARD_FEATURES",
    "FORMAT",
    "START_WEIGHT",
    "WEIGHTS_ENV",
    "Decision",
    "PGPlannerAgent",
    "PlannerHead",
    "PlannerHeadError",
    "call_decision",
    "discard_decision",
    "make_pg_planner_agent",
]

FORMAT: Final = "tenpai-pg-planner/1"
#: Where ``pg_planner`` reads its weights (a ``tenpai train pg-planner`` output).
WEIGHTS_ENV: Final = "TENPAI_PG_PLANNER_WEIGHTS"
#: Weight of the "planner's choice" feature at the start (the default prior): large enough that
#: sampling at temperature 1 keeps the planner's action most of the time (≈ 85 % against ten
#: alternatives), small enough that the others are still explored.  A training run may start
#: from another prior (``--planner-prior``); only the ratio prior / temperature sets how often
#: the start's samples leave the planner, while the prior alone is what the other features
#: must outweigh before a *greedy* choice moves.
START_WEIGHT: Final = 4.0

#: Per discard kind.  Values are scaled to about [0, 1] so one learning rate suits them all.
DISCARD_FEATURES: Final = (
    "planner",          # 1 for the planner's discard
    "efficiency",       # 1 for efficiency's discard (lowest shanten, most live tiles)
    "value_share",      # value of the best target kept / best value of any discard
    "log_probability",  # log10 of that target's probability, / 4, +1 (0 where none)
    "fans",             # its fans / WIN_POINTS
    "missing",          # tiles it still needs / 5
    "no_target",        # 1 where the discard keeps no target
    "self_draw_only",   # 1 where the target reaches 8 fans only when self-drawn
    "shanten_up",       # MCR shanten after the discard minus the lowest reachable
    "live_share",       # live effective tiles after it / the most of any discard (lowest
                        # shanten only)
    "danger",           # estimated deal-in probability × 10
    "danger_late",      # danger × the share of the own wall already drawn
    "honor",            # an honour tile
    "terminal",         # a 1 or a 9
    # Added after the first trained heads (issue 43's lever "features the planner does not
    # rank by"): whether to push or fold depends on how far the own hand is and how likely an
    # opponent is ready, which the planner's value never reads.
    "danger_far",       # danger × the MCR shanten after the discard (0 ready … 3+), / 3
    "shanten_threat",   # shanten_up × the likeliest opponent's ready probability
)
#: Per answer to a chow/pung offer (passing is one of them).
CALL_FEATURES: Final = (
    "planner",          # 1 for the planner's answer
    "pass",             # 1 for passing
    "value_share",      # best target's value after the answer / the best of any answer
    "gain",             # (value − passing's value) / (WIN_POINTS + 8), calls only
    "pung",             # 1 for a pung
    "late",             # a call late in the hand (share of the own wall drawn), calls only
    "threat",           # the likeliest opponent's ready probability, calls only (added later,
                        # as the last two discard features)
)
#: Draws a seat expects at the start of a Botzone hand (per-seat walls of 21 tiles).
_FULL_WALL = 21.0


class PlannerHeadError(ValueError):
    """A weights file that cannot be read; the message names the file and the reason."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice among the planner's candidates: the actions, one feature row each, and the
    index of the planner's own choice."""

    kind: str  # "discard" or "call"
    actions: tuple[Event, ...]
    features: np.ndarray  # (len(actions), len(features of kind))
    planner_index: int


@dataclass(slots=True)
class PlannerHead:
    """The linear logits of both decision kinds; ``logit(a) = weights · features(a)``."""

    discard: np.ndarray
    call: np.ndarray
    #: Free-form provenance (the training run's settings and progress), kept in the file.
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, prior: float = START_WEIGHT) -> PlannerHead:
        """The head whose greedy choice is the planner's: only "planner" is weighed, by
        ``prior`` (> 0, or the greedy choice would not single the planner's out)."""
        if not (math.isfinite(prior) and prior > 0):
            raise PlannerHeadError(f"the planner prior must be a finite number > 0, got {prior}")
        d = np.zeros(len(DISCARD_FEATURES))
        c = np.zeros(len(CALL_FEATURES))
        d[DISCARD_FEATURES.index("planner")] = prior
        c[CALL_FEATURES.index("planner")] = prior
        return cls(d, c)

    def weights(self, kind: str) -> np.ndarray:
        return self.discard if kind == "discard" else self.call

    def logits(self, decision: Decision) -> np.ndarray:
        return np.asarray(decision.features @ self.weights(decision.kind), dtype=np.float64)

    def greedy(self, decision: Decision) -> int:
        """The highest logit; ties go to the planner's choice, then to the first listed."""
        z = self.logits(decision)
        best = float(z.max())
        if z[decision.planner_index] >= best - 1e-12:
            return decision.planner_index
        return int(np.argmax(z))

    def probabilities(self, decision: Decision, temperature: float) -> np.ndarray:
        z = self.logits(decision) / temperature
        z = z - z.max()
        p = np.exp(z)
        return np.asarray(p / p.sum(), dtype=np.float64)

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "discard_features": list(DISCARD_FEATURES),
            "call_features": list(CALL_FEATURES),
            "discard": [float(x) for x in self.discard],
            "call": [float(x) for x in self.call],
            "info": self.info,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> PlannerHead:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PlannerHeadError(f"{where}: not a {FORMAT} weights file")
        d = _weights_by_name(data, "discard", DISCARD_FEATURES, where)
        c = _weights_by_name(data, "call", CALL_FEATURES, where)
        info = data.get("info", {})
        return cls(d, c, dict(info) if isinstance(info, dict) else {})

    def save(self, path: Path) -> None:
        """Write-then-rename (:mod:`tenpai.atomic`), so a kill never leaves half a file
        under ``path``."""
        write_text_atomic(path, json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: Path) -> PlannerHead:
        try:
            data = json.loads(Path(path).read_text())
        except OSError as err:
            raise PlannerHeadError(f"{path}: cannot read ({err.strerror})") from None
        except json.JSONDecodeError as err:
            raise PlannerHeadError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None
        return cls.from_json(data, str(path))


def _weights_by_name(data: dict[str, Any], kind: str, known: tuple[str, ...],
                     where: str) -> np.ndarray:
    """One kind's weights in this version's feature order.  A file names its features, so a
    head trained before features were added still loads: each feature it does not name
    weighs 0, which leaves every logit — and so its play — exactly as it was.  A name this
    version does not know is refused (the head would play without a feature it relies on)."""
    names = data.get(f"{kind}_features")
    values = data.get(kind)
    if not isinstance(names, list) or not isinstance(values, list):
        raise PlannerHeadError(f"{where}: {kind} features or weights missing")
    if len(names) != len(values):
        raise PlannerHeadError(f"{where}: {len(names)} {kind} features but {len(values)} weights")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise PlannerHeadError(
            f"{where}: {kind} feature {unknown[0]!r} is not one of this version's")
    if len(set(names)) != len(names):
        raise PlannerHeadError(f"{where}: a {kind} feature is named twice")
    w = np.zeros(len(known))
    try:
        for name, x in zip(names, values):
            w[known.index(name)] = float(x)
    except (TypeError, ValueError):
        raise PlannerHeadError(f"{where}: {kind} weights are not numbers") from None
    if not np.isfinite(w).all():
        raise PlannerHeadError(f"{where}: weights must be finite")
    return w


# ---------------------------------------------------------------------- features
def _wall_drawn(obs: Any) -> float:
    drawn: float = 1.0 - obs.draws_left / _FULL_WALL
    return max(0.0, min(1.0, drawn))


def discard_decision(planner: PlannerAgent, obs: Any, discards: Sequence[Event]) -> Decision:
    """The discard kinds of ``discards`` (one event each; the planner's own event for its
    kind) with their features."""
    counts = obs.counts
    visible = obs.visible_counts()
    targets: dict[int, Target] = planner.discard_targets(obs)
    chosen = planned_discard(counts, discards, visible, targets)
    effic = best_discard_mcr(counts, discards, visible)
    by_kind: dict[int, Event] = {}
    for e in discards:
        assert e.pai is not None
        by_kind.setdefault(T.kind_of(e.pai), e)
    assert chosen.pai is not None and effic.pai is not None
    by_kind[T.kind_of(chosen.pai)] = chosen
    kinds = list(by_kind)
    sh: dict[int, int] = {}
    for k in kinds:
        counts[k] -= 1
        sh[k] = shanten_mcr(counts)
        counts[k] += 1
    low = min(sh.values())
    live: dict[int, int] = {}
    for k in kinds:
        if sh[k] == low:
            counts[k] -= 1
            live[k] = mcr_ukeire(counts, visible)
            counts[k] += 1
    most_live = max(live.values(), default=0) or 1
    best_value = max((t.value for t in targets.values()), default=0.0)
    readings = read_opponents(obs.seat, obs.events)
    threat = max((o.ready for o in readings), default=0.0)
    unseen = [max(0, 4 - c - v) for c, v in zip(counts, visible)]
    drawn = _wall_drawn(obs)
    rows = np.zeros((len(kinds), len(DISCARD_FEATURES)))
    for i, k in enumerate(kinds):
        t = targets.get(k)
        danger = 10.0 * deal_in_probability(k, readings, unseen) if readings else 0.0
        rows[i] = (
            1.0 if by_kind[k] == chosen else 0.0,
            1.0 if k == T.kind_of(effic.pai) else 0.0,
            t.value / best_value if t is not None and best_value > 0 else 0.0,
            1.0 + math.log10(max(t.probability, 1e-4)) / 4 if t is not None else 0.0,
            t.points / WIN_POINTS if t is not None else 0.0,
            t.missing / 5 if t is not None else 0.0,
            0.0 if t is not None else 1.0,
            1.0 if t is not None and t.self_draw_only else 0.0,
            float(sh[k] - low),
            live.get(k, 0) / most_live,
            danger,
            danger * drawn,
            1.0 if k >= 27 else 0.0,
            1.0 if k < 27 and T.number_of(k) in (1, 9) else 0.0,
            danger * min(sh[k], 3) / 3,
            (sh[k] - low) * threat,
        )
    actions = tuple(by_kind[k] for k in kinds)
    return Decision("discard", actions, rows, actions.index(chosen))


def call_decision(planner: PlannerAgent, obs: Any, legal: Sequence[Event]) -> Decision | None:
    """The answers the planner weighs to a chow/pung offer (passing and every call that
    lowers the MCR shanten), or None where it weighs nothing (only passing is considered)."""
    choice, weighed = planner.ranking(obs, legal)
    if len(weighed) < 2:
        return None
    actions = [e for e, _ in weighed]
    values = [v for _, v in weighed]
    if choice not in actions:  # efficiency's answer where the planner defers to it
        actions.append(choice)
        values.append(0.0)
    skip_value = next((v for e, v in zip(actions, values) if e.type == "none"), 0.0)
    best = max(values)
    drawn = _wall_drawn(obs)
    threat = max((o.ready for o in read_opponents(obs.seat, obs.events)), default=0.0)
    rows = np.zeros((len(actions), len(CALL_FEATURES)))
    for i, (e, v) in enumerate(zip(actions, values)):
        is_pass = e.type == "none"
        rows[i] = (
            1.0 if e == choice else 0.0,
            1.0 if is_pass else 0.0,
            v / best if best > 0 else 0.0,
            0.0 if is_pass else (v - skip_value) / (WIN_POINTS + 8),
            1.0 if e.type == "pon" else 0.0,
            0.0 if is_pass else drawn,
            0.0 if is_pass else threat,
        )
    return Decision("call", tuple(actions), rows, actions.index(choice))


# ---------------------------------------------------------------------- the agent
class PGPlannerAgent:
    """Plays the head greedily (``temperature`` 0), or samples it (training), recording
    every decision with a choice (two answers or more) and its answer in :attr:`trace` when
    ``record`` is set.  It counts the
    decisions it had a choice in and those it answered off the planner's choice
    (:attr:`decisions`, :attr:`departures`), so a greedy head that never leaves its teacher
    shows it directly rather than only through identical games."""

    def __init__(self, head: PlannerHead, seed: int = 0, *, temperature: float = 0.0,
                 record: bool = False, name: str = "pg_planner") -> None:
        if not temperature >= 0:
            raise ValueError(f"pg_planner: temperature must be >= 0, got {temperature}")
        self.name = name
        self.head = head
        self.temperature = temperature
        self.record = record
        self.trace: list[tuple[Decision, int]] = []
        self.decisions = 0
        self.departures = 0
        self._planner = PlannerAgent(seed)
        self._rng = np.random.default_rng(seed)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        if not is_mcr_observation(observation):
            raise PlannerError("the pg_planner agent plays MCR only")
        types = {e.type for e in legal}
        if "dahai" in types:
            if any(e.type == "ankan" for e in legal):
                choice = self._planner.act(observation, legal)
                if choice.type == "ankan":
                    return choice
            decision = discard_decision(
                self._planner, observation, [e for e in legal if e.type == "dahai"])
            return self._choose(decision)
        if types & {"chi", "pon"}:
            call = call_decision(self._planner, observation, legal)
            if call is None:
                return next((e for e in legal if e.type == "none"), legal[0])
            return self._choose(call)
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def _choose(self, decision: Decision) -> Event:
        if self.temperature == 0.0 or len(decision.actions) == 1:
            i = self.head.greedy(decision)
        else:
            p = self.head.probabilities(decision, self.temperature)
            i = int(self._rng.choice(len(p), p=p))
        if len(decision.actions) > 1:
            if self.record:  # greedy answers too: the vine's trunk keeps them as branch points
                self.trace.append((decision, i))
            self.decisions += 1
            self.departures += i != decision.planner_index
        return decision.actions[i]


def make_pg_planner_agent(seed: int = 0) -> PGPlannerAgent:
    """The registered ``pg_planner``, greedy, with the weights of ``$TENPAI_PG_PLANNER_WEIGHTS``
    (unset: one line saying so; no trained weights are shipped)."""
    path = os.environ.get(WEIGHTS_ENV, "").strip()
    if not path:
        raise ValueError(f"pg_planner plays the weights file named by ${WEIGHTS_ENV}, which "
                         "is unset (make one with `tenpai train pg-planner`)")
    return PGPlannerAgent(PlannerHead.load(Path(path)), seed)

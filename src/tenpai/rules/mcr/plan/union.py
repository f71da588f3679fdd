"""A discard's value as the best target its draws complete, not its single best target.

The shipped planner values a discard by the one most valuable target it keeps,
``max_t P(t) · value(t)``: five targets kept open at 20 % each rank below one kept at 25 %,
although the five complete *some* 8-fan hand far more often.  This module values it instead as

    E[ max over the kept targets t of 1{the draws complete t} · value(t) ]

under the same draw model (:mod:`tenpai.rules.mcr.plan.odds`: ``draws`` tiles drawn uniformly
without replacement from the unseen tiles), ``value(t)`` the target's points as the
:class:`~tenpai.rules.mcr.plan.Valuation` weighs them (fan weight, self-draw-only discount)
without its probability.  Every verified target of 8 fans or more the discard keeps enters.

**How it is computed.**  The expectation has no closed form over many overlapping targets,
so it is sampled: ``samples`` draw sets, the same ones for every discard of a decision
(common random numbers, so two discards differ by their targets, not by their luck), seeded
from the position (:func:`decision_seed`: the same position gives the same figure, so arenas
stay reproducible).  The sample is only used for what the single best target misses: with
``b`` the kept target of highest exact ``P(b) · value(b)``,

    figure = P(b) · value(b) + mean over draw sets of [ max_t 1{t completes} · value(t)
                                                        − 1{b completes} · value(b) ].

Each sampled term is ≥ 0 and its mean is unbiased (``P(b)`` is exact), so the figure is never
below the shipped rule's value, equals it exactly when only one target is kept, and its
sampling error comes only from the gain of keeping several targets open.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tenpai.rules.mcr.plan.targets import (
    DEFAULT_VALUATION,
    PlanError,
    PlanState,
    Target,
    Valuation,
    plan,
)

__all__ = [
    "UNION_SAMPLES",
    "decision_seed",
    "draw_samples",
    "expected_best",
    "union_by_discard",
    "union_value",
]

#: Draw sets sampled per decision: a few hundred keep the gain's sampling error near a tenth
#: of a point on the planner's scale (the gain itself is a few points at most).
UNION_SAMPLES = 256

Counts = npt.NDArray[np.int64]


def decision_seed(state: PlanState) -> int:
    """A seed from what the player sees (its tiles, melds, the unseen tiles, draws left):
    the same position always samples the same draw sets, in any process."""
    key = repr((state.concealed, state.melds, state.live, state.draws, state.seat_wind,
                state.prevalent_wind)).encode()
    return zlib.crc32(key)


def draw_samples(live: Sequence[int], draws: int, samples: int, seed: int) -> Counts:
    """``samples`` × 34 counts: each row the kinds of ``draws`` tiles drawn uniformly without
    replacement from the unseen pool (``live[k]`` copies of kind ``k``; all of it when
    ``draws`` exceeds the pool)."""
    if samples <= 0 or draws < 0 or len(live) != 34 or any(c < 0 for c in live):
        raise PlanError(f"draw_samples: need samples > 0, draws >= 0 and 34 live counts >= 0, "
                        f"got {samples}, {draws}, {list(live)}")
    pool = np.repeat(np.arange(34, dtype=np.int64), np.asarray(live, dtype=np.int64))
    d = min(draws, len(pool))
    out = np.zeros((samples, 34), dtype=np.int64)
    if d == 0:
        return out
    rng = np.random.default_rng(seed)
    keys = rng.random((samples, len(pool)))
    picked = pool[np.argpartition(keys, d - 1, axis=1)[:, :d]]
    rows = np.arange(samples, dtype=np.int64)[:, None] * 34
    flat = np.bincount((picked + rows).ravel(), minlength=34 * samples)
    out += flat.reshape(samples, 34)
    return out


def expected_best(targets: Sequence[Target], groups: Sequence[Sequence[int]],
                  counts: Counts) -> list[float]:
    """For each group (indices into ``targets``), the figure of the module docstring over the
    draw sets ``counts``; 0.0 for an empty group."""
    if not targets:
        return [0.0 for _ in groups]
    points = np.array([t.valuation.worth(1.0, t.points, t.self_draw_only) for t in targets])
    exact = np.array([t.value for t in targets])
    cols = sorted({k for t in targets for k, _ in t.needed})
    need = np.zeros((len(targets), len(cols)), dtype=np.int64)
    at = {k: i for i, k in enumerate(cols)}
    for i, t in enumerate(targets):
        for k, n in t.needed:
            need[i, at[k]] = n
    done = np.all(counts[:, None, cols] >= need[None, :, :], axis=2)  # samples × targets
    won = done * points[None, :]
    out: list[float] = []
    for group in groups:
        if not group:
            out.append(0.0)
            continue
        idx = np.asarray(group, dtype=np.int64)
        best = int(idx[np.argmax(exact[idx])])
        gain = won[:, idx].max(axis=1) - won[:, best]
        out.append(float(exact[best] + gain.mean()))
    return out


def _check(state: PlanState) -> None:
    if state.claim_rate > 0.0 or state.race:
        raise PlanError("the union value samples the draws-only model: it needs claim rate 0 "
                        "and no race table")


def union_by_discard(state: PlanState, valuation: Valuation = DEFAULT_VALUATION,
                     samples: int = UNION_SAMPLES, seed: int | None = None) -> dict[int, float]:
    """For each kind in a hand about to discard whose discard keeps some target, the expected
    value of the best kept target the draws complete (the module docstring), every discard
    judged on the same ``samples`` draw sets (seeded by :func:`decision_seed` when None)."""
    _check(state)
    targets = plan(state, valuation=valuation)
    kinds = [k for k in range(34) if state.concealed[k]]
    groups = [[i for i, t in enumerate(targets) if t.keeps(k)] for k in kinds]
    counts = draw_samples(state.live, state.draws, samples,
                          decision_seed(state) if seed is None else seed)
    figures = expected_best(targets, groups, counts)
    return {k: v for k, g, v in zip(kinds, groups, figures) if g}


def union_value(state: PlanState, valuation: Valuation = DEFAULT_VALUATION,
                samples: int = UNION_SAMPLES, seed: int | None = None) -> float:
    """The same figure over every target of the hand (one waiting for a tile: passing a
    claim), 0.0 when none is within reach."""
    _check(state)
    targets = plan(state, valuation=valuation)
    counts = draw_samples(state.live, state.draws, samples,
                          decision_seed(state) if seed is None else seed)
    return expected_best(targets, [range(len(targets))], counts)[0]

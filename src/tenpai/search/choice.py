"""The final choice of a decision-time search, whatever the game: the paired rule and PUCT.

Both searches (``search`` for Riichi, ``search_mcr`` for Chinese Official) play every candidate
on the same sampled worlds and end with a table ``values[w][i]``, candidate i's leaf value in
world w.  What to make of that table does not depend on the rule set, so it lives here once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.search.prior import Candidate

__all__ = ["DecisionStat", "choose_paired", "choose_puct", "paired_advantage"]


@dataclass(frozen=True, slots=True)
class DecisionStat:
    """What one decision cost and did (kept in the agents' ``log`` for measurement)."""

    searched: bool
    cpu_seconds: float
    wall_seconds: float
    worlds: int
    candidates: int
    changed: bool
    #: Weighted worlds: Kish's effective size of the pool's weights (0 with uniform worlds).
    effective_worlds: float = 0.0
    #: Weighted worlds: CPU seconds spent sampling and weighting the pool.
    weigh_seconds: float = 0.0
    #: The decision was an offer to call (pon, chi or open kan) with a pass among the answers.
    call_offer: bool = False
    #: The leaf its worlds were valued by: "playout" or "solo" (tenpai.search.leaves); "" when
    #: it was not searched (or by a search without the choice).
    leaf: str = ""


def choose_puct(
    candidates: Sequence[Candidate], values: Sequence[Sequence[float]], scale: float,
    c_prior: float,
) -> int:
    """Index of the chosen candidate by the PUCT-style rule (tenpai.search.agent's docstring);
    ``values[w][i]`` is candidate i's leaf value in world w."""
    k, n = len(candidates), len(values)
    bonus = math.sqrt(k * n) / (1 + n)

    def score(i: int) -> float:
        q = sum(v[i] for v in values) / n
        return q / scale + c_prior * candidates[i].prior * bonus

    return max(range(k), key=score)


def paired_advantage(values: Sequence[Sequence[float]], i: int, base: int) -> tuple[float, float]:
    """Mean and standard error of candidate i's value minus candidate base's, world by world
    (the common random numbers make this difference far less noisy than the two means)."""
    d = [v[i] - v[base] for v in values]
    n = len(d)
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def choose_paired(values: Sequence[Sequence[float]], base: int,
                  z: float | Sequence[float]) -> int:
    """The prior's choice (``base``) unless another candidate beats it by more than ``z``
    standard errors of the paired difference; then the one with the largest mean gain.

    ``z`` may be one bar per candidate (``z[i]`` for candidate i; ``z[base]`` unused), for a
    search that asks some kinds of answer for less evidence than others (the Riichi search's
    ``call_z_scale``)."""
    bars = [float(z)] * len(values[0]) if isinstance(z, (int, float)) else list(z)
    if len(bars) != len(values[0]):
        raise ValueError(f"{len(bars)} bars for {len(values[0])} candidates")
    best, best_gain = base, 0.0
    for i in range(len(values[0])):
        if i == base:
            continue
        mean, se = paired_advantage(values, i, base)
        if mean > bars[i] * se and mean > best_gain:
            best, best_gain = i, mean
    return best

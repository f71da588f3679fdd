"""Folding Solitary Mahjong (001 §VI-A2): the player only gives tiles back, never draws.

After each discard of a kind it has not yet discarded, an opponent rons with probability
``p[k]`` (payoff ``v_lose[k]``).  Later copies of a kind already discarded are safe (whoever
waits on it would have ronned the first one).  After every discard that does not deal in, the
hand ends for another reason (another player's win or the draw) with a constant probability
``q``, payoff ``v_other``; it also ends when the hand (or the horizon) runs out, with the same
payoff.  With ``v_lose < v_other`` the optimal policy is an index rule (eq. 12): break the
kinds in ascending order of

    index(k) = p[k] / (1 - (1 - p[k]) * (1 - q) ** c[k])

where ``c[k]`` is the number of copies held at the start, and discard every copy of a kind
right after its first one (safe discards should come as early as possible, each one is another
chance for the hand to end).  docs/mdp_search.md gives the exchange argument.  When the lose
payoff differs by kind (it depends on who is likely to ron it) the same argument gives the
index ``p[k] * (v_other - v_lose[k]) / (1 - (1 - p[k]) * (1 - q) ** c[k])``, which is eq. 12
times a constant when ``v_lose`` is constant; :func:`solve_folding` uses that form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FoldingResult", "folding_index", "folding_order", "solve_folding"]


@dataclass(frozen=True, slots=True)
class FoldingResult:
    """The optimal discard order (kinds, each listed once), its value and P(lose) (eqs. 13–15)."""

    order: tuple[int, ...]
    value: float
    p_lose: float
    #: Expected payoff given the hand ends by dealing in (eq. 15's lose-conditional value).
    value_if_lose: float


def folding_index(p: float, copies: int, q: float, cost: float = 1.0) -> float:
    """The eq. 12 index of a kind: expected loss per unit of "ending chance" it buys."""
    if p <= 0.0 or cost <= 0.0:
        return 0.0
    denom = 1.0 - (1.0 - p) * (1.0 - q) ** copies
    return p * cost / denom if denom > 0 else float("inf")


def folding_order(counts: Sequence[int], p: Sequence[float], q: float,
                  costs: Sequence[float] | None = None) -> list[int]:
    """Kinds held, in the order the optimal folding policy breaks them (ties: lower kind).

    ``costs[k]`` = v_other - v_lose[k] (default 1: a constant lose payoff, eq. 12 itself).
    """
    held = [k for k in range(len(counts)) if counts[k] > 0]
    return sorted(held, key=lambda k: (
        folding_index(p[k], counts[k], q, 1.0 if costs is None else costs[k]), k))


def solve_folding(
    counts: Sequence[int],
    p: Sequence[float],
    q: float,
    v_lose: Sequence[float],
    v_other: float,
    horizon: int | None = None,
) -> FoldingResult:
    """Value of the optimal folding policy from ``counts`` (eq. 13), with at most ``horizon``
    discards before the hand ends (``None``: until the hand is empty)."""
    costs = [max(0.0, v_other - v) for v in v_lose]
    order = folding_order(counts, p, q, costs)
    limit = sum(counts) if horizon is None else min(horizon, sum(counts))
    reach = 1.0  # probability of still playing before the next discard
    lose = 0.0
    lose_value = 0.0
    done = 0
    for k in order:
        for copy in range(counts[k]):
            if done >= limit:
                break
            risk = p[k] if copy == 0 else 0.0
            lose += reach * risk
            lose_value += reach * risk * v_lose[k]
            reach *= (1.0 - risk) * (1.0 - q)
            done += 1
    value = lose_value + (1.0 - lose) * v_other
    return FoldingResult(tuple(order), value, lose, lose_value / lose if lose > 0 else 0.0)

"""How likely a player is to draw the tiles a target hand still needs.

The model, stated once so every probability the planner prints means the same thing:

* the player's future draws are ``draws`` tiles taken uniformly at random, without
  replacement, from the tiles it has not seen (``unseen``: everything outside its own hand,
  the rivers and the open melds; the other hands are unseen too, since nothing says which
  tiles they hold).  Under Botzone's per-seat walls this is exact: the player's own wall is a
  uniformly random subset of the tiles it cannot see;
* a target needs ``n_k`` more copies of each kind ``k``, of which ``live_k`` are unseen;
* the probability of completing is that the draws hold at least ``n_k`` copies of every
  needed kind at once — the multivariate hypergeometric tail, computed exactly (the needed
  kinds compete for the same draws, which a product of one-kind probabilities would ignore).

Claims (chow, pung and the winning discard) are not modelled: they only add chances, so the
figure is a lower bound that ranks targets consistently.  Discarding while drawing is free
(every draw is followed by a discard), so only the needed tiles matter, not the hand size.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

__all__ = ["OddsError", "completion_probability"]


class OddsError(ValueError):
    """Inputs that describe no possible situation (negative counts, more live than unseen)."""


def completion_probability(
    needed: Sequence[tuple[int, int]], live: Sequence[int], unseen: int, draws: int
) -> float:
    """P(the next ``draws`` draws hold ``n`` copies of each ``(kind, n)`` in ``needed``).

    ``live`` is the 34-vector of unseen copies per kind and ``unseen`` their total (passed so
    a caller that asks many targets of one position sums it once).  A kind needed more often
    than it is live makes the target impossible (0.0); needing nothing is certain (1.0).
    """
    if draws < 0 or unseen < 0:
        raise OddsError(f"draws {draws} and unseen {unseen} must not be negative")
    pairs: list[tuple[int, int]] = []
    live_total = 0
    for kind, n in needed:
        if n <= 0:
            continue
        left = live[kind]
        if left < 0:
            raise OddsError(f"live copies of kind {kind} are negative ({left})")
        if left < n:
            return 0.0
        pairs.append((n, left))
        live_total += left
    if not pairs:
        return 1.0
    if live_total > unseen:
        raise OddsError(f"{live_total} live copies of the needed kinds exceed the {unseen} "
                        "unseen tiles")
    return _tail(tuple(sorted(pairs)), unseen, min(draws, unseen))


@lru_cache(maxsize=1 << 16)
def _tail(pairs: tuple[tuple[int, int], ...], unseen: int, draws: int) -> float:
    """Σ over draws holding j_k ≥ n_k copies of each kind: Π C(L_k, j_k) · C(rest, D - Σj).

    ``ways[s]`` counts the ways the needed kinds' copies can make ``s`` of the draws with
    every kind's minimum met (a polynomial product, one kind at a time); the remaining
    ``D - s`` draws come from the ``rest`` tiles of other kinds.
    """
    ways = [1]
    for n, left in pairs:
        factor = [comb(left, j) if j >= n else 0 for j in range(left + 1)]
        grown = [0] * (len(ways) + left)
        for i, a in enumerate(ways):
            if a:
                for j in range(n, left + 1):
                    grown[i + j] += a * factor[j]
        ways = grown
    rest = unseen - sum(left for _, left in pairs)
    total = 0
    for s, w in enumerate(ways):
        if w and s <= draws and draws - s <= rest:
            total += w * comb(rest, draws - s)
    return total / comb(unseen, draws)

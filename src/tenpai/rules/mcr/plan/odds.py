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

Discarding while drawing is free (every draw is followed by a discard), so only the needed
tiles matter, not the hand size.

**Draws only** (:func:`completion_probability`, the shipped planner's figure): claims (chow,
pung and the winning discard) are not counted, so the figure is a lower bound.

**Draws and claims** (:func:`claim_completion_probability`, ``TENPAI_PLANNER_CLAIMS``): the
opponents' discards add chances, under this model:

* each opponent discards once per draw of the player's (``draws`` discards each, the player's
  own draws standing for the turns left); each such discard is, with probability ``rate``, a
  tile taken uniformly from the player's unseen pool, and otherwise a tile it cannot use.
  ``rate`` stands for what the uniform pool gets wrong: an opponent keeps the tiles it needs,
  and some discards come too early or too late to help;
* a needed copy of kind ``k`` with ``live_k`` unseen copies shows up among ``m`` such discards
  with probability ``1 - (1 - live_k / unseen) ** (rate · m)`` (uniform picks with
  replacement, independent of the player's draws: the approximation of the model);
* **set claims**: a kind whose set the player can complete from a discard (a pung of a pair
  it holds: any of the three opponents; a chow of two tiles it holds: the left player only) has
  one copy that may come from a discard instead of a draw (``set_claims``: the kinds and how
  many opponents may give them);
* **the winning tile**: MCR has no furiten, so when the draws (and set claims) leave the
  target exactly one copy short, that copy may come from any opponent's discard
  (``win_claim``; off for a target that reaches 8 fans only when self-drawn);
* the target completes when, for every needed kind, the draws plus the claims reach ``n_k``.
  Given which set claims succeed (independent events, summed over all subsets exactly), the
  draws are the exact hypergeometric tail above, and the one-short events of different kinds
  are disjoint, so each adds ``(tail(n - e_k) - tail(n)) · P(a discard of k)``.

The result lies in [draws-only figure, 1] (a mixture of tails of smaller needs, each at least
the draws-only tail) and equals it at ``rate`` 0.  What the model leaves out: the order of
draws and discards (a winning discard before the rest is drawn is counted), a call's loss of
the concealed-hand fans, and a claim the agent would not make.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from math import comb

__all__ = ["OddsError", "claim_completion_probability", "completion_probability"]


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


def claim_completion_probability(
    needed: Sequence[tuple[int, int]], live: Sequence[int], unseen: int, draws: int,
    rate: float, set_claims: Sequence[tuple[int, int]] = (), win_claim: bool = True,
) -> float:
    """P(the target completes from ``draws`` own draws and the opponents' discards), under
    the draws-and-claims model of the module docstring.

    ``set_claims`` lists ``(kind, opponents)``: a needed kind one copy of which may be claimed
    into a set from that many opponents (3 for a pung, 1 for a chow from the left player);
    ``win_claim`` lets the last missing copy come from any of the three opponents' discards.
    ``rate`` is the chance per opponent discard of a tile from the unseen pool (0-1); at 0 (or
    with no claim possible) the figure is :func:`completion_probability`'s.
    """
    if not 0.0 <= rate <= 1.0:
        raise OddsError(f"claim rate {rate} must be in [0, 1]")
    base = completion_probability(needed, live, unseen, draws)
    need = {k: n for k, n in needed if n > 0}
    if rate == 0.0 or draws <= 0 or not need or unseen <= 0:
        return base
    if any(live[k] < n for k, n in need.items()):
        return 0.0
    looks = rate * draws

    def seen(kind: int, opponents: int) -> float:
        """P(a copy of ``kind`` among ``opponents`` × ``looks`` discards from the pool)."""
        return 1.0 - math.pow(1.0 - live[kind] / unseen, opponents * looks)

    claims = sorted({k: o for k, o in set_claims if k in need and o > 0}.items())
    win = {k: seen(k, 3) for k in need} if win_claim else {}
    total = 0.0
    # every subset of successful set claims, each lowering its kind's need by one copy
    for mask in range(1 << len(claims)):
        weight = 1.0
        left = dict(need)
        for i, (k, o) in enumerate(claims):
            q = seen(k, o)
            if mask >> i & 1:
                weight *= q
                left[k] -= 1
            else:
                weight *= 1.0 - q
        if weight == 0.0:
            continue
        total += weight * _with_win(left, win, live, unseen, draws)
    return min(1.0, max(base, total))


def _with_win(need: dict[int, int], win: dict[int, float], live: Sequence[int], unseen: int,
              draws: int) -> float:
    """P(the draws meet ``need``, or fall one copy of some kind short and a discard gives it)."""
    pairs = [(k, n) for k, n in need.items() if n > 0]
    full = completion_probability(pairs, live, unseen, draws)
    if not pairs or not win:
        return full
    out = full
    for i, (k, n) in enumerate(pairs):
        short = [*pairs[:i], (k, n - 1), *pairs[i + 1:]]
        out += (completion_probability(short, live, unseen, draws) - full) * win[k]
    return out

"""Seed 002's "best division": the grouping of a hand closest to a winning hand.

The hand is split into complete sets (pungs and chows), one pair, partial sets (two tiles
that need one more: a second pair, two neighbours, or a gap) and isolated tiles, maximising
``2·sets + partials + pair`` — the usual measure of how far a standard hand is from winning
(each set is two steps, each partial or the pair one).  Partials beyond what the hand's size
can use are not capped; the division is an input feature, not a shanten count.  Results are
cached on the count vector (hands repeat a lot across decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["Division", "best_division"]

#: (sets, pair, partials, isolated): four 34-count vectors that add up to the hand.
Division = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]

_SETS, _PAIR, _PARTIAL, _ISOLATED = range(4)


def best_division(counts: Sequence[int]) -> Division:
    """The best division of a 34-count hand (see the module docstring)."""
    if len(counts) != 34 or any(not 0 <= c <= 4 for c in counts):
        raise ValueError(f"best_division needs 34 counts of 0-4, got {list(counts)}")
    _, moves = _search(tuple(counts), False)
    rows = [[0] * 34 for _ in range(4)]
    for row, kinds in moves:
        for k in kinds:
            rows[row][k] += 1
    return (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]), tuple(rows[3]))


_Move = tuple[int, tuple[int, ...]]


@lru_cache(maxsize=200_000)
def _search(counts: tuple[int, ...], has_pair: bool) -> tuple[int, tuple[_Move, ...]]:
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return 0, ()
    suited = i < 27
    n = i % 9
    best: tuple[int, tuple[_Move, ...]] | None = None

    def consider(gain: int, row: int, kinds: tuple[int, ...], pair_after: bool) -> None:
        nonlocal best
        rest = list(counts)
        for k in kinds:
            rest[k] -= 1
        score, moves = _search(tuple(rest), pair_after)
        if best is None or score + gain > best[0]:
            best = (score + gain, ((row, kinds), *moves))

    c = counts[i]
    if c >= 3:
        consider(2, _SETS, (i, i, i), has_pair)
    if suited and n <= 6 and counts[i + 1] and counts[i + 2]:
        consider(2, _SETS, (i, i + 1, i + 2), has_pair)
    if c >= 2:
        consider(1, _PARTIAL if has_pair else _PAIR, (i, i), True)
    if suited and n <= 7 and counts[i + 1]:
        consider(1, _PARTIAL, (i, i + 1), has_pair)
    if suited and n <= 6 and counts[i + 2]:
        consider(1, _PARTIAL, (i, i + 2), has_pair)
    consider(0, _ISOLATED, (i,), has_pair)
    assert best is not None
    return best

"""Every way to read a closed hand as sets plus one pair.

Scoring needs *all* standard decompositions (Riichi picks the highest-scoring one, and MCR's
"not counted" rules depend on the grouping).  Suits are independent, so each suit's readings are
computed once per distinct 9-count pattern and cached; a hand's decompositions are the product
of its suits' readings that contain exactly one pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Final, NamedTuple

__all__ = [
    "SEQUENCE",
    "TRIPLET",
    "Decomposition",
    "Group",
    "decompositions",
    "is_standard_complete",
]

SEQUENCE: Final = 0
TRIPLET: Final = 1


class Group(NamedTuple):
    """A set inside a closed hand: ``kind`` is SEQUENCE or TRIPLET, ``tile`` its lowest kind."""

    kind: int
    tile: int


class Decomposition(NamedTuple):
    """One reading of a complete closed part: the pair's kind and the sets, sorted."""

    pair: int
    groups: tuple[Group, ...]


# A suit reading: (pair kind or -1, groups) with kinds relative to the suit's first tile.
_SuitReading = tuple[int, tuple[tuple[int, int], ...]]


@lru_cache(maxsize=1 << 16)
def _suit_readings(counts: tuple[int, ...], honors: bool) -> tuple[_SuitReading, ...]:
    """All readings of one suit's counts as sets and at most one pair."""
    total = sum(counts)
    if total % 3 == 1:
        return ()
    want_pair = total % 3 == 2
    out: list[_SuitReading] = []
    work = list(counts)
    groups: list[tuple[int, int]] = []

    def rec(i: int, pair: int) -> None:
        while i < len(work) and work[i] == 0:
            i += 1
        if i == len(work):
            if (pair >= 0) == want_pair:
                out.append((pair, tuple(groups)))
            return
        if work[i] >= 3:
            work[i] -= 3
            groups.append((TRIPLET, i))
            rec(i, pair)
            groups.pop()
            work[i] += 3
        if pair < 0 and work[i] >= 2:
            work[i] -= 2
            rec(i, i)
            work[i] += 2
        if not honors and i + 2 < len(work) and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            groups.append((SEQUENCE, i))
            rec(i, pair)
            groups.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1

    rec(0, -1)
    return tuple(dict.fromkeys(out))


# A suit reading placed in the hand: (pair kind or -1, its groups with absolute kinds).
_PlacedReading = tuple[int, tuple[Group, ...]]
_OFFSETS: Final = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


@lru_cache(maxsize=1 << 16)
def _placed_readings(seg: tuple[int, ...], base: int) -> tuple[_PlacedReading, ...]:
    """:func:`_suit_readings` of one suit with absolute kinds and ready-made groups (cached
    like it, so a hand pays for neither the offsets nor the ``Group`` objects again)."""
    return tuple(
        (p + base if p >= 0 else -1, tuple(Group(k, t + base) for k, t in g))
        for p, g in _suit_readings(seg, base == 27)
    )


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """All distinct standard readings (n sets + one pair) of a 3n+2-tile count vector.

    Returns an empty list for a hand that is not complete in the standard form.  Called melds
    are not part of ``counts``; the caller adds them to each reading.
    """
    per_suit: list[tuple[_PlacedReading, ...]] = []
    single = True
    for start, end, _ in _OFFSETS:
        seg = tuple(counts[start:end])
        if not any(seg):
            continue
        readings = _placed_readings(seg, start)
        if not readings:
            return []
        if len(readings) > 1:
            single = False
        per_suit.append(readings)
    if single:  # the usual case: one reading per suit, no product to take
        pairs = [r[0][0] for r in per_suit if r[0][0] >= 0]
        if len(pairs) != 1:
            return []
        return [Decomposition(pairs[0], tuple(sorted([g for r in per_suit for g in r[0][1]])))]
    result: list[Decomposition] = []
    for combo in product(*per_suit):
        pairs = [p for p, _ in combo if p >= 0]
        if len(pairs) != 1:
            continue
        groups = sorted([g for _, gs in combo for g in gs])
        result.append(Decomposition(pairs[0], tuple(groups)))
    return result


def is_standard_complete(counts: Sequence[int]) -> bool:
    """True when the counts read as sets plus one pair (the standard winning form)."""
    return bool(decompositions(counts))

"""Shanten for the forms only Chinese Official (MCR) rules know, and MCR's overall shanten.

* **Knitted straight** (组合龙): 1-4-7 of one suit, 2-5-8 of another, 3-6-9 of the third (six
  ways to assign suits), plus one set and a pair.  The set may be a called meld, so hands of
  10/11 concealed tiles (one meld called) only need the nine knitted tiles and a pair.
* **Honours and knitted tiles** (全不靠, and 七星不靠 when all seven honours are in): fourteen
  *different* tiles taken from one knitted pattern's nine tiles plus the seven honours; no
  pair, no set, closed hands only.
* **Seven pairs, MCR convention**: a four-of-a-kind counts as two pairs.

All values are exact distances (fewest tiles to fetch, minus one), using the same per-suit
tables as the standard form, so -1 means complete and 0 means tenpai.
"""

from __future__ import annotations

import operator
from itertools import permutations
from typing import Final

from tenpai.hand import accel
from tenpai.hand._core import INVALID, BadPattern, distance_raw, kokushi_raw, standard_raw
from tenpai.hand.counts import HandError, describe_bad_counts
from tenpai.hand.shanten import Counts, _invalid, to_count_bytes

__all__ = [
    "KNITTED_PATTERNS",
    "is_complete_mcr",
    "sets_distance",
    "shanten_honors_knitted",
    "shanten_knitted_straight",
    "shanten_mcr",
    "shanten_seven_pairs_mcr",
]

HONOR_KINDS: Final = tuple(range(27, 34))

#: The six knitted patterns: nine kinds each, 147 / 258 / 369 spread over the three suits.
KNITTED_PATTERNS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(9 * suit + start + 3 * step for suit, start in zip(order, (0, 1, 2))
                 for step in range(3)))
    for order in permutations(range(3))
)


_PATTERN_GETTERS: Final = tuple(operator.itemgetter(*p) for p in KNITTED_PATTERNS)
_HONORS_GETTER: Final = operator.itemgetter(*HONOR_KINDS)


def _knitted_missing(b: bytes) -> list[int]:
    """Per knitted pattern, how many of its nine kinds the hand lacks."""
    out: list[int] = [getter(b).count(0) for getter in _PATTERN_GETTERS]
    return out


def _knitted_raw(b: bytes, sets: int, bound: int = 99) -> int:
    """Knitted-straight shanten, or ``bound`` when it cannot beat ``bound``."""
    best = bound + 1
    rest = bytearray(b)
    for pattern, missing in zip(KNITTED_PATTERNS, _knitted_missing(b)):
        if missing >= best:  # the value is at least `missing`: this pattern cannot win
            continue
        for k in pattern:
            if rest[k]:
                rest[k] -= 1
        value = missing + distance_raw(bytes(rest), sets)
        if value < best:
            best = value
        for k in pattern:
            if b[k]:
                rest[k] += 1
    return best - 1


def _honors_knitted_raw(b: bytes) -> int:
    honors: tuple[int, ...] = _HONORS_GETTER(b)
    honors_held = 7 - honors.count(0)
    held = honors_held + 9 - min(_knitted_missing(b))
    return 13 - min(held, 14)


def _checked(counts: Counts, sizes: tuple[int, ...], form: str) -> tuple[bytes, int]:
    b = to_count_bytes(counts)
    n = sum(b)
    if max(b) > 4 or n > 14 or n % 3 == 0:
        raise _invalid(b)
    if n not in sizes:
        allowed = "/".join(str(x) for x in sizes)
        raise HandError(f"{form} needs {allowed} concealed tiles, got {n}")
    return b, n


def shanten_seven_pairs_mcr(counts: Counts) -> int:
    """Seven-pairs shanten of a closed 13/14-tile hand where a four-of-a-kind is two pairs."""
    b, _ = _checked(counts, (13, 14), "seven pairs")
    return 6 - sum(c // 2 for c in b)


def shanten_knitted_straight(counts: Counts) -> int:
    """Knitted-straight shanten: the nine knitted tiles, then a set and a pair.

    For 13/14 tiles the hand needs knitted tiles + one set + pair; for 10/11 tiles (one meld
    called, which is the set) knitted tiles + pair.  Per pattern: count the knitted kinds
    missing, take one copy of each present one out, and ask the standard tables how far the
    rest is from the set and the pair (a knitted kind plus at most three more copies never
    exceeds four, so the tables' four-copy rule stays exact).
    """
    b, n = _checked(counts, (10, 11, 13, 14), "a knitted straight")
    return _knitted_raw(b, 1 if n >= 13 else 0)


def shanten_honors_knitted(counts: Counts) -> int:
    """Honours-and-knitted-tiles shanten (全不靠 / 七星不靠) of a closed 13/14-tile hand.

    The hand needs 14 different kinds out of one pattern's sixteen (nine knitted + seven
    honours), so the shanten is 13 minus the most such kinds the hand already holds.
    """
    b, _ = _checked(counts, (13, 14), "honours and knitted tiles")
    return _honors_knitted_raw(b)


_fast_mcr = accel.fast("mcr") if accel.available() else None


def shanten_mcr(counts: Counts) -> int:
    """MCR shanten: the best of every MCR winning form the hand's size allows.

    Standard form always; knitted straight with 10/11/13/14 tiles; seven pairs (quads count
    twice), thirteen orphans and honours-and-knitted with 13/14 tiles.  The compiled fast path
    (``_accel.mcr``, the same steps in C on the same tables) answers when it is built; anything
    it does not handle, errors included, takes :func:`_shanten_mcr_py`.
    """
    if _fast_mcr is not None:
        fast: int | None = _fast_mcr(counts)
        if fast is not None:
            return fast
    return _shanten_mcr_py(counts)


def _shanten_mcr_py(counts: Counts) -> int:
    """:func:`shanten_mcr` in pure Python (the reference the compiled path is tested against)."""
    b = to_count_bytes(counts)
    try:
        best = standard_raw(b)
    except BadPattern:
        raise HandError(describe_bad_counts(b)) from None
    if best == INVALID:
        raise _invalid(b)
    n = sum(b)
    if n >= 13:
        best = min(
            best,
            6 - sum(c // 2 for c in b),
            kokushi_raw(b),
            _honors_knitted_raw(b),
        )
    if n in (10, 11, 13, 14):
        best = min(best, _knitted_raw(b, 1 if n >= 13 else 0, bound=best))
    return best


def sets_distance(counts: Counts, sets: int) -> int:
    """Fewest tiles a hand of *any* size must gain to hold ``sets`` sets and one pair.

    Unlike the shanten functions it accepts partial hands (a hand with some tiles set aside
    for a planned pattern), which is what a fan planner needs as an exact lower bound while
    it fills the rest of a target hand.  Raises :class:`HandError` for a count above four.
    """
    if not 0 <= sets <= 4:
        raise HandError(f"sets_distance needs 0-4 sets, got {sets}")
    b = to_count_bytes(counts)
    try:
        return distance_raw(b, sets)
    except BadPattern:
        raise HandError(describe_bad_counts(b)) from None


def is_complete_mcr(counts: Counts) -> bool:
    """True for a complete MCR hand in any form (fan requirements such as the 8-point
    minimum are scoring matters and not checked here)."""
    return shanten_mcr(counts) == -1

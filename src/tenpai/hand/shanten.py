"""Shanten numbers for Riichi hands: standard form, seven pairs, thirteen orphans.

Conventions shared by every function here:

* ``counts`` is any sequence of 34 integers (list, tuple, bytes, numpy array): concealed tiles
  only.  Called melds are *not* in the counts; a hand of 3k+1 or 3k+2 tiles needs k sets and
  a pair (so 4 tiles = three melds called, 1 set + pair to go).
* -1 means complete, 0 means tenpai (one tile away), n means n tiles away from tenpai.
* The standard form is *exact*: the fewest tiles to fetch so that the hand contains k sets
  and a pair, never using a fifth copy of a kind (see :mod:`tenpai.hand.tables`).
* Bad input raises :class:`~tenpai.hand.counts.HandError` (a ``ValueError``) saying which
  kind or which count is wrong.

Plain lists and tuples take the fast path (about a microsecond per call); other sequences are
converted first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from tenpai.hand import accel
from tenpai.hand._core import (
    CLOSED,
    FINAL,
    HONOR,
    INVALID,
    MP,
    SH,
    SUIT,
    BadPattern,
    chiitoi_raw,
    kokushi_raw,
    standard_raw,
    terminals_of,
)
from tenpai.hand.counts import HandError, as_count_bytes, check_tile_count, describe_bad_counts

__all__ = [
    "Counts",
    "is_complete",
    "is_standard_form_complete",
    "shanten",
    "shanten_chiitoi",
    "shanten_kokushi",
    "shanten_standard",
    "to_count_bytes",
]

if TYPE_CHECKING:
    import numpy as np

#: What the public functions accept as a hand (numpy is only imported by callers that use it).
Counts: TypeAlias = "Sequence[int] | bytes | np.ndarray"


def to_count_bytes(counts: Counts) -> bytes:
    """The 34 counts as ``bytes`` (fast for lists and tuples); :class:`HandError` if bad."""
    if type(counts) is list or type(counts) is tuple:
        try:
            b = bytes(counts)
        except (TypeError, ValueError):
            return as_count_bytes(counts)
        if len(b) == 34:
            return b
    return as_count_bytes(counts)


def _invalid(b: bytes) -> HandError:
    """The error for a vector the tables rejected: a count above four or a bad tile count."""
    if max(b) > 4 or sum(b) > 14:
        return HandError(describe_bad_counts(b))
    try:
        check_tile_count(b, sum(b))
    except HandError as err:
        return err
    return HandError(describe_bad_counts(b))


def _shanten_standard_py(counts: Counts) -> int:
    """Shanten of the standard form (k sets + a pair) for a hand of 3k+1 or 3k+2 tiles."""
    b = to_count_bytes(counts)
    try:
        s = standard_raw(b)
    except BadPattern:
        raise _invalid(b) from None
    if s == INVALID:
        raise _invalid(b)
    return s


def _closed_13_or_14(b: bytes, form: str) -> None:
    n = sum(b)
    if max(b) > 4 or n > 14 or n % 3 == 0:
        raise _invalid(b)
    if n < 13:
        raise HandError(f"{form} needs a closed hand of 13 or 14 tiles, got {n}")


def shanten_chiitoi(counts: Counts) -> int:
    """Seven-pairs shanten of a closed 13/14-tile hand.

    Riichi (Tenhou) convention: the seven pairs must be of seven *different* kinds, so a
    four-of-a-kind counts as one pair only (MCR counts it as two: see
    :func:`tenpai.hand.mcr.shanten_seven_pairs_mcr`).
    """
    b = to_count_bytes(counts)
    _closed_13_or_14(b, "seven pairs")
    return chiitoi_raw(b)


def shanten_kokushi(counts: Counts) -> int:
    """Thirteen-orphans shanten of a closed 13/14-tile hand (one of each terminal and honour
    kind plus a pair of any of them)."""
    b = to_count_bytes(counts)
    _closed_13_or_14(b, "thirteen orphans")
    return kokushi_raw(b)


def _shanten_py(counts: Counts) -> int:
    """Riichi shanten: the best of standard, seven pairs and thirteen orphans.

    Seven pairs and thirteen orphans only exist for closed 13/14-tile hands; smaller hands
    (melds called) use the standard form alone.  This is the hot path: for a list it does one
    ``bytes()`` conversion, four dictionary and three list look-ups, and for 13/14 tiles a few
    ``bytes.count`` calls.
    """
    if type(counts) is list:
        try:
            b = bytes(counts)
        except (TypeError, ValueError):
            b = as_count_bytes(counts)
        if len(b) != 34:
            b = as_count_bytes(counts)
    else:
        b = to_count_bytes(counts)
    honors = b[27:34]
    try:
        s = FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[honors]]]
    except BadPattern:
        raise _invalid(b) from None
    if s < CLOSED - 1:
        if s == INVALID:
            raise _invalid(b)
        return s
    s -= CLOSED
    # Seven pairs (four of a kind = one pair).
    kinds = 34 - b.count(0)
    pairs = kinds - b.count(1)
    c = 6 - pairs + (7 - kinds if kinds < 7 else 0)
    if c < s:
        s = c
    # Thirteen orphans, only when it could win: with z honour kinds absent it is at least z - 1.
    if honors.count(0) <= s:
        t: tuple[int, ...] = terminals_of(b)
        missing = t.count(0)
        k = missing - 1 if missing + t.count(1) < 13 else missing
        if k < s:
            return k
    return s


def _is_complete_py(counts: Counts) -> bool:
    """True for a complete Riichi hand: standard form, seven pairs or thirteen orphans.

    A hand of 3k+1 tiles is never complete (it is one tile short of any form).  Cheaper than
    ``shanten(counts) == -1``: seven pairs is "seven kinds held exactly twice", orphans is only
    looked at when every honour kind is present.
    """
    b = to_count_bytes(counts)
    honors = b[27:34]
    try:
        code = FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[honors]]]
    except BadPattern:
        raise _invalid(b) from None
    if code == -1 or code == CLOSED - 1:
        return True
    if code < CLOSED - 1:
        if code == INVALID:
            raise _invalid(b)
        return False
    if b.count(2) == 7:
        return True
    if 0 in honors:
        return False
    t: tuple[int, ...] = terminals_of(b)
    return 0 not in t and t.count(1) == 12


def is_standard_form_complete(counts: Counts) -> bool:
    """True when the counts read as k sets plus a pair (seven pairs and orphans not tried)."""
    return shanten_standard(counts) == -1


#: Standard-form shanten for a hand of 3k+1 or 3k+2 tiles (see ``_shanten_standard_py``).
shanten_standard: Callable[[Counts], int] = _shanten_standard_py
#: Riichi shanten: the best of standard, seven pairs and thirteen orphans (``_shanten_py``).
shanten: Callable[[Counts], int] = _shanten_py
#: True for a complete Riichi hand in any form (``_is_complete_py``).
is_complete: Callable[[Counts], bool] = _is_complete_py

if accel.install(_shanten_py, _shanten_standard_py, _is_complete_py):
    # The compiled fast path answers plain lists and tuples itself and calls the Python
    # functions above for everything else (so errors and odd inputs behave identically).
    shanten = accel.fast("shanten")
    shanten_standard = accel.fast("standard")
    is_complete = accel.fast("complete")

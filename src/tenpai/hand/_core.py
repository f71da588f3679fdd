"""The hot path: shanten numbers straight from a 34-byte count vector.

Public functions live in :mod:`tenpai.hand.shanten`; this module holds the Python-level views
of :mod:`tenpai.hand.tables` arranged for the fewest interpreter steps per query:

* ``SUIT`` / ``HONOR`` map a suit's 9 (or honours' 7) count bytes to its class id.  They start
  empty and fill themselves on a miss (``__missing__``), so a process only pays memory for the
  patterns it meets, and the first miss builds the numpy tables.
* ``MP[man][pin]`` and ``SH[sou][honours]`` hold offsets into ``FINAL`` (the first one
  pre-multiplied), so a hand's code is
  ``FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[b[27:34]]]]``.
* A code packs three answers so the caller needs no ``sum(b)``: :data:`INVALID` for a tile
  count that cannot occur (a multiple of three, or over 14); the standard shanten (-1..8) for
  hands of at most 11 tiles; the standard shanten plus :data:`CLOSED` for 13/14-tile hands,
  which must also try seven pairs and thirteen orphans.

The lists are filled *in place* on first use, never rebound, because a caller's expression
may already hold a reference to them when the first miss triggers the build.
"""

from __future__ import annotations

import operator
import threading
from typing import Final, cast

from tenpai.hand.packed import packed_tables
from tenpai.hand.table_constants import INVALID, MAX_TILES

__all__ = [
    "CLOSED",
    "FINAL",
    "HONOR",
    "INVALID",
    "MP",
    "SH",
    "SUIT",
    "TERMINAL_KINDS",
    "BadPattern",
    "chiitoi_raw",
    "code_raw",
    "distance_raw",
    "kokushi_raw",
    "riichi_raw",
    "standard_raw",
    "terminals_of",
]

#: 1m 9m 1p 9p 1s 9s and the seven honours: the thirteen kinds of thirteen orphans.
TERMINAL_KINDS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
terminals_of: Final = operator.itemgetter(*TERMINAL_KINDS)

#: Added to the code of a 13/14-tile hand (codes of smaller hands stay below it).
CLOSED: Final = 20


class BadPattern(LookupError):
    """A suit pattern with a count above four or more than 14 tiles (caller re-raises)."""


MP: Final[list[list[int]]] = []
SH: Final[list[list[int]]] = []
FINAL: Final[list[int]] = []
# Slow-path views: plain class ids and the combined classes' distance vectors.
MP_CLASS: Final[list[list[int]]] = []
SH_CLASS: Final[list[list[int]]] = []
MP_VEC: Final[list[list[int]]] = []
SH_VEC: Final[list[list[int]]] = []
_fill_lock = threading.Lock()


def _fill() -> None:
    """Copy the packed tables into the flat Python lists the hot path indexes."""
    with _fill_lock:
        if FINAL:
            return
        t = packed_tables()
        c3 = t.n_sh
        # Two-dimensional views: tolist() gives one list per row.
        mp_rows = cast(list[list[int]], t.mp_class.tolist())
        sh_rows = cast(list[list[int]], t.sh_class.tolist())
        MP_CLASS.extend(mp_rows)
        SH_CLASS.extend(sh_rows)
        MP_VEC.extend(cast(list[list[int]], t.mp_vectors.tolist()))
        SH_VEC.extend(cast(list[list[int]], t.sh_vectors.tolist()))
        MP.extend([[v * c3 for v in row] for row in mp_rows])
        SH.extend([list(row) for row in sh_rows])
        final: list[int] = t.final.cast("B").cast("b").tolist()
        tiles: list[int] = t.tiles.cast("B").cast("b").tolist()
        FINAL.extend([
            value + CLOSED if count >= 13 and value != INVALID else value
            for value, count in zip(final, tiles)
        ])


class _ClassDict(dict[bytes, int]):
    """Pattern bytes -> class id, computed from the dense numpy table on first sight."""

    def __init__(self, honors: bool) -> None:
        super().__init__()
        self._honors = honors

    def __missing__(self, key: bytes) -> int:
        if not FINAL:
            _fill()
        if max(key) > 4 or sum(key) > MAX_TILES:
            raise BadPattern(key)
        index = 0
        for c in key:
            index = index * 5 + c
        t = packed_tables()
        cls: int = (t.honor if self._honors else t.suit)[index]
        self[key] = cls
        return cls


SUIT: Final = _ClassDict(honors=False)
HONOR: Final = _ClassDict(honors=True)


def code_raw(b: bytes) -> int:
    """The packed code of a 34-byte vector (raises :class:`BadPattern` on a bad suit)."""
    return FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[b[27:34]]]]


def standard_raw(b: bytes) -> int:
    """Standard-form shanten, or :data:`INVALID` when the tile count cannot occur."""
    code = FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[b[27:34]]]]
    return code - CLOSED if code > CLOSED - 2 else code


def riichi_raw(b: bytes) -> int:
    """Best of the three Riichi forms, or :data:`INVALID` (the body of ``shanten``)."""
    s = FINAL[MP[SUIT[b[0:9]]][SUIT[b[9:18]]] + SH[SUIT[b[18:27]]][HONOR[b[27:34]]]]
    if s < CLOSED - 1:
        return s
    s -= CLOSED
    kinds = 34 - b.count(0)
    pairs = kinds - b.count(1)
    c = 6 - pairs + (7 - kinds if kinds < 7 else 0)
    if c < s:
        s = c
    t: tuple[int, ...] = terminals_of(b)
    missing = t.count(0)
    k = missing - 1 if missing + t.count(1) < 13 else missing
    return k if k < s else s


def distance_raw(b: bytes, sets: int) -> int:
    """Fewest tiles ``b`` must gain to contain ``sets`` sets and one pair (slow path)."""
    mp = MP_VEC[MP_CLASS[SUIT[b[0:9]]][SUIT[b[9:18]]]]
    sh = SH_VEC[SH_CLASS[SUIT[b[18:27]]][HONOR[b[27:34]]]]
    best = 99
    for m in range(sets + 1):
        rest = 2 * (sets - m)
        value = min(mp[2 * m] + sh[rest + 1], mp[2 * m + 1] + sh[rest])
        if value < best:
            best = value
    return best


def chiitoi_raw(b: bytes) -> int:
    """Seven-pairs shanten, Riichi convention: a four-of-a-kind is one pair, not two."""
    kinds = 34 - b.count(0)
    pairs = kinds - b.count(1)
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def kokushi_raw(b: bytes) -> int:
    """Thirteen-orphans shanten: 13 minus distinct terminal kinds, minus one for a pair."""
    t: tuple[int, ...] = terminals_of(b)
    missing = t.count(0)
    return missing - 1 if missing + t.count(1) < 13 else missing


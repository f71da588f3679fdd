"""Shanten for many hands at once with numpy (datasets, encoders, vectorised environments).

Same tables and conventions as :func:`tenpai.hand.shanten.shanten`; each suit's base-5 key is
one matrix product, every look-up is a fancy index, so the cost per hand is a few dozen
nanoseconds instead of a Python call.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tenpai.hand._core import TERMINAL_KINDS
from tenpai.hand.counts import HandError
from tenpai.hand.packed import packed_tables
from tenpai.hand.table_constants import INVALID

__all__ = ["shanten_batch"]

_POW9: Final = 5 ** np.arange(8, -1, -1, dtype=np.int64)
_POW7: Final = 5 ** np.arange(6, -1, -1, dtype=np.int64)
_TERMINALS: Final = np.array(TERMINAL_KINDS)


_NO_CLASS: Final = 255


def _arrays() -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.int16],
                       NDArray[np.int16], NDArray[np.int8], NDArray[np.int8]]:
    """numpy views (no copies) of the packed tables."""
    t = packed_tables()
    return (
        np.asarray(t.suit, dtype=np.uint8),
        np.asarray(t.honor, dtype=np.uint8),
        np.asarray(t.mp_class, dtype=np.int16),
        np.asarray(t.sh_class, dtype=np.int16),
        np.asarray(t.final, dtype=np.int8),
        np.asarray(t.tiles, dtype=np.int8),
    )


def _rows(hands: ArrayLike) -> NDArray[np.int64]:
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise HandError(f"shanten_batch: expected an (N, 34) array of counts, got {arr.shape}")
    if arr.dtype.kind not in "iub":
        raise HandError(f"shanten_batch: counts must be integers, got dtype {arr.dtype}")
    out = arr.astype(np.int64, copy=False)
    bad = np.flatnonzero(((out < 0) | (out > 4)).any(axis=1))
    if bad.size:
        row = int(bad[0])
        kind = int(np.flatnonzero((out[row] < 0) | (out[row] > 4))[0])
        raise HandError(
            f"shanten_batch: hands[{row}][{kind}] = {int(out[row, kind])}: counts run 0 to 4"
        )
    return out


def shanten_batch(hands: ArrayLike, *, standard_only: bool = False) -> NDArray[np.int8]:
    """Riichi shanten of each row of an (N, 34) count array, as an int8 array of length N.

    Rows of 13/14 tiles also try seven pairs (a four-of-a-kind is one pair) and thirteen
    orphans unless ``standard_only``.  A row whose tile count cannot occur (a multiple of
    three, over 14) raises :class:`HandError` naming the row.
    """
    arr = _rows(hands)
    suit, honor, mp_class, sh_class, final, tiles = _arrays()
    man = suit[arr[:, 0:9] @ _POW9]
    pin = suit[arr[:, 9:18] @ _POW9]
    sou = suit[arr[:, 18:27] @ _POW9]
    hon = honor[arr[:, 27:34] @ _POW7]
    bad_pattern = (man == _NO_CLASS) | (pin == _NO_CLASS) | (sou == _NO_CLASS) | (hon == _NO_CLASS)
    if bad_pattern.any():  # keep the fancy indexes in range; the row is reported below
        man, pin, sou, hon = (np.where(bad_pattern, 0, x) for x in (man, pin, sou, hon))
    mp = mp_class[man, pin]
    sh = sh_class[sou, hon]
    result: NDArray[np.int8] = np.asarray(final[mp, sh], dtype=np.int8)
    broken = bad_pattern | (result == INVALID)
    if broken.any():
        row = int(np.flatnonzero(broken)[0])
        total = int(arr[row].sum())
        raise HandError(
            f"shanten_batch: hands[{row}] holds {total} tiles; a hand holds 3k+1 or 3k+2 "
            "concealed tiles, at most 14"
        )
    if standard_only:
        return result
    closed = np.flatnonzero(tiles[mp, sh] >= 13)
    if closed.size:
        sub = arr[closed]
        kinds = (sub > 0).sum(axis=1)
        pairs = (sub >= 2).sum(axis=1)
        chiitoi = 6 - pairs + np.maximum(7 - kinds, 0)
        term = sub[:, _TERMINALS]
        kokushi = 13 - (term > 0).sum(axis=1) - (term >= 2).any(axis=1)
        best = np.minimum(result[closed], np.minimum(chiitoi, kokushi))
        result = result.copy()
        result[closed] = best.astype(np.int8)
    return result

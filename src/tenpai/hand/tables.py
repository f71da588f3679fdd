"""Lookup tables behind every shanten number: built once, lazily, in memory.

The exact standard-form shanten of a hand is "how many tiles must be fetched so that the hand
contains *k* sets and one pair" (minus one), with at most four copies of any kind. Suits are
independent, so the answer splits into per-suit questions:

    ``dist[m][p]`` = fewest tiles a suit pattern must gain to contain m sets and p pairs
    (m = 0..4, p = 0..1, never asking for a fifth copy of a kind).

This module computes those ten numbers for *every* suit pattern at once with a vectorised
dynamic programme over the nine positions (state: sequences still open from the two previous
positions, sets so far, pair so far), then compresses:

* Only 126 distinct ten-vectors exist among the 405,350 numbered-suit patterns of at most 14
  tiles (55 among the 43,130 honour patterns).  Each pattern maps to a *class*: its vector
  plus its tile count (159 numbered classes, 137 honour classes).
* Two parts combine by min-plus convolution of their vectors and addition of their counts.
  Man x pin gives 361 distinct classes, sou x honours 493; both products are tabulated.
* A final 361 x 493 table gives the shanten number of the whole hand (the tile count in the
  class says how many sets are needed), or a sentinel when the count cannot occur.

So a query is four dictionary look-ups on 9- and 7-byte keys and three list look-ups, with
no search and no ``sum`` at call time.  Building everything takes a quarter of a second with
numpy; processes normally read the same numbers prebuilt (:mod:`tenpai.hand.packed`), and this
builder is the reference the shipped file is tested against.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from tenpai.hand.table_constants import INVALID, MAX_TILES

__all__ = ["ShantenTables", "get_tables", "suit_distances"]

#: Sets a full hand needs.
MAX_SETS: Final = 4
_INF: Final = 60

I8 = NDArray[np.int8]
I16 = NDArray[np.int16]
I64 = NDArray[np.int64]


def _patterns(length: int) -> tuple[I64, I8]:
    """Base-5 keys and digit rows of every ``length``-kind pattern holding at most 14 tiles.

    Grown one kind at a time, dropping rows over 14 tiles early, which is far cheaper than
    decoding all 5**9 keys.
    """
    keys = np.zeros(1, np.int64)
    digits = np.zeros((1, 0), np.int8)
    for _ in range(length):
        total = digits.sum(axis=1)
        parts_k, parts_d = [], []
        for d in range(5):
            ok = total + d <= MAX_TILES
            parts_k.append(keys[ok] * 5 + d)
            col = np.full((int(ok.sum()), 1), d, np.int8)
            parts_d.append(np.concatenate([digits[ok], col], axis=1))
        keys = np.concatenate(parts_k)
        digits = np.concatenate(parts_d)
    return keys, digits


def suit_distances(digits: I8, sequences: bool) -> I8:
    """``dist[row, m, p]`` for each pattern row (see the module docstring).

    ``sequences`` is False for honours, which only form triplets and pairs.  The programme
    walks the kinds left to right; a state is (sequences started one kind back, sequences
    started two kinds back, sets used, pair used) and carries, per pattern, the fewest tiles
    fetched so far.  At each kind it may open new sequences, place one triplet and place the
    pair, as long as the kind then needs at most four copies.
    """
    rows, length = digits.shape
    states: dict[tuple[int, int, int, int], I8] = {(0, 0, 0, 0): np.zeros(rows, np.int8)}
    for pos in range(length):
        have = digits[:, pos]
        short = [np.maximum(np.int8(u) - have, 0).astype(np.int8) for u in range(5)]
        can_open = sequences and pos <= length - 3
        nxt: dict[tuple[int, int, int, int], I8] = {}
        for (one_back, two_back, sets, pair), cost in states.items():
            for opened in range(5 if can_open else 1):
                for trip in (0, 1):
                    for add_pair in (0, 1) if pair == 0 else (0,):
                        need = one_back + two_back + opened + 3 * trip + 2 * add_pair
                        new_sets = sets + opened + trip
                        if need > 4 or new_sets > MAX_SETS:
                            continue
                        key = (opened, one_back, new_sets, pair + add_pair)
                        value = cost + short[need] if need else cost
                        old = nxt.get(key)
                        if old is None:
                            nxt[key] = value.copy() if value is cost else value
                        else:
                            np.minimum(old, value, out=old)
        states = nxt
    out = np.full((rows, MAX_SETS + 1, 2), _INF, np.int8)
    for (one_back, two_back, sets, pair), cost in states.items():
        if one_back == 0 and two_back == 0:
            np.minimum(out[:, sets, pair], cost, out=out[:, sets, pair])
    return out


def _min_plus(a: I16, b: I16) -> I16:
    """Combine two families of ten-vectors: ``out[i, j, m, p]`` = best split of (m, p)."""
    left = a.reshape(-1, 1, MAX_SETS + 1, 2)
    right = b.reshape(1, -1, MAX_SETS + 1, 2)
    out = np.full((left.shape[0], right.shape[1], MAX_SETS + 1, 2), _INF, np.int16)
    for m1 in range(MAX_SETS + 1):
        for m2 in range(MAX_SETS + 1 - m1):
            for p1 in (0, 1):
                for p2 in (0, 1 - p1):
                    target = out[:, :, m1 + m2, p1 + p2]
                    np.minimum(target, left[:, :, m1, p1] + right[:, :, m2, p2], out=target)
    return out.reshape(left.shape[0], right.shape[1], 2 * (MAX_SETS + 1))


def _classify(vectors: I16) -> tuple[I16, NDArray[np.intp]]:
    """Distinct rows and, for each input row, the index of its distinct row.

    Rows are packed into one int64 each (ten entries of 6 bits; every entry is below 64)
    so that a 1-D ``np.unique`` does the work instead of the much slower row-wise one.
    """
    width = vectors.shape[-1]
    flat = vectors.reshape(-1, width).astype(np.int64)
    packed = np.zeros(flat.shape[0], np.int64)
    for j in range(width):
        packed = (packed << 6) | flat[:, j]
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    return flat[first].astype(np.int16), inverse.reshape(vectors.shape[:-1])



@dataclass(frozen=True)
class ShantenTables:
    """Every table a shanten query needs (see the module docstring for the design).

    A class stands for a ten-vector of distances *and* the tile count of the part, so the
    final table knows how many sets the whole hand needs without a separate ``sum``.

    ``suit_class`` / ``honor_class`` are dense over base-5 keys (-1 for patterns of more than
    14 tiles) so numpy batches can index them.  ``mp_class[man, pin]`` and
    ``sh_class[sou, honours]`` give combined classes, and ``final[mp, sh]`` is the standard
    shanten of the whole hand, or :data:`INVALID` when its tile count cannot occur in play.
    ``tiles[mp, sh]`` is the hand's tile count (15 stands for "more than 14").
    ``mp_vectors`` / ``sh_vectors`` are the combined classes' distance vectors (entry
    ``2 * m + p``) for callers that need a set count other than the one the tile count implies
    (the MCR knitted straight asks for one set and a pair beside the nine knitted tiles).
    """

    suit_class: I16
    honor_class: I16
    mp_class: I16
    sh_class: I16
    final: I8
    tiles: I8
    mp_vectors: I16
    sh_vectors: I16


def _with_count(vectors: I8, digits: I8) -> I16:
    """Append each pattern's tile count to its distance vector."""
    flat = vectors.reshape(vectors.shape[0], -1).astype(np.int16)
    return np.concatenate([flat, digits.sum(axis=1, dtype=np.int16)[:, None]], axis=1)


def _combine(a: I16, b: I16) -> I16:
    """Min-plus product of the distance parts, sum of the tile counts (capped at 15)."""
    width = 2 * (MAX_SETS + 1)
    dist = _min_plus(a[:, :width], b[:, :width])
    count = np.minimum(a[:, width][:, None] + b[:, width][None, :], MAX_TILES + 1)
    return np.concatenate([dist, count[:, :, None].astype(np.int16)], axis=2)


def _build() -> ShantenTables:
    suit_keys, suit_digits = _patterns(9)
    honor_keys, honor_digits = _patterns(7)
    suit_vec, suit_cls = _classify(
        _with_count(suit_distances(suit_digits, sequences=True), suit_digits)
    )
    honor_vec, honor_cls = _classify(
        _with_count(suit_distances(honor_digits, sequences=False), honor_digits)
    )
    suit_class = np.full(5**9, -1, np.int16)
    suit_class[suit_keys] = suit_cls
    honor_class = np.full(5**7, -1, np.int16)
    honor_class[honor_keys] = honor_cls

    mp_vec, mp_cls = _classify(_combine(suit_vec, suit_vec))
    sh_vec, sh_cls = _classify(_combine(suit_vec, honor_vec))
    whole = _combine(mp_vec, sh_vec)
    tiles = whole[:, :, -1]
    sets = np.minimum(tiles // 3, MAX_SETS)
    pair_with_sets = np.take_along_axis(whole, (2 * sets + 1)[:, :, None], axis=2)[:, :, 0]
    final = np.where(
        (tiles > MAX_TILES) | (tiles % 3 == 0), INVALID, pair_with_sets - 1
    ).astype(np.int8)
    return ShantenTables(
        suit_class=suit_class,
        honor_class=honor_class,
        mp_class=mp_cls.astype(np.int16),
        sh_class=sh_cls.astype(np.int16),
        final=final,
        tiles=tiles.astype(np.int8),
        mp_vectors=mp_vec[:, : 2 * (MAX_SETS + 1)].copy(),
        sh_vectors=sh_vec[:, : 2 * (MAX_SETS + 1)].copy(),
    )


_lock = threading.Lock()
_tables: list[ShantenTables] = []


def get_tables() -> ShantenTables:
    """The tables, built on first use (about half a second) and kept for the process."""
    if not _tables:
        with _lock:
            if not _tables:
                _tables.append(_build())
    return _tables[0]

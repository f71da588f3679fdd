"""Suit relabelling moves every kind-indexed row and the discard label together."""

from __future__ import annotations

import numpy as np
import pytest

from tenpai.learn.shards import Batch
from tenpai.train.augment import SUIT_ORDERS, relabel_suits


def _batch(kinds: list[int]) -> Batch:
    n = len(kinds)
    x = np.zeros((n, 3, 34), dtype=np.uint8)
    legal = np.zeros((n, 34), dtype=bool)
    for i, k in enumerate(kinds):
        x[i, 0, k] = 2  # the tile to discard
        x[i, 1, (k // 9) * 9 + 8 if k < 27 else k] = 1  # the nine of its suit
        x[i, 2, 27 + i % 7] = 4  # an honour row that must never move
        legal[i, k] = True
    return Batch(x, np.asarray(kinds, dtype=np.int64), legal)


def test_orders_are_the_six_suit_permutations_with_honours_fixed() -> None:
    assert SUIT_ORDERS.shape == (6, 34)
    assert (SUIT_ORDERS[0] == np.arange(34)).all()
    assert len({tuple(r) for r in SUIT_ORDERS}) == 6
    assert (SUIT_ORDERS[:, 27:] == np.arange(27, 34)).all()
    for row in SUIT_ORDERS:
        # Numbers keep their rank inside the suit: the order only swaps whole suits.
        assert ((row[:27] % 9) == np.arange(27) % 9).all()


def test_labels_and_masks_follow_the_tiles() -> None:
    rng = np.random.default_rng(3)
    kinds = [0, 4, 13, 22, 26, 30] * 20
    b = _batch(kinds)
    out = relabel_suits(b, rng, kind_labels=True)
    moved = 0
    for i, k in enumerate(kinds):
        new = int(out.y[i])
        assert out.x[i, 0, new] == 2 and out.x[i, 0].sum() == 2
        assert out.legal[i, new] and out.legal[i].sum() == 1
        assert new % 9 == k % 9 if k < 27 else new == k
        nine = (new // 9) * 9 + 8 if new < 27 else new
        assert out.x[i, 1, nine] == 1
        assert (out.x[i, 2] == b.x[i, 2]).all()
        moved += new != k
    assert moved > 30  # most samples landed in another suit


def test_call_heads_keep_their_labels_and_vectors_are_refused() -> None:
    b = _batch([3, 12])
    b = Batch(b.x, np.array([1, 0]), np.ones((2, 2), dtype=bool))
    out = relabel_suits(b, np.random.default_rng(0), kind_labels=False)
    assert (out.y == b.y).all() and (out.legal == b.legal).all()
    with pytest.raises(ValueError, match="planes"):
        vectors = Batch(np.zeros((2, 352), np.uint8), b.y, b.legal)
        relabel_suits(vectors, np.random.default_rng(0), False)

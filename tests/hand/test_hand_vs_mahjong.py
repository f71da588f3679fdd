"""Differential test: Riichi shanten against the ``mahjong`` library on 100,000 seeded hands.

The hands mix uniform draws of every legal size (melds implied by the size), near-complete
hands (complete hands with a few swaps) and four-of-a-kind-heavy hands, so low shanten values
and the four-copy rule are well covered.  Zero disagreements are expected; docs/hand.md says
why the two definitions coincide on every legal hand.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hand_samples import mixed

from tenpai.hand import (
    shanten,
    shanten_batch,
    shanten_chiitoi,
    shanten_kokushi,
    shanten_standard,
)

mahjong_shanten = pytest.importorskip("mahjong.shanten")
Shanten = mahjong_shanten.Shanten

N_HANDS = 100_000


@pytest.fixture(scope="module")
def hands() -> list[list[int]]:
    return mixed(seed=20240601, n=N_HANDS)


def test_shanten_matches_mahjong_on_100k_hands(hands: list[list[int]]) -> None:
    ours = [shanten(h) for h in hands]
    theirs = [Shanten.calculate_shanten(h) for h in hands]
    bad = [(h, a, b) for h, a, b in zip(hands, ours, theirs) if a != b]
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
    spread = Counter(ours)
    # The sample must exercise every interesting value, not only 2-4.
    for value in (-1, 0, 1, 2, 3, 4):
        assert spread[value] >= 1_000, spread


def test_forms_match_mahjong_separately(hands: list[list[int]]) -> None:
    closed = [h for h in hands[:30_000] if sum(h) >= 13]
    regular = Shanten.calculate_shanten_for_regular_hand
    assert [shanten_standard(h) for h in hands[:30_000]] == [regular(h) for h in hands[:30_000]]
    assert [shanten_chiitoi(h) for h in closed] == [
        Shanten.calculate_shanten_for_chiitoitsu_hand(h) for h in closed
    ]
    assert [shanten_kokushi(h) for h in closed] == [
        Shanten.calculate_shanten_for_kokushi_hand(h) for h in closed
    ]


def test_batch_equals_single(hands: list[list[int]]) -> None:
    sample = hands[:20_000]
    batch = shanten_batch(np.array(sample, dtype=np.int8))
    assert batch.tolist() == [shanten(h) for h in sample]

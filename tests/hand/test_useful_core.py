"""The compiled rollouts' shanten and effective tiles (``_useful_core.h``) against the rows.

The rollout policies weigh each tied discard by its live effective tiles.  They used to find
them with a draw row per discard (the shanten after each of the 34 draws, from the mp/sh/final
tables); ``_useful_core.h`` reads them off the groups' distance vectors and the hand's minimal
splits instead.  ``_accel.discard_useful`` runs that very code on a 3k+2-tile hand, and here it
must give, for every discard, the same shanten and the same set of kinds whose draw lowers it as
``draw_shanten`` of the hand after the discard (a row computed from scratch) -- on 100,000
seeded hands of every size a hand with melds can have, including the shapes that exercise the
rarer branches: complete hands (every discard raises the standard form, the min-plus path),
seven-pairs and thirteen-orphans shapes, one-suit hands and hands built around quads.  A few
thousand are also checked against the pure-Python shanten, which shares no C code at all.

The shanten after each discard, which the rollouts once looked up as a whole hand per discard,
is read off the same minimal splits (``useful_discard_shanten``: one class look-up per
discard); the 100,000-hand check compares it with the whole-hand look-up (``hand_riichi``) on
every discard, asked as the rollouts ask it (all discards before any effective tiles).  The
groups' draw classes are kept under each group's pattern from one hand to the next
(``UsefulDraws``, one per rollout seat); the check keeps one across the batch, so the hands that
share a group's pattern with an earlier hand read it from there and must still agree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hand_samples import TERMINALS, _complete, near_complete, quad_heavy, uniform

from tenpai.hand import accel
from tenpai.hand._core import riichi_raw

pytestmark = pytest.mark.skipif(not accel.available(), reason="the C extension is not built")

N_HANDS = 100_000
N_PURE = 1_000
SIZES = (2, 5, 8, 11, 14)  # concealed tiles with four, three, two, one and no melds


def _fast(name: str) -> Any:
    return accel.fast(name) if accel.available() else None


def _one_suit(rng: random.Random, size: int) -> list[int]:
    """A hand mostly in one suit (a flush in the making: long runs of a single group)."""
    counts = [0] * 34
    suit = rng.randrange(4)
    kinds = list(range(27, 34)) if suit == 3 else list(range(9 * suit, 9 * suit + 9))
    while sum(counts) < size:
        k = rng.choice(kinds) if rng.random() < 0.85 else rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
    return counts


def _pairs_or_orphans(rng: random.Random) -> list[int]:
    """Fourteen tiles leaning to seven pairs or to thirteen orphans."""
    counts = [0] * 34
    if rng.random() < 0.5:
        for k in rng.sample(range(34), rng.choice((4, 5, 6, 7))):
            counts[k] = 2
    else:
        for k in rng.sample(TERMINALS, rng.choice((9, 10, 11, 12, 13))):
            counts[k] = 1
    while sum(counts) < 14:
        k = rng.choice(TERMINALS) if rng.random() < 0.5 else rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
    while sum(counts) > 14:
        counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
    return counts


def hands(seed: int, n: int) -> list[list[int]]:
    """``n`` seeded 3k+2-tile hands (2 to 14 tiles) of the shapes listed in the docstring."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        r = rng.random()
        if r < 0.45:
            counts = uniform(rng, rng.choice((*SIZES, 14, 14, 11)))
        elif r < 0.6:
            counts = near_complete(rng)
        elif r < 0.7:
            counts = _complete(rng, rng.choice((0, 1, 2, 3, 4, 4, 4)))
        elif r < 0.8:
            counts = _one_suit(rng, rng.choice(SIZES))
        elif r < 0.9:
            counts = _pairs_or_orphans(rng)
        else:
            counts = quad_heavy(rng)
        if sum(counts) % 3 == 2:
            out.append(counts)
    return out


def reference(counts: list[int], draw_row: Any, shanten: Any) -> tuple[list[int], list[int]]:
    """Per discard: the shanten after it and the mask of draws lowering it, from full rows."""
    after, masks = [99] * 34, [0] * 34
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            after[k] = shanten(counts)
            masks[k] = sum(1 << j for j, v in enumerate(draw_row(counts)) if v < after[k])
            counts[k] += 1
    return after, masks


def test_useful_masks_equal_the_draw_rows_on_100000_hands() -> None:
    batch = hands(3701, N_HANDS)
    assert {sum(c) for c in batch} == set(SIZES)
    discards, raised, reused, bad = _fast("useful_check")(b"".join(bytes(c) for c in batch))
    if bad >= 0:
        counts = batch[bad]
        got = _fast("discard_useful")(counts)
        want = reference(counts, _fast("draw_shanten"), _fast("shanten"))
        pytest.fail(f"hand {bad} {counts}: fast {got}, rows {want}")
    assert discards > 600_000
    assert raised > 10_000  # the min-plus branch is exercised, not only the minimal splits
    assert reused > 20_000  # groups read from an earlier hand's draws, not only computed


def test_discard_useful_equals_the_draw_rows() -> None:
    useful, draw_row, shanten = _fast("discard_useful"), _fast("draw_shanten"), _fast("shanten")
    for counts in hands(3703, 3_000):
        assert useful(counts) == reference(counts, draw_row, shanten), counts
        assert useful(bytes(counts)) == useful(tuple(counts))


def test_useful_masks_equal_the_pure_python_shanten() -> None:
    useful = _fast("discard_useful")
    for counts in hands(3702, N_PURE):
        after, masks = useful(counts)
        for k in range(34):
            if not counts[k]:
                assert (after[k], masks[k]) == (99, 0)
                continue
            counts[k] -= 1
            s = riichi_raw(bytes(counts))
            want = 0
            for j in range(34):
                if counts[j] < 4:
                    counts[j] += 1
                    if riichi_raw(bytes(counts)) < s:
                        want |= 1 << j
                    counts[j] -= 1
            counts[k] += 1
            assert (after[k], masks[k]) == (s, want), (counts, k)


def test_the_check_refuses_bad_rows() -> None:
    """The 100,000-hand check answers for an empty batch and refuses rows that are no hand."""
    check = _fast("useful_check")
    assert check(b"") == (0, 0, 0, -1)
    good = bytes(hands(3704, 1)[0])
    assert check(good)[3] == -1
    with pytest.raises(ValueError, match="34 counts"):
        check(good[:-1])
    with pytest.raises(ValueError, match="holds 5 of kind 0"):
        check(bytes([5] + [0] * 33))
    with pytest.raises(ValueError, match="holds 13 tiles"):
        check(bytes([4, 4, 4, 1] + [0] * 30))


def test_useful_refuses_what_it_does_not_handle() -> None:
    useful = _fast("discard_useful")
    assert useful([0] * 33 + [1]) is None  # 3k+1 tiles: no discard to weigh
    assert useful([5] + [0] * 33) is None  # five copies
    assert useful([1] * 10) is None  # not 34 counts
    assert useful("nope") is None

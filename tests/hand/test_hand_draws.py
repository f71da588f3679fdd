"""Differential tests of the draw rows: compiled path vs suit-wise Python vs the old loops.

``draw_shanten`` (shanten after each of the 34 draws) and ``discard_draws`` (per discard: the
shanten after it and the weight of the draws that then lower it) feed the ``gao86e`` encoder,
whose output must never change.  Both used to be plain loops of ``riichi_raw`` over freshly
built hands; they now have a compiled incremental loop and a suit-wise pure-Python version.
The old loops are kept below as the reference, and every path must give the very same lists.
When the extension is built, the tests also check it really answers (a ``None`` from it would
quietly send every call down the Python path and make the comparison Python against Python).
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from hand_samples import mixed

from tenpai.hand import accel
from tenpai.hand._core import riichi_raw
from tenpai.hand.counts import HandError

# The package re-exports functions named like these modules, so fetch the modules themselves.
efficiency = importlib.import_module("tenpai.hand.efficiency")
shanten_mod = importlib.import_module("tenpai.hand.shanten")

N_HANDS = 6000

FAST: Any = accel.fast("draw_shanten") if accel.available() else None
FAST_DISCARDS: Any = accel.fast("discard_draws") if accel.available() else None


def old_draw_shanten(b: bytes) -> list[int]:
    """The implementation before the fast paths: one ``riichi_raw`` per drawable kind."""
    out = [99] * 34
    work = bytearray(b)
    for kind in range(34):
        if work[kind] < 4:
            work[kind] += 1
            out[kind] = riichi_raw(bytes(work))
            work[kind] -= 1
    return out


def old_discard_draws(b: bytes, weights: list[int]) -> tuple[list[int], list[int]]:
    """What the encoder's loop computed before ``discard_draws`` existed."""
    after = [99] * 34
    totals = [0] * 34
    work = bytearray(b)
    for k in range(34):
        if not b[k]:
            continue
        work[k] -= 1
        hand = bytes(work)
        work[k] += 1
        s = riichi_raw(hand)
        after[k] = s
        totals[k] = sum(weights[j] for j, v in enumerate(old_draw_shanten(hand)) if v < s)
    return after, totals


def _weights(rng: random.Random, hand: list[int]) -> list[int]:
    """Unseen copies as an encoder sees them: 4 - own - a random number seen elsewhere."""
    return [rng.randint(0, 4 - c) for c in hand]


@pytest.fixture(scope="module")
def hands() -> list[list[int]]:
    """Seeded hands of every legal size, dense in near-complete and four-of-a-kind shapes."""
    return mixed(1313, N_HANDS)


def test_draw_rows_agree_on_every_path(hands: list[list[int]]) -> None:
    checked = 0
    values: set[int] = set()
    for hand in hands:
        if sum(hand) % 3 != 1:
            continue
        b = bytes(hand)
        want = old_draw_shanten(b)
        assert efficiency._draw_shanten_py(b) == want, hand
        assert efficiency.draw_shanten(b) == want, hand
        if FAST is not None:
            assert FAST(b) == want, hand
            assert FAST(hand) == want, hand
            assert FAST(bytearray(b)) == want, hand
        values.update(want)
        checked += 1
    assert checked > 1000
    # The sample must reach every outcome: complete, tenpai, far, and no copy left to draw.
    assert {-1, 0, 1, 2, 3, 99} <= values


def test_discard_rows_agree_on_every_path(hands: list[list[int]]) -> None:
    rng = random.Random(7)
    checked = 0
    for hand in hands:
        if sum(hand) % 3 != 2:
            continue
        b = bytes(hand)
        weights = _weights(rng, hand)
        want = old_discard_draws(b, weights)
        assert efficiency._discard_draws_py(b, weights) == want, hand
        assert efficiency.discard_draws(b, weights) == want, hand
        if FAST_DISCARDS is not None:
            assert FAST_DISCARDS(b, weights) == want, hand
            assert FAST_DISCARDS(hand, tuple(weights)) == want, hand
        checked += 1
    assert checked > 1000


def test_discard_rows_take_any_integer_weights() -> None:
    """Weights are summed as given (negative or large too), on both paths alike."""
    rng = random.Random(11)
    for hand in mixed(99, 400):
        if sum(hand) % 3 != 2:
            continue
        b = bytes(hand)
        weights = [rng.randint(-50, 5000) for _ in range(34)]
        want = old_discard_draws(b, weights)
        assert efficiency._discard_draws_py(b, weights) == want
        assert efficiency.discard_draws(b, weights) == want


@pytest.mark.skipif(not accel.available(), reason="the C extension is not built")
def test_the_compiled_rows_decline_what_they_do_not_handle() -> None:
    """Anything but a valid vector of the right size gets ``None``: the Python path answers."""
    thirteen = bytes([1] * 13 + [0] * 21)
    fourteen = bytes([2] + [1] * 12 + [0] * 21)
    assert FAST(thirteen) is not None
    assert FAST(fourteen) is None  # 3k+2 tiles: not a draw row
    assert FAST(bytes([1] * 12 + [0] * 22)) is None  # 3k tiles
    assert FAST(bytes([5] + [1] * 8 + [0] * 25)) is None  # a fifth copy
    assert FAST(thirteen[:33]) is None
    assert FAST(memoryview(thirteen)) is None  # not a list, tuple, bytes or bytearray
    weights = [1] * 34
    assert FAST_DISCARDS(fourteen, weights) is not None
    assert FAST_DISCARDS(thirteen, weights) is None
    assert FAST_DISCARDS(fourteen, weights[:33]) is None
    assert FAST_DISCARDS(fourteen, [1.0] * 34) is None
    assert FAST_DISCARDS(fourteen, [10**12] * 34) is None  # beyond the bounded weights


def test_python_discard_rows_reject_a_short_weight_vector() -> None:
    with pytest.raises(HandError, match="34 weights"):
        efficiency._discard_draws_py(bytes([2] + [1] * 12 + [0] * 21), [1] * 33)


def test_shanten_of_bytes_is_the_same_on_the_fast_path(hands: list[list[int]]) -> None:
    """The extension now reads bytes too; it must answer exactly as for a list."""
    for hand in hands[:2000]:
        b = bytes(hand)
        assert shanten_mod.shanten(b) == shanten_mod._shanten_py(hand)
        assert shanten_mod.shanten_standard(b) == shanten_mod._shanten_standard_py(hand)
        assert shanten_mod.is_complete(b) == shanten_mod._is_complete_py(hand)


def test_bad_bytes_still_raise_the_typed_error() -> None:
    with pytest.raises(HandError, match="at most four"):
        shanten_mod.shanten(bytes([5] + [0] * 33))
    with pytest.raises(HandError, match="3k\\+1 or 3k\\+2"):
        shanten_mod.shanten(bytes([1] * 12 + [0] * 22))

"""The compiled MCR shanten and standard-useful paths give the pure-Python numbers, and the
standard-useful answer is the work PyMahjongGB's ``RegularShanten`` does (the bench row that
times them side by side relies on it).

The compiled side is skipped when the extension is not built (or ``TENPAI_PURE_PYTHON=1``);
the Python side of each function then runs alone, against the same seeded hands.
"""

from __future__ import annotations

import importlib
import random
from typing import NoReturn

import pytest
from hand_samples import SIZES, near_complete, uniform

from tenpai.hand import KNITTED_PATTERNS, HandError, accel, shanten_standard, standard_useful
from tenpai.hand.mcr import _shanten_mcr_py, shanten_mcr
from tenpai.tiles import to_botzone


def _knitted(rng: random.Random) -> list[int]:
    counts = [0] * 34
    for k in rng.choice(KNITTED_PATTERNS):
        if rng.random() < 0.85:
            counts[k] += 1
    size = rng.choice((10, 11, 13, 14))
    while sum(counts) < size:
        k = rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
    while sum(counts) > size:
        k = rng.choice([k for k in range(34) if counts[k]])
        counts[k] -= 1
    return counts


def _hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        r = rng.random()
        if r < 0.4:
            out.append(uniform(rng, rng.choice(SIZES)))
        elif r < 0.7:
            out.append(_knitted(rng))
        else:
            out.append(near_complete(rng))
    return out


compiled = pytest.mark.skipif(not accel.available(), reason="C extension not built / disabled")


@compiled
def test_compiled_mcr_shanten_equals_python() -> None:
    fast = accel.fast("mcr")
    for counts in _hands(30_000, 5):
        assert fast(counts) == _shanten_mcr_py(counts), counts
        assert fast(bytes(counts)) == _shanten_mcr_py(counts), counts


def test_mcr_shanten_values_spread() -> None:
    """The sample reaches every interesting value (so the equality above means something)."""
    values = {shanten_mcr(c) for c in _hands(5_000, 6)}
    assert {-1, 0, 1, 2, 3} <= values


def test_mcr_shanten_rejects_bad_hands_on_every_path() -> None:
    with pytest.raises(HandError):
        shanten_mcr([5] + [0] * 33)
    with pytest.raises(HandError):
        shanten_mcr([1] * 12 + [0] * 22)  # 12 tiles: a multiple of three
    with pytest.raises(HandError):
        shanten_mcr([1] * 33)


def _useful_reference(counts: list[int]) -> tuple[int, list[int]]:
    s = shanten_standard(counts)
    out = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if shanten_standard(counts) < s:
                out.append(k)
            counts[k] -= 1
    return s, out


def test_standard_useful_equals_reference() -> None:
    for counts in _hands(8_000, 7):
        if sum(counts) % 3 != 1:
            with pytest.raises(HandError):
                standard_useful(counts)
            continue
        assert standard_useful(counts) == _useful_reference(list(counts)), counts


@compiled
def test_compiled_standard_useful_is_taken_for_lists_and_bytes() -> None:
    fast = accel.fast("standard_useful")
    hand = [1, 1, 1, 0, 0, 0, 0, 0, 0] * 3 + [2, 1, 1, 0, 0, 0, 0]
    assert fast(hand) == (1, [27, 28, 29])
    assert fast(bytes(hand)) == (1, [27, 28, 29])
    assert fast([0] * 34) is None  # 0 tiles: not a 3k+1 hand, the Python path decides


def test_standard_useful_matches_pymahjonggb_regular_shanten() -> None:
    gb = pytest.importorskip("MahjongGB")
    rng = random.Random(8)
    checked = 0
    for _ in range(3_000):
        counts = uniform(rng, 13) if rng.random() < 0.5 else near_complete(rng)
        if sum(counts) != 13:
            continue
        names = tuple(to_botzone(k) for k in range(34) for _ in range(counts[k]))
        theirs, their_useful = gb.RegularShanten(names)
        ours, useful = standard_useful(counts)
        held4 = {k for k in range(34) if counts[k] == 4}
        # Known difference: PyMahjongGB lists (and waits on) kinds held four times.
        their_kinds = {k for k in range(34) if to_botzone(k) in their_useful} - held4
        if their_kinds or theirs != 0:
            assert ours == theirs, counts
        assert set(useful) == their_kinds or (theirs == 0 and ours == 1), counts
        checked += 1
    assert checked > 1_000


# The submodule (the package attribute of the same name is the function).
sh_module = importlib.import_module("tenpai.hand.shanten")


def _refuse(_: object) -> NoReturn:
    raise AssertionError("the pure-Python fallback was called")


@compiled
def test_compiled_shanten_answers_bytes_lists_and_tuples_itself() -> None:
    """Bytes hands (the encoders' form) must not drop to the Python path: with the fallbacks
    replaced by functions that fail, every valid hand form is still answered."""
    hands = [h for h in _hands(2_000, 9)]
    expected = [sh_module._shanten_py(h) for h in hands]
    fast = accel.fast("shanten")
    accel.install(_refuse, _refuse, _refuse)
    try:
        for h, want in zip(hands, expected):
            assert fast(bytes(h)) == want
            assert fast(bytearray(h)) == want
            assert fast(tuple(h)) == want
            assert fast(h) == want
    finally:
        accel.install(sh_module._shanten_py, sh_module._shanten_standard_py,
                      sh_module._is_complete_py)
    with pytest.raises(HandError):
        fast(bytes([5] + [0] * 33))  # the real fallback is back and raises the typed error

"""``gao86e@1``'s efficiency channels are bit-identical after the speed-up of their computation.

Models and shards depend on ``gao86e@1``, so the faster computation (one compiled
``discard_draws`` call per decision, the suit-wise Python fallback, the ``zip`` column sums of
the unseen copies) must reproduce the old output exactly.  The old functions are kept here
verbatim as the reference and compared on thousands of seeded hands and views, on the compiled
path and on the pure-Python path (forced by switching the compiled entry points off).  The
golden digest in test_learn_encoders.py and the pinned shards in test_learn_pinned_shards.py
check the same thing on fixed data.
"""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest

from tenpai.hand import accel
from tenpai.hand._core import riichi_raw
from tenpai.learn.encoders import efficiency
from tenpai.learn.state import SeatView

hand_efficiency = importlib.import_module("tenpai.hand.efficiency")

N_HANDS = 4000


def old_draw_shanten(b: bytes) -> list[int]:
    out = [99] * 34
    work = bytearray(b)
    for kind in range(34):
        if work[kind] < 4:
            work[kind] += 1
            out[kind] = riichi_raw(bytes(work))
            work[kind] -= 1
    return out


def old_unseen(view: SeatView) -> list[int]:
    left = []
    for k in range(34):
        seen = view.hand[k] + view.dora[k]
        for rel in range(4):
            seen += view.rivers[rel][k] + view.melds[rel][k]
        left.append(max(0, 4 - seen))
    return left


def old_efficiency_rows(hand: bytes, left: list[int], out: np.ndarray, at: int) -> None:
    """The channels as computed before the fast paths (one ``riichi_raw`` per hand)."""
    n = sum(hand)
    if n % 3 == 2:
        work = bytearray(hand)
        shanten: dict[int, int] = {}
        ukeire: dict[int, int] = {}
        for k in range(34):
            if not hand[k]:
                continue
            work[k] -= 1
            after = bytes(work)
            work[k] += 1
            s = riichi_raw(after)
            shanten[k] = s
            ukeire[k] = sum(left[j] for j, v in enumerate(old_draw_shanten(after)) if v < s)
        best = min(shanten.values())
        top = max(u for k, u in ukeire.items() if shanten[k] == best)
        for k, s in shanten.items():
            out[at, k] = max(1, 4 - (s - best))
            if s == best:
                u = ukeire[k]
                if top == 0 or u >= top:
                    out[at + 1, k] = 4
                elif 4 * u >= 3 * top:
                    out[at + 1, k] = 3
                elif 2 * u >= top:
                    out[at + 1, k] = 2
                else:
                    out[at + 1, k] = 1
        out[at + 2] = 4 - min(max(best, 0), 3)
    elif n % 3 == 1:
        s = riichi_raw(hand)
        out[at + 2] = 4 - min(max(s, 0), 3)
        for k, v in enumerate(old_draw_shanten(hand)):
            if v < s:
                out[at + 3, k] = left[k]


def _counts(tiles: list[int]) -> tuple[int, ...]:
    out = [0] * 34
    for t in tiles:
        out[t // 4] += 1
    return tuple(out)


def random_view(rng: random.Random) -> SeatView:
    """A view dealt from one shuffled wall, so no kind is ever seen more than four times.

    Hands lean towards near-complete shapes (a few kinds only) half of the time, because
    uniform hands are rarely tenpai and the channels' interesting cases are near the end.
    """
    wall = list(range(136))
    rng.shuffle(wall)
    size = rng.choice((14, 14, 14, 13, 13, 11, 10, 8, 7, 5, 4, 2, 1))
    if rng.random() < 0.5:
        kinds = rng.sample(range(34), rng.randint(4, 9))
        narrow = [t for t in wall if t // 4 in kinds]
        hand = narrow[:size] if len(narrow) >= size else wall[:size]
    else:
        hand = wall[:size]
    rest = [t for t in wall if t not in set(hand)]
    cut = [0, *sorted(rng.randint(0, 70) for _ in range(9))]
    parts = [rest[cut[i] : cut[i + 1]] for i in range(9)]
    return SeatView(
        seat=0,
        hand=_counts(hand),
        red=(0, 0, 0),
        rivers=tuple(_counts(p) for p in parts[0:4]),
        melds=tuple(_counts(p) for p in parts[4:8]),
        meld_types=((0, 0, 0),) * 4,
        dora=_counts(parts[8]),
        riichi=(False,) * 4,
        bakaze=0,
        seat_wind=0,
        kyoku=0,
        honba=0,
        kyotaku=0,
        scores=(25000,) * 4,
        wall_remaining=70,
    )


@pytest.fixture(scope="module")
def views() -> list[SeatView]:
    rng = random.Random(86)
    return [random_view(rng) for _ in range(N_HANDS)]


def test_unseen_copies_match_the_old_loop(views: list[SeatView]) -> None:
    for v in views:
        assert efficiency._unseen(v) == old_unseen(v)


@pytest.mark.parametrize("path", ["compiled", "python"])
def test_channels_are_bit_identical(
    views: list[SeatView], path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path == "compiled":
        if not accel.available():
            pytest.skip("the C extension is not built")
        assert hand_efficiency._fast_discard_draws is not None
    else:
        monkeypatch.setattr(hand_efficiency, "_fast_draw", None)
        monkeypatch.setattr(hand_efficiency, "_fast_discard_draws", None)
    kinds = {0: 0, 1: 0, 2: 0}
    full = 0
    for v in views:
        hand = bytes(v.hand)
        left = old_unseen(v)
        want = np.zeros((4, 34), dtype=np.uint8)
        old_efficiency_rows(hand, left, want, 0)
        got = np.zeros((5, 34), dtype=np.uint8)
        efficiency.efficiency_rows(hand, left, got, 1)
        assert not got[0].any()
        assert np.array_equal(got[1:], want), v.hand
        kinds[sum(hand) % 3] += 1
        full += int(want[2, 0] == 4)
    assert kinds[1] > 500 and kinds[2] > 2000
    assert full > 200  # tenpai (or complete) after the best discard: the top of the scale


def test_fill_efficiency_matches_the_old_channels(views: list[SeatView]) -> None:
    """The encoder entry point on whole views, as ``gao86e`` calls it."""
    for v in views[:1000]:
        want = np.zeros((4, 34), dtype=np.uint8)
        old_efficiency_rows(bytes(v.hand), old_unseen(v), want, 0)
        got = np.zeros((4, 34), dtype=np.uint8)
        assert efficiency.fill_efficiency(v, got, 0) == 4
        assert np.array_equal(got, want)

"""MCR encoders: channel meaning, the best division, and golden digests freezing each version."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from tenpai.learn.mcr.division import best_division
from tenpai.learn.mcr.encoders import MCR_ENCODER_NAMES
from tenpai.learn.mcr.state import MCRView
from tenpai.learn.rulesets import get_encoder

GOLDEN = {"mcr_ffn352": "00781e49d604b628", "mcr_stack002": "4ecd36f1cf8b9fec"}


def _counts(*kinds: int) -> tuple[int, ...]:
    out = [0] * 34
    for k in kinds:
        out[k] += 1
    return tuple(out)


def _view(offered: int | None = None) -> MCRView:
    """A fixed, hand-made view: the golden digests depend on nothing else."""
    hand = _counts(0, 1, 2, 3, 3, 9, 10, 12, 20, 20, 20, 27, 28, 28)
    return MCRView(
        seat=1,
        hand=hand,
        rivers=(_counts(33, 31), _counts(8, 17), _counts(26), _counts(30, 30)),
        melds=(_counts(), _counts(5, 6, 7), _counts(), _counts(32, 32, 32)),
        meld_types=((0, 0, 0), (1, 0, 0), (0, 0, 0), (0, 1, 0)),
        flowers=(0, 1, 0, 2),
        prevalent_wind=1,
        seat_wind=3,
        discards_made=2,
        offered=offered,
    )


def test_best_division_adds_up_to_the_hand() -> None:
    hand = _view().hand
    sets, pair, partials, isolated = best_division(hand)
    assert tuple(a + b + c + d for a, b, c, d in zip(sets, pair, partials, isolated)) == hand
    assert sum(sets) == 6 and sum(pair) == 2  # 1-2-3m and 3s-3s-3s; the 4m pair
    assert isolated[12] == 1 and isolated[27] == 1  # 4p and East stand alone


def test_best_division_rejects_bad_counts() -> None:
    with pytest.raises(ValueError, match="34 counts"):
        best_division([5] + [0] * 33)


def test_ffn352_layout() -> None:
    enc = get_encoder("mcr_ffn352@1", "mcr")
    out = enc.encode(_view(offered=4))
    assert out.shape == (352,)
    assert list(out[0:34]) == list(_view().hand)
    assert out[34 * 2 + 5] == 1 and out[34 * 4 + 32] == 3  # right's chow, left's pung
    assert out[34 * 8 + 30] == 2  # left's river
    assert list(out[306:318]) == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    assert out[318 + 4] == 1 and out[318:].sum() == 1


def test_stack002_ting_and_offered() -> None:
    enc = get_encoder("mcr_stack002", "mcr")
    out = enc.encode(_view())
    assert out.shape == (19, 34)
    assert out[10, 28] == 4 and out[11, 30] == 4  # South prevalent, North seat
    assert out[16].sum() == 0 and out[18].sum() == 0  # far from ready; no claim
    ready = _counts(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 27, 33)  # drop 33: waits on East
    view = _view()
    v2 = MCRView(view.seat, ready, view.rivers, view.melds, view.meld_types, view.flowers,
                 view.prevalent_wind, view.seat_wind, view.discards_made, offered=5)
    out2 = enc.encode(v2)
    assert (out2[16] == 4).all() and (out2[17] == 4).all()
    assert out2[18, 5] == 4 and out2[18].sum() == 4
    assert (out2[9] == np.array(v2.unseen())).all()


def test_unknown_names_and_versions_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown mcr encoder"):
        get_encoder("gao86", "mcr")
    with pytest.raises(ValueError, match="version"):
        get_encoder("mcr_ffn352@2", "mcr")


@pytest.mark.parametrize("name", MCR_ENCODER_NAMES)
def test_golden_digest_freezes_the_encoder(name: str) -> None:
    enc = get_encoder(name, "mcr")
    out = np.concatenate([enc.encode(_view()).ravel(), enc.encode(_view(offered=21)).ravel()])
    digest = hashlib.sha256(out.tobytes()).hexdigest()[:16]
    assert digest == GOLDEN[name], f"{name} output changed: bump VERSION or write a new module"

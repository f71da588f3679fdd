"""Encoders: shapes, channel meaning, and golden digests that freeze each version's output."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from tenpai.learn.encoders import ENCODER_NAMES
from tenpai.learn.rulesets import get_encoder
from tenpai.learn.state import SeatView


def _counts(**by_kind: int) -> tuple[int, ...]:
    out = [0] * 34
    for k, v in by_kind.items():
        out[int(k[1:])] = v
    return tuple(out)


def _view(history: int = 6, offered: int | None = None) -> SeatView:
    """A fixed, hand-made view: the golden digests below depend on nothing else."""
    past = tuple(
        SeatView(
            seat=2,
            hand=_counts(k0=1, k1=1, k2=1, **{f"k{10 + d}": 2}),
            red=(0, 0, 0),
            rivers=tuple(_counts(**{f"k{27 + r}": 1 + (d % 2)}) for r in range(4)),
            melds=tuple(
                _counts(**{f"k{18 + r}": 3}) if r == d % 4 else _counts() for r in range(4)
            ),
            meld_types=((0, 0, 0),) * 4,
            dora=_counts(k5=1),
            riichi=(False, d == 0, False, True),
            bakaze=1,
            seat_wind=3,
            kyoku=2,
            honba=1,
            kyotaku=1,
            scores=(21000, 30000, 25000, 24000),
            wall_remaining=40 + 4 * d,
        )
        for d in range(history)
    )
    return SeatView(
        seat=2,
        hand=_counts(k0=1, k1=1, k2=1, k4=2, k13=3, k22=1, k27=2, k31=3),
        red=(1, 0, 1),
        rivers=(_counts(k33=1, k8=2), _counts(k9=1), _counts(), _counts(k30=4)),
        melds=(_counts(), _counts(k5=1, k6=1, k7=1), _counts(k32=4), _counts()),
        meld_types=((0, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, 0)),
        dora=_counts(k5=1, k19=1),
        riichi=(False, True, False, True),
        bakaze=1,
        seat_wind=3,
        kyoku=2,
        honba=1,
        kyotaku=1,
        scores=(21000, 30000, 25000, 24000),
        wall_remaining=36,
        offered=offered,
        history=past,
    )


GOLDEN = {
    "gao56": "910e0547c0a789fe",
    "gao68": "fb0b4b657b2489f6",
    "gao86": "436cf2dadac106ad",
    "gao86e": "43c55fd5cbdccc06",
    "ffn352": "bcd4cb1b9e4e3817",
}


@pytest.mark.parametrize("name", ENCODER_NAMES)
def test_golden_digest_freezes_the_encoder(name: str) -> None:
    enc = get_encoder(name)
    out = enc.encode(_view(offered=13))
    assert out.shape == enc.shape and out.dtype == np.uint8
    assert len(enc.channels) == (enc.shape[0] if enc.layout == "planes" else len(enc.channels))
    digest = hashlib.sha256(out.tobytes()).hexdigest()[:16]
    assert digest == GOLDEN[name], f"{name} output changed: bump VERSION or a new module"


@pytest.mark.parametrize("name", ["gao56", "gao68", "gao86"])
def test_plane_channels_mean_what_their_names_say(name: str) -> None:
    enc = get_encoder(name)
    view = _view()
    out = enc.encode(view)
    ch = {n: i for i, n in enumerate(enc.channels)}
    assert tuple(out[ch["hand"]]) == view.hand
    assert out[ch["aka"], 4] == 4 and out[ch["aka"], 22] == 4 and out[ch["aka"], 13] == 0
    assert tuple(out[ch["river_left"]]) == view.rivers[3]
    assert tuple(out[ch["melds_across"]]) == view.melds[2]
    assert (out[ch["riichi_right"]] == 4).all() and (out[ch["riichi_across"]] == 0).all()
    assert out[ch["round_wind"], 28] == 4 and out[ch["own_wind"], 30] == 4
    assert tuple(out[ch["past1_hand"]]) == view.history[0].hand
    assert (out[ch["past1_riichi_right"]] == 4).all()
    assert (out[ch["offered"]] == 0).all()
    if name != "gao56":
        assert (out[ch["rank_3"]] == 4).all()  # 21,000 is behind 30,000, 25,000 and 24,000
        assert (out[ch["round_S3"]] == 4).all()


def test_gao86_extends_gao68_with_two_older_situations() -> None:
    v = _view()
    a = get_encoder("gao68").encode(v)
    b = get_encoder("gao86").encode(v)
    assert np.array_equal(a[:-1], b[: a.shape[0] - 1])
    assert b[68:86].any()
    short = get_encoder("gao86").encode(_view(history=4))
    assert not short[68:86].any()  # situations older than the round stay empty


def test_counts_never_exceed_four_so_planes_are_well_formed() -> None:
    for name in ENCODER_NAMES:
        assert int(get_encoder(name).encode(_view(offered=5)).max()) <= 4


def test_ffn352_layout() -> None:
    v = _view(offered=13)
    out = get_encoder("ffn352").encode(v)
    assert tuple(out[:34]) == v.hand
    assert tuple(out[34 * 3 : 34 * 4]) == v.melds[2]
    assert tuple(out[34 * 8 : 34 * 9]) == v.rivers[3]
    assert tuple(out[306:318]) == (0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0)
    assert out[318 + 13] == 1 and out[318:].sum() == 1


def test_unknown_encoder_and_wrong_version_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown riichi encoder"):
        get_encoder("gao99")
    with pytest.raises(ValueError, match="version"):
        get_encoder("gao56@2")
    assert get_encoder("gao56@1").tag == "gao56@1"


def test_gao86e_is_gao86_plus_efficiency_channels() -> None:
    v = _view(offered=13)
    base = get_encoder("gao86").encode(v)
    ext = get_encoder("gao86e").encode(v)
    assert np.array_equal(ext[: base.shape[0]], base)
    ch = {n: i for i, n in enumerate(get_encoder("gao86e").channels)}
    # 123m 55m 555p 5s EE + three of a dragon: dropping the 5s leaves a tenpai shanpon wait.
    shanten_row = ext[ch["discard_shanten"]]
    assert shanten_row[22] == 4
    assert set(shanten_row[[0, 1, 2, 4, 13, 27, 31]]) == {3}
    assert not shanten_row[[k for k in range(34) if v.hand[k] == 0]].any()
    assert ext[ch["discard_ukeire"], 22] == 4 and ext[ch["discard_ukeire"]].sum() == 4
    assert (ext[ch["shanten"]] == 4).all()  # tenpai after the best discard
    assert not ext[ch["effective"]].any()  # a 14-tile hand: no draw row


def test_efficiency_rows_of_a_claim_window_list_the_unseen_effective_tiles() -> None:
    from tenpai.learn.encoders.efficiency import efficiency_rows

    hand = [0] * 34
    for k in (0, 1, 9, 10, 11, 18, 19, 20, 27, 27, 30, 31, 32):  # 12m 123p 123s EE + 3 honours
        hand[k] += 1
    left = [4 - c for c in hand]
    left[2] = 1  # three 3m seen elsewhere
    out = np.zeros((4, 34), dtype=np.uint8)
    efficiency_rows(bytes(hand), left, out, 0)
    assert out[2, 0] == 2  # two steps from tenpai (two sets, a pair, a partial run)
    effective = {k for k in range(34) if out[3, k]}
    assert 2 in effective and out[3, 2] == 1
    assert not out[0].any() and not out[1].any()

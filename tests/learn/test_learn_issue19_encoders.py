"""Issue-19 encoders: off-table rows, look-ahead rows, seq7, and cutting datasets by channel."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from tenpai.hand._core import riichi_raw
from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset, load_manifest
from tenpai.learn.encoders import ISSUE19_ENCODERS, lookahead, offtable
from tenpai.learn.project import channel_index, project_dataset
from tenpai.learn.rulesets import get_encoder
from tenpai.learn.state import SeatView

FOLDER = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"


def _counts(**by_kind: int) -> tuple[int, ...]:
    out = [0] * 34
    for k, v in by_kind.items():
        out[int(k[1:])] = v
    return tuple(out)


def _view(
    hand: tuple[int, ...] | None = None,
    scores: tuple[int, ...] = (21000, 30000, 25000, 24000),
    riichi: tuple[bool, ...] = (False, True, False, True),
    seat_wind: int = 3,
    history: int = 3,
) -> SeatView:
    """A fixed hand-made view (the golden digests depend on nothing else)."""
    past = tuple(
        SeatView(
            seat=2,
            hand=_counts(k0=1, k1=1, k2=1, **{f"k{10 + d}": 2}),
            red=(0, 0, 0),
            rivers=tuple(_counts(**{f"k{27 + r}": 1}) for r in range(4)),
            melds=((0,) * 34,) * 4,
            meld_types=((0, 0, 0),) * 4,
            dora=_counts(k5=1),
            riichi=(False,) * 4,
            bakaze=1,
            seat_wind=seat_wind,
            kyoku=2,
            honba=1,
            kyotaku=1,
            scores=scores,
            wall_remaining=40 + 4 * d,
        )
        for d in range(history)
    )
    return SeatView(
        seat=2,
        hand=hand or _counts(k0=1, k1=1, k2=1, k4=2, k13=3, k22=1, k27=2, k31=3),
        red=(1, 0, 1),
        rivers=(_counts(k33=1, k8=2), _counts(k9=1), _counts(), _counts(k30=4)),
        melds=(_counts(), _counts(k5=1, k6=1, k7=1), _counts(k32=4), _counts()),
        meld_types=((0, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, 0)),
        dora=_counts(k5=1, k19=1),
        riichi=riichi,
        bakaze=1,
        seat_wind=seat_wind,
        kyoku=2,
        honba=2,
        kyotaku=3,
        scores=scores,
        wall_remaining=37,
        history=past,
    )


GOLDEN = {
    "gao86e_sc": "eb94e5e9852f92ed",
    "gao86e_ctx": "86dec2c92b56e951",
    "gao86e_rc": "7ea90862d5cf9497",
    "gao86e_off": "fe4e7dff0db92733",
    "gao86e_la": "0d61dfd650242253",
    "gao86e_all": "370969c4dca10a41",
    "seq7": "c0db9542f3abeaf8",
}


@pytest.mark.parametrize("name", ISSUE19_ENCODERS)
def test_golden_digest_freezes_the_encoder(name: str) -> None:
    enc = get_encoder(name)
    out = enc.encode(_view())
    assert out.shape == enc.shape and out.dtype == np.uint8 and int(out.max()) <= 4
    assert len(set(enc.channels)) == len(enc.channels) == enc.shape[0]
    digest = hashlib.sha256(out.tobytes()).hexdigest()[:16]
    assert digest == GOLDEN[name], f"{name} output changed: bump VERSION or a new module"


@pytest.mark.parametrize("name", ISSUE19_ENCODERS)
def test_every_issue19_encoder_is_a_channel_selection_of_gao86e_all(name: str) -> None:
    wide, narrow = get_encoder("gao86e_all"), get_encoder(name)
    index = channel_index(wide.channels, narrow.channels)
    for view in (_view(), _view(seat_wind=0, history=0, riichi=(False,) * 4)):
        assert np.array_equal(wide.encode(view)[index], narrow.encode(view))
    base = get_encoder("gao86e")
    if name != "seq7":  # gao86e's rows come first, unchanged
        assert np.array_equal(narrow.encode(_view())[: base.shape[0]], base.encode(_view()))


def _row(enc: str, channel: str, view: SeatView) -> np.ndarray:
    e = get_encoder(enc)
    out: np.ndarray = e.encode(view)[e.channels.index(channel)]
    return out


def test_off_table_rows_mean_what_their_names_say() -> None:
    view = _view(scores=(21000, 30000, 25000, 24000))
    own = _row("gao86e_sc", "score_self", view)
    assert int(own.sum()) == 21000 // 500 and list(own[:11]) == [4] * 10 + [2]
    gap = _row("gao86e_sc", "gap_right", view)  # 21,000 - 30,000: 18 cells left of the middle
    assert int(gap.sum()) == 68 - 18
    assert set(_row("gao86e_sc", "gap_above", view)) == {3}  # 3,000 to the player above
    assert set(_row("gao86e_sc", "gap_below", view)) == {0}  # last: nobody below
    assert set(_row("gao86e_ctx", "dealer", view)) == {0}
    assert set(_row("gao86e_ctx", "dealer", _view(seat_wind=0))) == {4}
    assert set(_row("gao86e_ctx", "honba", view)) == {2}
    assert set(_row("gao86e_ctx", "riichi_sticks", view)) == {3}
    assert int(_row("gao86e_ctx", "wall_cells", view).sum()) == 37
    assert set(_row("gao86e_rc", "riichi_count", view)) == {2}
    # Right (rel 1) and left (rel 3) are in riichi.  Own wind North: the right player is East,
    # the dealer; own wind West: the dealer sits across, not in riichi.
    assert set(_row("gao86e_rc", "riichi_dealer", view)) == {4}
    assert set(_row("gao86e_rc", "riichi_dealer", _view(seat_wind=2))) == {0}
    assert set(_row("gao86e_rc", "riichi_dealer", _view(seat_wind=1))) == {4}
    thermo = np.zeros(34, dtype=np.uint8)
    offtable.thermometer(thermo, 500)
    assert int(thermo.sum()) == 136


def _shanten_after(hand: list[int], k: int) -> int:
    h = list(hand)
    h[k] -= 1
    return int(riichi_raw(bytes(h)))


def test_look_ahead_rows_match_a_brute_force_count() -> None:
    """Shanten, ukeire and live kinds per discard recomputed hand by hand with riichi_raw."""
    view = _view()
    rows = np.zeros((lookahead.WIDTH, 34), dtype=np.uint8)
    lookahead.fill_lookahead(view, rows, 0)
    hand = list(view.hand)
    seen = [
        hand[k] + view.dora[k] + sum(view.rivers[r][k] + view.melds[r][k] for r in range(4))
        for k in range(34)
    ]
    unseen = [max(0, 4 - s) for s in seen]
    for k in range(34):
        if not hand[k]:
            assert not rows[:, k].any()
            continue
        s = _shanten_after(hand, k)
        after = list(hand)
        after[k] -= 1
        better = []
        for j in range(34):
            if after[j] < 4:
                drawn = list(after)
                drawn[j] += 1
                if riichi_raw(bytes(drawn)) < s:
                    better.append(j)
        u = sum(unseen[j] for j in better)
        n = sum(1 for j in better if unseen[j] > 0)
        assert rows[0, k] == 4 - min(max(s, 0), 3)
        assert rows[1, k] == min(4, u // 4) and rows[2, k] == min(4, max(0, u - 16) // 8)
        assert rows[3, k] == min(4, n) and rows[4, k] == min(4, n // 4)
    # Dora: indicators 6m and 2s show 7m and 3s, neither held; the two red fives (5m of two
    # 5m, the lone 5s) are the hand's dora.  Discarding the lone red 5s loses one; discarding
    # a 5m keeps the red copy.
    assert rows[5, 22] == 1 and rows[5, 4] == 2 and rows[5, 0] == 2
    # Tanyao: six terminals and honours (1m, East x2, White x3): far from all simples.
    assert not rows[6].any()
    simple = _view(hand=_counts(k1=3, k2=1, k3=1, k4=2, k13=3, k22=3, k27=1))
    rows[:] = 0
    lookahead.fill_lookahead(simple, rows, 0)
    assert rows[6, 27] == 4 and rows[6, 1] == 3


def test_look_ahead_rows_are_empty_for_claim_windows() -> None:
    view = _view(hand=_counts(k0=1, k1=1, k2=1, k4=2, k13=3, k22=1, k27=2, k31=2))
    rows = np.zeros((lookahead.WIDTH, 34), dtype=np.uint8)
    assert lookahead.fill_lookahead(view, rows, 5) == 5 + lookahead.WIDTH
    assert not rows.any()


def test_seq7_orders_turns_oldest_first() -> None:
    from tenpai.learn.encoders import seq7

    out = get_encoder("seq7").encode(_view(history=3))
    hand_rows = [out[s * seq7.STEP_CHANNELS] for s in range(seq7.STEPS)]
    assert not any(r.any() for r in hand_rows[:3])  # past 6, 5, 4: before the round
    assert hand_rows[3][12] == 2 and hand_rows[5][10] == 2  # past 3 held 12 twice, past 1 10
    assert tuple(hand_rows[6]) == _view().hand


def test_project_cuts_and_merges_into_what_a_direct_build_writes(
    data_dir: Path, tmp_path: Path
) -> None:
    src = data_dir / FOLDER
    if not src.is_dir():
        pytest.skip(f"{FOLDER} not in the shared data")
    for name, encoder in (("all", "gao86e_all"), ("la", "gao86e_la")):
        options = BuildOptions(encoder=encoder, limit=2, shard_size=300)
        build_dataset([src], tmp_path / name, options)
    got = project_dataset([tmp_path / "all"], tmp_path / "cut", "gao86e_la")
    want = load_manifest(tmp_path / "la")
    assert got["encoder"] == want["encoder"] == "gao86e_la@1"
    assert got["counts"] == want["counts"] and got["games"] == want["games"]
    assert [s["path"] for s in got["shards"]] == [s["path"] for s in want["shards"]]
    for shard in want["shards"]:
        with (
            np.load(tmp_path / "la" / shard["path"]) as a,
            np.load(tmp_path / "cut" / shard["path"]) as b,
        ):
            for name in a.files:
                assert np.array_equal(a[name], b[name]), (shard["path"], name)
    # Merging: two files built apart come back as one dataset, game indices renumbered.
    files: list[Path] = []
    for f in sorted(p for p in src.iterdir() if p.is_file()):
        try:  # the folder also holds three-player games, which a build leaves out
            build_dataset([f], tmp_path / f"g{len(files)}", BuildOptions(encoder="gao86e_all"))
        except DatasetError:
            continue
        files.append(f)
        if len(files) == 2:
            break
    build_dataset(files, tmp_path / "g01", BuildOptions(encoder="gao86e", limit=2))
    merged = project_dataset([tmp_path / "g0", tmp_path / "g1"], tmp_path / "m", "gao86e")
    direct = load_manifest(tmp_path / "g01")
    assert merged["games"] == direct["games"] and merged["counts"] == direct["counts"]
    for split, kinds in direct["counts"].items():
        for kind in kinds:
            for name in ("x", "y", "legal", "game"):
                a = [
                    np.load(tmp_path / "g01" / s["path"])[name]
                    for s in direct["shards"]
                    if (s["split"], s["kind"]) == (split, kind)
                ]
                b = [
                    np.load(tmp_path / "m" / s["path"])[name]
                    for s in merged["shards"]
                    if (s["split"], s["kind"]) == (split, kind)
                ]
                assert np.array_equal(np.concatenate(a), np.concatenate(b)), (split, kind, name)
    with pytest.raises(DatasetError, match="already in an earlier source"):
        project_dataset([tmp_path / "g0", tmp_path / "g0"], tmp_path / "m2", "gao86e")
    with pytest.raises(DatasetError, match="no channel"):
        project_dataset([tmp_path / "la"], tmp_path / "m3", "gao86e_sc")

"""Hand-written cases whose values were worked out by hand, one rule each."""

from __future__ import annotations

from typing import Any

from tenpai.rules.riichi import EAST, MAHJONG_SOUL, SOUTH, TENHOU, WEST, evaluate

from .riichi_helpers import ctx, meld, score, yaku_ids

NON_DEALER: dict[str, Any] = {"seat_wind": SOUTH, "round_wind": EAST}


def test_pinfu_tsumo_is_20_fu_and_ron_30() -> None:
    r = score("234789m1234566p", "6p", tsumo=True, riichi=True, **NON_DEALER)
    assert (r.han, r.fu) == (3, 20)
    assert yaku_ids(r) == {"riichi", "menzen_tsumo", "pinfu"}
    assert (r.tsumo_dealer, r.tsumo_non_dealer) == (1300, 700)
    r = score("234789m1234566p", "6p", **NON_DEALER)
    assert (r.han, r.fu, r.ron) == (1, 30, 1000)


def test_wait_choice_takes_the_penchan_reading_when_it_scores_more() -> None:
    # 12345m + 3m reads 12(3) 345 (penchan, +2) or 123 (3)45 (ryanmen); with the dragon pair
    # and the concealed haku triplet the penchan reading reaches 50 fu, the ryanmen one 40.
    r = score("12345m789p555z66z", "3m", **NON_DEALER)
    assert yaku_ids(r) == {"yakuhai_haku"}
    assert (r.han, r.fu, r.ron) == (1, 50, 1600)


def test_ryanpeikou_beats_the_chiitoitsu_reading() -> None:
    r = score("223344m667788p5s", "5s", **NON_DEALER)
    assert yaku_ids(r) == {"ryanpeikou", "tanyao"}
    assert (r.han, r.fu, r.ron, r.limit) == (4, 40, 8000, "mangan")


def test_shanpon_ron_triplet_is_not_concealed() -> None:
    # Ron on 5s completes the 555s triplet: it counts as called, so no sanankou, and 2 fu.
    r = score("111m333p55s789s99m", "5s", riichi=True, **NON_DEALER)
    assert "sanankou" not in yaku_ids(r)
    assert (r.han, r.fu, r.ron) == (1, 50, 1600)
    # The same wait won by tsumo keeps three concealed triplets.
    r = score("111m333p55s789s99m", "5s", riichi=True, tsumo=True, **NON_DEALER)
    assert yaku_ids(r) == {"riichi", "menzen_tsumo", "sanankou"}
    assert (r.han, r.fu) == (4, 40)
    assert (r.tsumo_dealer, r.tsumo_non_dealer) == (4000, 2000)


def test_chankan_counts_as_a_yaku() -> None:
    r = score("23m567m345p678s55s", "4m", chankan=True, **NON_DEALER)
    assert yaku_ids(r) == {"chankan", "tanyao", "pinfu"}
    assert (r.han, r.fu, r.ron) == (3, 30, 3900)


def test_haitei_is_the_only_yaku_of_an_open_hand() -> None:
    r = score("456p789p22s34s", "5s", meld("chi", "123m"), tsumo=True, haitei=True, **NON_DEALER)
    assert yaku_ids(r) == {"haitei"}
    assert (r.han, r.fu) == (1, 30)
    assert (r.tsumo_dealer, r.tsumo_non_dealer) == (500, 300)


def test_open_pinfu_shape_ron_is_30_fu_and_needs_open_tanyao() -> None:
    hand = ("456p678s34s55p", "2s", meld("chi", "234m"))
    r = score(*hand, **NON_DEALER)
    assert yaku_ids(r) == {"tanyao"}
    assert (r.han, r.fu, r.ron) == (1, 30, 1000)
    assert evaluate(ctx(*hand, rules=TENHOU.with_(open_tanyao=False), **NON_DEALER)) is None


def test_chiitoitsu_is_25_fu() -> None:
    r = score("11m33m55p77p99s22z4z", "4z", **NON_DEALER)
    assert yaku_ids(r) == {"chiitoitsu"}
    assert (r.han, r.fu, r.ron) == (2, 25, 1600)


def test_double_wind_pair_is_4_fu_on_tenhou() -> None:
    hand = ("234m111p45s678s11z", "3s")
    r = score(*hand, riichi=True, seat_wind=EAST, round_wind=EAST)
    assert (r.han, r.fu, r.ron) == (1, 50, 2400)
    two = TENHOU.with_(double_wind_pair_fu=2)
    r = score(*hand, riichi=True, seat_wind=EAST, round_wind=EAST, rules=two)
    assert (r.fu, r.ron) == (40, 2000)


def test_four_han_thirty_fu_is_not_mangan_without_kiriage() -> None:
    hand = ("34m456p678s234s55p", "2m")
    # The indicator 1m makes 2m the dora.
    kw: dict[str, Any] = {"riichi": True, "dora_indicators": (0,), **NON_DEALER}
    r = score(*hand, **kw)
    assert yaku_ids(r) == {"riichi", "tanyao", "pinfu", "dora"}
    assert (r.han, r.fu, r.ron, r.limit) == (4, 30, 7700, "")
    r = score(*hand, rules=TENHOU.with_(kiriage_mangan=True), **kw)
    assert (r.ron, r.limit) == (8000, "mangan")


def test_kazoe_yakuman_and_its_sanbaiman_cap() -> None:
    hand = ("34567m234567m88m", "2m")
    r = score(*hand, riichi=True, tsumo=True, **NON_DEALER)
    assert yaku_ids(r) == {"riichi", "menzen_tsumo", "pinfu", "tanyao", "ryanpeikou", "chinitsu"}
    assert (r.han, r.yakuman, r.limit) == (13, 0, "kazoe_yakuman")
    assert (r.tsumo_dealer, r.tsumo_non_dealer) == (16000, 8000)
    capped = TENHOU.with_(kazoe_yakuman=False)
    r = score(*hand, riichi=True, tsumo=True, rules=capped, **NON_DEALER)
    assert (r.limit, r.tsumo_dealer, r.tsumo_non_dealer) == ("sanbaiman", 12000, 6000)


def test_different_yakuman_stack() -> None:
    r = score("777z111z2z", "2z", meld("pon", "555z"), meld("pon", "666z"), tsumo=True,
              **NON_DEALER)
    assert yaku_ids(r) == {"daisangen", "tsuuiisou"}
    assert (r.yakuman, r.limit, r.pao_yakuman) == (2, "double_yakuman", 1)
    assert (r.tsumo_dealer, r.tsumo_non_dealer) == (32000, 16000)


def test_single_yakuman_variants_on_tenhou_double_on_mahjong_soul() -> None:
    cases: list[tuple[tuple[str, str], dict[str, Any], str]] = [
        (("111m333p555s777s9m", "9m"), {}, "suuankou_tanki"),
        (("19m19p19s1234567z", "1m"), {}, "kokushi_13"),
        (("1112345678999p", "5p"), {}, "junsei_chuuren"),
    ]
    for (closed, win), kw, name in cases:
        t = score(closed, win, **NON_DEALER, **kw)
        m = score(closed, win, rules=MAHJONG_SOUL, **NON_DEALER, **kw)
        assert yaku_ids(t) == {name} == yaku_ids(m)
        assert (t.yakuman, t.ron) == (1, 32000)
        assert (m.yakuman, m.ron) == (2, 64000)
    winds = (meld("pon", "111z"), meld("pon", "222z"), meld("pon", "333z"))
    t = score("44z55z", "4z", *winds, tsumo=True, seat_wind=WEST, round_wind=EAST)
    m = score("44z55z", "4z", *winds, tsumo=True, seat_wind=WEST, round_wind=EAST,
              rules=MAHJONG_SOUL)
    assert yaku_ids(t) == {"daisuushii", "tsuuiisou"}
    assert (t.yakuman, m.yakuman) == (2, 3)


def test_plain_variants_stay_single() -> None:
    # Suuankou by tsumo on a shanpon; kokushi not on the 13-sided wait; chuuren on 1-sided.
    assert yaku_ids(score("111m333p555s77s99m", "7s", tsumo=True, **NON_DEALER)) == {"suuankou"}
    assert yaku_ids(score("119m19p19s123456z", "7z", **NON_DEALER)) == {"kokushi"}
    r = score("1112345678999p", "9p", rules=MAHJONG_SOUL, **NON_DEALER)
    assert yaku_ids(r) == {"junsei_chuuren"}
    r = score("1112235678999p", "4p", rules=MAHJONG_SOUL, **NON_DEALER)
    assert (yaku_ids(r), r.yakuman) == ({"chuuren"}, 1)


def test_dora_need_a_yaku_and_are_separate_entries() -> None:
    # Open hand without yaku: three dora do not make it a win.
    no_yaku = ctx("456p789p22s34s", "5s", meld("chi", "123m"), dora_indicators=(8,),
                  **NON_DEALER)
    assert evaluate(no_yaku) is None
    # 4m0m6m 789m 345p 22s 678s: dora 4m (indicator 3m), the red 5m, ura 2s twice (indicator 1s).
    hand = ("0m6m789m345p22s678s", "4m")
    r = score(*hand, riichi=True, dora_indicators=(2,), ura_indicators=(18,), **NON_DEALER)
    assert r.yaku == (("riichi", 1), ("pinfu", 1), ("dora", 1), ("aka_dora", 1), ("ura_dora", 2))
    assert (r.han, r.limit, r.ron) == (6, "haneman", 12000)
    # Without riichi the ura indicators are not looked at.
    r = score(*hand, dora_indicators=(2,), ura_indicators=(18,), **NON_DEALER)
    assert r.yaku == (("pinfu", 1), ("dora", 1), ("aka_dora", 1))
    assert (r.han, r.fu, r.ron) == (3, 30, 3900)


def test_dealer_hands() -> None:
    # The dealer's East pair earns fu and spoils pinfu: 1 han 30 fu tsumo, 500 from each.
    r = score("123m456p789s11z34s", "5s", tsumo=True, seat_wind=EAST, round_wind=SOUTH)
    assert yaku_ids(r) == {"menzen_tsumo"}
    assert (r.han, r.fu, r.tsumo_dealer, r.tsumo_non_dealer, r.total) == (1, 30, 0, 500, 1500)
    r = score("34m345p345s678s66p", "2m", riichi=True, seat_wind=EAST, round_wind=SOUTH)
    assert yaku_ids(r) == {"riichi", "pinfu", "tanyao"}
    assert (r.han, r.fu, r.ron) == (3, 30, 5800)

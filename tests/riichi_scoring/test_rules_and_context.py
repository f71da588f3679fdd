"""Presets, rule validation, and the errors a bad win context raises."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.rules.riichi import (
    MAHJONG_SOUL,
    PRESETS,
    TENHOU,
    TENHOU_SANMA,
    Meld,
    RiichiRules,
    ScoringError,
    WinContext,
    evaluate,
    preset,
)
from tenpai.rules.riichi.scoring import base_points
from tenpai.rules.riichi.yaku import ALL_YAKU

from .riichi_helpers import ctx, meld


def test_presets_by_name_and_their_differences() -> None:
    assert PRESETS == {"tenhou": TENHOU, "mahjong_soul": MAHJONG_SOUL,
                       "tenhou_sanma": TENHOU_SANMA}
    assert preset("tenhou") is TENHOU
    with pytest.raises(KeyError, match="known"):
        preset("ema")
    differing = {
        name for name in RiichiRules.__dataclass_fields__
        if getattr(TENHOU, name) != getattr(MAHJONG_SOUL, name)
    }
    assert differing == {"name", "double_yakuman_variants", "triple_ron_abort",
                         "kokushi_robs_ankan", "pao_scope"}
    assert TENHOU.red_fives == 3 and TENHOU.open_tanyao and not TENHOU.kiriage_mangan
    assert TENHOU.length == "hanchan" and TENHOU.target_points == 30_000


def test_rules_validate_their_values() -> None:
    with pytest.raises(ValueError, match="players"):
        RiichiRules(players=5)
    with pytest.raises(ValueError, match="red_fives"):
        RiichiRules(red_fives=4)


def test_sanma_is_not_silently_scored_as_four_players() -> None:
    # 2m-8m are not in the three-player set: such a hand is refused, not scored
    with pytest.raises(ScoringError, match="removes"):
        ctx("234789m1234566p", "6p", riichi=True, rules=TENHOU_SANMA)
    with pytest.raises(ValueError, match="red_fives"):
        TENHOU.with_(players=3)


def test_every_yaku_has_its_declarations() -> None:
    ids = [y.id for y in ALL_YAKU]
    assert len(ids) == len(set(ids))
    for y in ALL_YAKU:
        assert y.name_ja and y.han_closed > 0
        assert y.han_open is None or y.han_open <= y.han_closed
        assert y.yakuman == (y.han_closed == 13)


def test_base_points_limits() -> None:
    assert base_points(1, 30, 0, TENHOU) == (240, "")
    assert base_points(3, 70, 0, TENHOU) == (2000, "mangan")
    assert base_points(5, 30, 0, TENHOU) == (2000, "mangan")
    assert base_points(7, 30, 0, TENHOU) == (3000, "haneman")
    assert base_points(10, 30, 0, TENHOU) == (4000, "baiman")
    assert base_points(12, 30, 0, TENHOU) == (6000, "sanbaiman")
    assert base_points(26, 30, 0, TENHOU) == (8000, "kazoe_yakuman")
    assert base_points(39, 0, 3, TENHOU) == (24000, "triple_yakuman")
    assert base_points(3, 60, 0, TENHOU.with_(kiriage_mangan=True)) == (2000, "mangan")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ctx("234789m123456p", "6p"), "needs 14"),
        (lambda: WinContext(closed=tuple(T.parse("234789m12345666p")), win_tile=T.parse("1s")[0]),
         "win_tile"),
        (lambda: ctx("1111m789m123456p", "1m"), "copies"),
        (lambda: ctx("456p789p22s34s", "5s", meld("chi", "123m"), riichi=True), "open meld"),
        (lambda: ctx("234789m1234566p", "6p", ippatsu=True), "ippatsu"),
        (lambda: ctx("234789m1234566p", "6p", rinshan=True, tsumo=True), "rinshan without"),
        (lambda: ctx("234789m1234566p", "6p", haitei=True), "haitei"),
        (lambda: ctx("234789m1234566p", "6p", chankan=True, tsumo=True), "ron"),
        (lambda: ctx("234789m1234566p", "6p", tenhou=True, tsumo=True, seat_wind=28), "dealer"),
        (lambda: ctx("234789m1234566p", "6p", seat_wind=5), "wind"),
        (lambda: ctx("234789m1234066p", "6p", rules=TENHOU.with_(red_fives=0)), "red five"),
    ],
)
def test_impossible_contexts_are_refused(make: object, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        make()  # type: ignore[operator]


def test_bad_melds_are_refused() -> None:
    with pytest.raises(ScoringError, match="not a chi"):
        Meld("chi", tuple(T.parse("135m")), 3)
    with pytest.raises(ScoringError, match="not a chi"):
        Meld("chi", tuple(T.parse("891m")), 3)
    with pytest.raises(ScoringError, match="needs 4"):
        Meld("daiminkan", tuple(T.parse("111m")), 3)
    with pytest.raises(ScoringError, match="not a pon"):
        Meld("pon", tuple(T.parse("112m")), 3)
    with pytest.raises(ScoringError, match="ankan"):
        Meld("ankan", tuple(T.parse("1111m")), 3)
    assert Meld("chi", tuple(T.parse("406m")), 3).base == 3


def test_not_a_winning_shape_is_none() -> None:
    assert evaluate(ctx("1234789m123456p", "9s", riichi=True)) is None

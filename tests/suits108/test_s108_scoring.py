"""Table A1 combinations, one test per combination, their products, and the settlement."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.rules.suits108 import (
    PAPER,
    TABLE_A1_LITERAL,
    Multipliers,
    NotAWinError,
    RulesError,
    Suits108Rules,
    WinningHand,
    WinValue,
    evaluate,
    win_payments,
)


def _value(
    tiles: str,
    melds: tuple[Meld, ...] = (),
    *,
    declared: bool = False,
    rules: Suits108Rules = PAPER,
) -> WinValue:
    return evaluate(WinningHand.from_tiles(T.parse(tiles), melds, declared=declared), rules)


def _pon(tiles: str, target: int = 1) -> Meld:
    t = T.parse(tiles)
    return Meld("pon", tuple(t), t[0], target)


def _chi(tiles: str, target: int = 3) -> Meld:
    t = T.parse(tiles)
    return Meld("chi", tuple(t), t[0], target)


def test_normal_hand_is_multiplier_one() -> None:
    v = _value("123m456m789p234s55s")
    assert v.combinations == (("normal", 1),)
    assert v.multiplier == 1 and v.points == 1000


def test_normal_hand_with_melds() -> None:
    v = _value("456m789p55s", (_chi("123s"), _pon("999p")))
    assert v.combinations == (("normal", 1),)


def test_bump_series_all_pungs() -> None:
    assert _value("111m444p777s999s22m").combinations == (("bump_series", 2),)


def test_bump_series_counts_called_pungs_and_kongs() -> None:
    kong = Meld("ankan", tuple(T.parse("3333p")))
    v = _value("777s999s22m", (_pon("111m"), kong))
    assert v.combinations == (("bump_series", 2),)
    assert v.multiplier == 2


def test_a_chow_meld_rules_out_bump_series() -> None:
    v = _value("777s999s22m", (_pon("111m"), _chi("345p")))
    assert v.combinations == (("normal", 1),)


def test_three_identical_runs_read_as_pungs_take_the_better_shape() -> None:
    # 111222333m can be three chows or three pungs: the bump reading counts.
    assert _value("111222333m777s55p").combinations == (("bump_series", 2),)


def test_pure_series_multiplies_the_normal_shape() -> None:
    v = _value("123m234m456m789m55m")
    assert v.combinations == (("normal", 1), ("pure_series", 4))
    assert v.multiplier == 4


def test_pure_series_with_melds_in_the_same_suit() -> None:
    v = _value("456p789p55p", (_chi("123p"), _pon("999p")))
    assert v.multiplier == 4


def test_a_meld_in_another_suit_breaks_pure_series() -> None:
    assert _value("456p789p55p", (_chi("123p"), _pon("999s"))).multiplier == 1


def test_pure_bump_series_is_eight() -> None:
    v = _value("111m333m555m777m99m")
    assert v.combinations == (("bump_series", 2), ("pure_series", 4))
    assert v.multiplier == 8


def test_seven_pairs() -> None:
    v = _value("1122m3344p5566s77s")
    assert v.combinations == (("seven_pairs", 4),)


def test_seven_pairs_beats_a_normal_reading_of_the_same_tiles() -> None:
    assert _value("112233m445566p77s").combinations == (("seven_pairs", 4),)


def test_seven_pairs_with_a_quad_counts_when_allowed() -> None:
    assert _value("1111m2233p4455s66s").multiplier == 4
    strict = PAPER.with_(seven_pairs_allow_quads=False)
    with pytest.raises(NotAWinError):
        _value("1111m2233p4455s66s", rules=strict)


def test_pure_seven_pairs_is_sixteen() -> None:
    v = _value("11223344556677m")
    assert v.combinations == (("seven_pairs", 4), ("pure_series", 4))
    assert v.multiplier == 16


def test_ready_declaration_doubles_the_hand() -> None:
    v = _value("123m456m789p234s55s", declared=True)
    assert v.combinations == (("normal", 1), ("ready", 2))
    assert _value("111m333m555m777m99m", declared=True).multiplier == 16


def test_literal_table_a1_reading() -> None:
    r = TABLE_A1_LITERAL
    assert _value("123m456m789p234s55s", rules=r).multiplier == 6
    assert _value("111m444p777s999s22m", rules=r).multiplier == 8
    assert _value("1122m3344p5566s77s", rules=r).multiplier == 12
    assert _value("123m234m456m789m55m", rules=r).multiplier == 12
    assert _value("11223344556677m", rules=r).multiplier == 24


def test_multipliers_are_a_setting() -> None:
    rules = PAPER.with_(
        multipliers=Multipliers(normal=3, bump_series=5, pure_series=7), base_points=10
    )
    assert _value("123m456m789p234s55s", rules=rules).points == 30
    assert _value("111m333m555m777m99m", rules=rules).points == 5 * 7 * 10
    with pytest.raises(RulesError, match="bump_series"):
        Multipliers(bump_series=0)


def test_not_a_win_is_refused() -> None:
    with pytest.raises(NotAWinError, match="not a winning hand"):
        _value("123m456m789p234s56s")
    with pytest.raises(NotAWinError, match="not 14"):
        _value("123m456m789p234s5s")
    with pytest.raises(NotAWinError, match="honour"):
        _value("123m456m789p234s11z")


def test_self_draw_every_opponent_pays() -> None:
    assert win_payments(2, None, 1000, PAPER) == (-1000, -1000, 3000, -1000)


def test_discard_win_the_discarder_pays() -> None:
    assert win_payments(2, 0, 4000, PAPER) == (-4000, 0, 4000, 0)


def test_discarder_pays_for_all_option() -> None:
    rules = PAPER.with_(discard_payment="discarder_pays_all")
    assert win_payments(1, 3, 1000, rules) == (0, 3000, 0, -3000)
    with pytest.raises(RulesError, match="discard_payment"):
        PAPER.with_(discard_payment="everyone")


def test_payments_refuse_bad_seats() -> None:
    with pytest.raises(ValueError, match="payer"):
        win_payments(1, 1, 1000, PAPER)


def test_the_largest_paper_hand_is_thirty_two() -> None:
    v = _value("11223344556677m", declared=True)
    assert v.multiplier == 32
    assert win_payments(0, None, v.points, PAPER) == (96000, -32000, -32000, -32000)

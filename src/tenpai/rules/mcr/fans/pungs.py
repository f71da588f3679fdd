"""Pung and kong fans: kongs, concealed pungs, pung combinations, 碰碰和 and 幺九刻."""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import STANDARD_KNITTED, Fan, register
from tenpai.rules.mcr.patterns import WHITE
from tenpai.rules.mcr.shapes import HandView

__all__ = [
    "AllPungs",
    "ConcealedKong",
    "DoublePung",
    "FourConcealedPungs",
    "FourKongs",
    "FourPureShiftedPungs",
    "MeldedKong",
    "MixedShiftedPungs",
    "PungOfTerminalsOrHonors",
    "PureShiftedPungs",
    "ThreeConcealedPungs",
    "ThreeKongs",
    "TriplePung",
    "TwoConcealedKongs",
    "TwoConcealedPungs",
    "TwoMeldedKongs",
]

_KONG_FANS = frozenset({53, 57, 67, 74})  # 双暗杠 双明杠 暗杠 明杠


class _ComboFan(Fan):
    @classmethod
    def count(cls, v: HandView) -> int:
        return v.combos.get(cls.number, 0)

    gate = "combos"


@register
class FourKongs(Fan):
    number, zh, en, points = 5, "四杠", "Four Kongs", 88
    excludes = _KONG_FANS | {17, 48, 79}  # 三杠 碰碰和 单钓将

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.kongs == 4)


@register
class FourConcealedPungs(Fan):
    """Four concealed pungs or kongs; a self-drawn one scores 自摸 but not 不求人."""

    number, zh, en, points = 12, "四暗刻", "Four Concealed Pungs", 64
    excludes = frozenset({48, 56, 62})  # 碰碰和 不求人 门前清

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.concealed_pungs == 4)


@register
class FourPureShiftedPungs(_ComboFan):
    number, zh, en, points = 15, "一色四节高", "Four Pure Shifted Pungs", 48
    excludes = frozenset({23, 24, 48})  # 一色三同顺 一色三节高 碰碰和


@register
class ThreeKongs(Fan):
    number, zh, en, points = 17, "三杠", "Three Kongs", 32
    excludes = _KONG_FANS

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.kongs == 3)


@register
class PureShiftedPungs(_ComboFan):
    number, zh, en, points = 24, "一色三节高", "Pure Shifted Pungs", 24


@register
class TriplePung(_ComboFan):
    number, zh, en, points = 32, "三同刻", "Triple Pung", 16


@register
class ThreeConcealedPungs(Fan):
    number, zh, en, points = 33, "三暗刻", "Three Concealed Pungs", 16

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.concealed_pungs == 3)


@register
class MixedShiftedPungs(_ComboFan):
    number, zh, en, points = 42, "三色三节高", "Mixed Shifted Pungs", 8


@register
class AllPungs(Fan):
    number, zh, en, points = 48, "碰碰和", "All Pungs", 6

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(len(v.pungs) == 4)


@register
class TwoConcealedKongs(Fan):
    number, zh, en, points = 53, "双暗杠", "Two Concealed Kongs", 6
    excludes = frozenset({66, 67})  # 双暗刻 暗杠

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.concealed_kongs >= 2)


@register
class TwoMeldedKongs(Fan):
    number, zh, en, points = 57, "双明杠", "Two Melded Kongs", 4
    excludes = frozenset({74})  # 明杠

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.melded_kongs >= 2)


@register
class DoublePung(_ComboFan):
    number, zh, en, points = 65, "双同刻", "Double Pung", 2


@register
class TwoConcealedPungs(Fan):
    number, zh, en, points = 66, "双暗刻", "Two Concealed Pungs", 2

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.concealed_pungs == 2)


@register
class ConcealedKong(Fan):
    number, zh, en, points = 67, "暗杠", "Concealed Kong", 2
    shapes = STANDARD_KNITTED

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.concealed_kongs >= 1)


@register
class PungOfTerminalsOrHonors(Fan):
    """Each pung of terminals or winds not already scored as 圈风刻, 门风刻 or 三风刻.

    九莲宝灯 needs one terminal pung for itself, so it leaves one fewer.
    """

    number, zh, en, points = 73, "幺九刻", "Pung of Terminals or Honors", 1
    shapes = STANDARD_KNITTED

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        ctx = v.ctx
        special = {27 + ctx.prevalent_wind, 27 + ctx.seat_wind}
        three_winds = 38 in v.combos
        n = 0
        for p in v.pungs:
            if p < 27:
                n += p % 9 in (0, 8)
            elif p < WHITE and not three_winds and p not in special:
                n += 1
        return max(0, n - v.nine_gates)


@register
class MeldedKong(Fan):
    number, zh, en, points = 74, "明杠", "Melded Kong", 1
    shapes = STANDARD_KNITTED

    gate = "kongs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.melded_kongs >= 1)

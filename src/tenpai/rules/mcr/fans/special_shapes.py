"""Fans that are a whole hand shape: 九莲宝灯, 连七对, 十三幺, 七对, 七星不靠, 全不靠, 组合龙."""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import Fan, register
from tenpai.rules.mcr.shapes import HandView, Shape

__all__ = [
    "GreaterHonorsAndKnittedTiles",
    "KnittedStraight",
    "LesserHonorsAndKnittedTiles",
    "NineGates",
    "SevenPairs",
    "SevenShiftedPairs",
    "ThirteenOrphans",
]

# Numbers of the fans the shapes absorb.
_CONCEALED = frozenset({56, 62})  # 不求人, 门前清
_SINGLE_WAIT = 79


@register
class NineGates(Fan):
    """1112345678999 of one suit, concealed, winning on any tile of that suit.

    Also drops one 幺九刻 (the 111 or 999 the shape needs); see :class:`PungOfTerminalsOrHonors`.
    """

    number, zh, en, points = 4, "九莲宝灯", "Nine Gates", 88
    excludes = _CONCEALED | {22, 75, 76}  # 清一色, 缺一门, 无字

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.nine_gates)


@register
class SevenShiftedPairs(Fan):
    """Seven pairs of consecutive tiles in one suit."""

    number, zh, en, points = 6, "连七对", "Seven Shifted Pairs", 88
    excludes = _CONCEALED | {19, 22, 75, 76, _SINGLE_WAIT}  # 七对, 清一色, 缺一门, 无字
    shapes = frozenset({Shape.SHIFTED_PAIRS})

    @staticmethod
    def count(v: HandView) -> int:
        return 1


@register
class ThirteenOrphans(Fan):
    """One of each terminal and honour, plus a second copy of one of them."""

    number, zh, en, points = 7, "十三幺", "Thirteen Orphans", 88
    excludes = _CONCEALED | {51, _SINGLE_WAIT}  # 五门齐
    shapes = frozenset({Shape.ORPHANS})

    @staticmethod
    def count(v: HandView) -> int:
        return 1


@register
class SevenPairs(Fan):
    """Seven pairs; four of a kind in the hand counts as two pairs."""

    number, zh, en, points = 19, "七对", "Seven Pairs", 24
    excludes = _CONCEALED | {_SINGLE_WAIT}
    shapes = frozenset({Shape.SEVEN_PAIRS})

    @staticmethod
    def count(v: HandView) -> int:
        return 1


@register
class GreaterHonorsAndKnittedTiles(Fan):
    """All seven honours plus seven single tiles of a knitted straight."""

    number, zh, en, points = 20, "七星不靠", "Greater Honors and Knitted Tiles", 24
    excludes = _CONCEALED | {34, 51, _SINGLE_WAIT}  # 全不靠, 五门齐
    shapes = frozenset({Shape.HONORS_KNITTED})

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.honors == 7)


@register
class LesserHonorsAndKnittedTiles(Fan):
    """Fourteen single tiles: honours plus tiles of one knitted straight."""

    number, zh, en, points = 34, "全不靠", "Lesser Honors and Knitted Tiles", 12
    excludes = _CONCEALED | {51, _SINGLE_WAIT}  # 五门齐
    shapes = frozenset({Shape.HONORS_KNITTED})

    @staticmethod
    def count(v: HandView) -> int:
        return 1


@register
class KnittedStraight(Fan):
    """147 in one suit, 258 in another, 369 in the third (also inside 全不靠)."""

    number, zh, en, points = 35, "组合龙", "Knitted Straight", 12
    shapes = frozenset({Shape.KNITTED_STRAIGHT, Shape.HONORS_KNITTED})

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.knitted)

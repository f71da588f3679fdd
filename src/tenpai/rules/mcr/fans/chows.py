"""Chow fans, from 一色双龙会 down to 老少副, plus 平和.

The combination work (which chows form which pattern, 套算一次) lives in
:func:`tenpai.rules.mcr.patterns.chow_patterns`; each class here reads its own count from it.
"""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import STANDARD_KNITTED, Fan, register
from tenpai.rules.mcr.shapes import HandView

__all__ = [
    "AllChows",
    "FourPureShiftedChows",
    "MixedDoubleChow",
    "MixedShiftedChows",
    "MixedStraight",
    "MixedTripleChow",
    "PureDoubleChow",
    "PureShiftedChows",
    "PureStraight",
    "PureTerminalChows",
    "PureTripleChow",
    "QuadrupleChow",
    "ShortStraight",
    "ThreeSuitedTerminalChows",
    "TwoTerminalChows",
]


class _ComboFan(Fan):
    """A fan whose count is the combination table's entry for its number."""

    @classmethod
    def count(cls, v: HandView) -> int:
        return v.combos.get(cls.number, 0)

    gate = "combos"


@register
class PureTerminalChows(_ComboFan):
    """123 123 789 789 of one suit with a pair of fives of that suit."""

    number, zh, en, points = 13, "一色双龙会", "Pure Terminal Chows", 64
    excludes = frozenset({19, 22, 63, 69, 72, 75, 76})  # 七对 清一色 平和 一般高 老少副 缺一门 无字


@register
class QuadrupleChow(_ComboFan):
    number, zh, en, points = 14, "一色四同顺", "Quadruple Chow", 48
    excludes = frozenset({23, 24, 64, 69})  # 一色三同顺 一色三节高 四归一 一般高


@register
class FourPureShiftedChows(_ComboFan):
    """Four chows of one suit, each one or each two above the last."""

    number, zh, en, points = 16, "一色四步高", "Four Pure Shifted Chows", 32
    excludes = frozenset({30, 71, 72})  # 一色三步高 连六 老少副


@register
class PureTripleChow(_ComboFan):
    number, zh, en, points = 23, "一色三同顺", "Pure Triple Chow", 24
    excludes = frozenset({24, 69})  # 一色三节高 一般高


@register
class PureStraight(_ComboFan):
    number, zh, en, points = 28, "清龙", "Pure Straight", 16
    excludes = frozenset({71, 72})  # 连六 老少副


@register
class ThreeSuitedTerminalChows(_ComboFan):
    """123 and 789 in two suits with a pair of fives of the third."""

    number, zh, en, points = 29, "三色双龙会", "Three-Suited Terminal Chows", 16
    excludes = frozenset({63, 70, 72, 76})  # 平和 喜相逢 老少副 无字


@register
class PureShiftedChows(_ComboFan):
    number, zh, en, points = 30, "一色三步高", "Pure Shifted Chows", 16


@register
class MixedStraight(_ComboFan):
    number, zh, en, points = 39, "花龙", "Mixed Straight", 8


@register
class MixedTripleChow(_ComboFan):
    number, zh, en, points = 41, "三色三同顺", "Mixed Triple Chow", 8
    excludes = frozenset({70})  # 喜相逢


@register
class MixedShiftedChows(_ComboFan):
    number, zh, en, points = 50, "三色三步高", "Mixed Shifted Chows", 6


@register
class AllChows(Fan):
    """Only chows and a pair of a suit tile (in 组合龙 hands: the fourth set is a chow)."""

    number, zh, en, points = 63, "平和", "All Chows", 2
    excludes = frozenset({76})  # 无字
    shapes = STANDARD_KNITTED

    @staticmethod
    def count(v: HandView) -> int:
        return int(not v.pungs and 0 <= v.pair < 27)


@register
class PureDoubleChow(_ComboFan):
    number, zh, en, points = 69, "一般高", "Pure Double Chow", 1


@register
class MixedDoubleChow(_ComboFan):
    number, zh, en, points = 70, "喜相逢", "Mixed Double Chow", 1


@register
class ShortStraight(_ComboFan):
    number, zh, en, points = 71, "连六", "Short Straight", 1


@register
class TwoTerminalChows(_ComboFan):
    number, zh, en, points = 72, "老少副", "Two Terminal Chows", 1

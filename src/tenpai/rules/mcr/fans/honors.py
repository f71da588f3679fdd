"""Wind and dragon fans.

大四喜, 大三元, 小四喜, 小三元, 字一色, 三风刻, 双箭刻, 箭刻, 圈风刻, 门风刻.
"""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import STANDARD_KNITTED, Fan, register
from tenpai.rules.mcr.patterns import WHITE
from tenpai.rules.mcr.shapes import HandView, Shape

__all__ = [
    "AllHonors",
    "BigFourWinds",
    "BigThreeDragons",
    "BigThreeWinds",
    "DragonPung",
    "LittleFourWinds",
    "LittleThreeDragons",
    "PrevalentWind",
    "SeatWind",
    "TwoDragonPungs",
]


def _is_wind(kind: int) -> bool:
    return 27 <= kind <= 30


@register
class BigFourWinds(Fan):
    number, zh, en, points = 1, "大四喜", "Big Four Winds", 88
    excludes = frozenset({38, 48, 60, 61, 73})  # 三风刻 碰碰和 圈风刻 门风刻 幺九刻

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return v.combos.get(1, 0)


@register
class BigThreeDragons(Fan):
    number, zh, en, points = 2, "大三元", "Big Three Dragons", 88
    excludes = frozenset({54, 59})  # 双箭刻 箭刻

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return v.combos.get(2, 0)


@register
class LittleFourWinds(Fan):
    """Three wind pungs and a pair of the fourth wind."""

    number, zh, en, points = 9, "小四喜", "Little Four Winds", 64
    excludes = frozenset({38, 73})  # 三风刻 幺九刻

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return int(38 in v.combos and _is_wind(v.pair))


@register
class LittleThreeDragons(Fan):
    """Two dragon pungs and a pair of the third dragon."""

    number, zh, en, points = 10, "小三元", "Little Three Dragons", 64
    excludes = frozenset({54, 59})  # 双箭刻 箭刻

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return int(54 in v.combos and v.pair >= WHITE)


@register
class AllHonors(Fan):
    number, zh, en, points = 11, "字一色", "All Honors", 64
    excludes = frozenset({18, 48, 55, 73, 75})  # 混幺九 碰碰和 全带幺 幺九刻 缺一门
    shapes = frozenset({Shape.STANDARD, Shape.SEVEN_PAIRS})

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.all_honors)


@register
class BigThreeWinds(Fan):
    """Three wind pungs; they are not counted again as 幺九刻."""

    number, zh, en, points = 38, "三风刻", "Big Three Winds", 12

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return v.combos.get(38, 0)


@register
class TwoDragonPungs(Fan):
    number, zh, en, points = 54, "双箭刻", "Two Dragon Pungs", 6
    excludes = frozenset({59})  # 箭刻

    gate = "combos"

    @staticmethod
    def count(v: HandView) -> int:
        return v.combos.get(54, 0)


@register
class DragonPung(Fan):
    number, zh, en, points = 59, "箭刻", "Dragon Pung", 2
    shapes = STANDARD_KNITTED

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return sum(1 for p in v.pungs if p >= WHITE)


@register
class PrevalentWind(Fan):
    """A pung of the round's wind (it is not also a 幺九刻)."""

    number, zh, en, points = 60, "圈风刻", "Prevalent Wind", 2
    shapes = STANDARD_KNITTED

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(27 + v.ctx.prevalent_wind in v.pungs)


@register
class SeatWind(Fan):
    """A pung of the player's own wind (it is not also a 幺九刻)."""

    number, zh, en, points = 61, "门风刻", "Seat Wind", 2
    shapes = STANDARD_KNITTED

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        return int(27 + v.ctx.seat_wind in v.pungs)


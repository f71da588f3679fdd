"""Fans about which tiles the hand holds: suits, ranks, terminals, colours and set contents."""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import STANDARD, TILE_SHAPES, TRAIT_SHAPES, Fan, register
from tenpai.rules.mcr.shapes import HandView, Shape

__all__ = [
    "AllEvenPungs",
    "AllFives",
    "AllGreen",
    "AllSimples",
    "AllTerminals",
    "AllTerminalsAndHonors",
    "AllTypes",
    "FullFlush",
    "HalfFlush",
    "LowerFour",
    "LowerTiles",
    "MiddleTiles",
    "NoHonors",
    "OneVoidedSuit",
    "OutsideHand",
    "ReversibleTiles",
    "TileHog",
    "UpperFour",
    "UpperTiles",
]

_PAIRS_TOO = frozenset({Shape.STANDARD, Shape.SEVEN_PAIRS})
_NO_HONORS = 76


def _ranks_within(v: HandView, allowed: range) -> bool:
    """Only numbered tiles, all of ranks ``allowed`` (a step-1 range of ranks 1-9)."""
    bits = v.facts.rank_bits
    mask = (1 << allowed.stop) - (1 << allowed.start)
    return bool(bits) and not bits & ~mask


@register
class AllGreen(Fan):
    """Only 23468 of bamboo and 发."""

    number, zh, en, points = 3, "绿一色", "All Green", 88
    excludes = frozenset({49, 75})  # 混一色 缺一门
    shapes = TRAIT_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.all_green)


@register
class AllTerminals(Fan):
    number, zh, en, points = 8, "清幺九", "All Terminals", 64
    excludes = frozenset({18, 48, 55, 65, 73, _NO_HONORS})  # 混幺九 碰碰和 全带幺 双同刻 幺九刻
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.all_terminals)


@register
class AllTerminalsAndHonors(Fan):
    number, zh, en, points = 18, "混幺九", "All Terminals and Honors", 32
    excludes = frozenset({48, 55, 73})  # 碰碰和 全带幺 幺九刻
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.all_terminals_or_honors)


@register
class AllEvenPungs(Fan):
    """Pungs and a pair of 2, 4, 6 or 8 only."""

    number, zh, en, points = 21, "全双刻", "All Even Pungs", 24
    excludes = frozenset({48, 68, _NO_HONORS})  # 碰碰和 断幺

    gate = "pungs"

    @staticmethod
    def count(v: HandView) -> int:
        sets = (*v.pungs, v.pair)
        return int(len(v.pungs) == 4 and all(k < 27 and k % 9 in (1, 3, 5, 7) for k in sets))


@register
class FullFlush(Fan):
    number, zh, en, points = 22, "清一色", "Full Flush", 24
    excludes = frozenset({75, _NO_HONORS})  # 缺一门
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        f = v.facts
        return int(len(f.suits) == 1 and not f.has_winds and not f.has_dragons)


@register
class UpperTiles(Fan):
    number, zh, en, points = 25, "全大", "Upper Tiles", 24
    excludes = frozenset({36, _NO_HONORS})  # 大于五
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(_ranks_within(v, range(7, 10)))


@register
class MiddleTiles(Fan):
    number, zh, en, points = 26, "全中", "Middle Tiles", 24
    excludes = frozenset({68, _NO_HONORS})  # 断幺
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(_ranks_within(v, range(4, 7)))


@register
class LowerTiles(Fan):
    number, zh, en, points = 27, "全小", "Lower Tiles", 24
    excludes = frozenset({37, _NO_HONORS})  # 小于五
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(_ranks_within(v, range(1, 4)))


@register
class AllFives(Fan):
    """Every set and the pair hold a 5."""

    number, zh, en, points = 31, "全带五", "All Fives", 16
    excludes = frozenset({68, _NO_HONORS})  # 断幺

    @staticmethod
    def count(v: HandView) -> int:
        if not (0 <= v.pair < 27 and v.pair % 9 == 4):
            return 0
        return int(all(c % 9 in (2, 3, 4) for c in v.chows)
                   and all(p < 27 and p % 9 == 4 for p in v.pungs))


@register
class UpperFour(Fan):
    number, zh, en, points = 36, "大于五", "Upper Four", 12
    excludes = frozenset({_NO_HONORS})
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(_ranks_within(v, range(6, 10)))


@register
class LowerFour(Fan):
    number, zh, en, points = 37, "小于五", "Lower Four", 12
    excludes = frozenset({_NO_HONORS})
    shapes = _PAIRS_TOO

    @staticmethod
    def count(v: HandView) -> int:
        return int(_ranks_within(v, range(1, 5)))


@register
class ReversibleTiles(Fan):
    """Tiles that look the same upside down: 1234589 dots, 245689 bamboo, 白."""

    number, zh, en, points = 40, "推不倒", "Reversible Tiles", 8
    excludes = frozenset({75})  # 缺一门
    shapes = TRAIT_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.reversible)


@register
class HalfFlush(Fan):
    number, zh, en, points = 49, "混一色", "Half Flush", 6
    excludes = frozenset({75})  # 缺一门
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        f = v.facts
        return int(len(f.suits) == 1 and (f.has_winds or f.has_dragons))


@register
class AllTypes(Fan):
    """Characters, bamboo, dots, winds and dragons all present."""

    number, zh, en, points = 51, "五门齐", "All Types", 6
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        f = v.facts
        return int(len(f.suits) == 3 and f.has_winds and f.has_dragons)


@register
class OutsideHand(Fan):
    """Every set and the pair hold a terminal or an honour."""

    number, zh, en, points = 55, "全带幺", "Outside Hand", 4
    shapes = STANDARD

    @staticmethod
    def count(v: HandView) -> int:
        if not (v.pair >= 27 or v.pair % 9 in (0, 8)):
            return 0
        return int(all(c % 9 in (0, 6) for c in v.chows)
                   and all(p >= 27 or p % 9 in (0, 8) for p in v.pungs))


@register
class TileHog(Fan):
    """All four copies of a kind used without declaring them as a kong."""

    number, zh, en, points = 64, "四归一", "Tile Hog", 2
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return max(0, v.facts.quads - v.kongs)


@register
class AllSimples(Fan):
    number, zh, en, points = 68, "断幺", "All Simples", 2
    excludes = frozenset({_NO_HONORS})
    shapes = TRAIT_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.facts.all_simples)


@register
class OneVoidedSuit(Fan):
    number, zh, en, points = 75, "缺一门", "One Voided Suit", 1
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(len(v.facts.suits) == 2)


@register
class NoHonors(Fan):
    number, zh, en, points = 76, "无字", "No Honors", 1
    shapes = TILE_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        f = v.facts
        return int(not f.has_winds and not f.has_dragons)

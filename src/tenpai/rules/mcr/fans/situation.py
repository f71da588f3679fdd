"""Fans about how the hand was won: wall end, kongs, concealment, waits, self-draw, flowers."""

from __future__ import annotations

from tenpai.rules.mcr.fans.base import ALL_SHAPES, STANDARD_KNITTED, Fan, register
from tenpai.rules.mcr.shapes import CLOSED, EDGE, SINGLE, HandView

__all__ = [
    "ChickenHand",
    "ClosedWait",
    "ConcealedHand",
    "EdgeWait",
    "FlowerTiles",
    "FullyConcealedHand",
    "LastTile",
    "LastTileClaim",
    "LastTileDraw",
    "MeldedHand",
    "OutWithReplacementTile",
    "RobbingTheKong",
    "SelfDrawn",
    "SingleWait",
]

_SELF_DRAWN = 80


@register
class ChickenHand(Fan):
    """No other fan at all (flowers aside); the evaluator awards it, so the predicate is 0."""

    number, zh, en, points = 43, "无番和", "Chicken Hand", 8
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return 0


@register
class LastTileDraw(Fan):
    number, zh, en, points = 44, "妙手回春", "Last Tile Draw", 8
    excludes = frozenset({_SELF_DRAWN})
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.last_tile and v.ctx.self_drawn)


@register
class LastTileClaim(Fan):
    number, zh, en, points = 45, "海底捞月", "Last Tile Claim", 8
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.last_tile and not v.ctx.self_drawn)


@register
class OutWithReplacementTile(Fan):
    number, zh, en, points = 46, "杠上开花", "Out with Replacement Tile", 8
    excludes = frozenset({_SELF_DRAWN})
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.kong_replacement)


@register
class RobbingTheKong(Fan):
    number, zh, en, points = 47, "抢杠和", "Robbing the Kong", 8
    excludes = frozenset({58})  # 和绝张
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.robbing_kong)


@register
class MeldedHand(Fan):
    """Four claimed sets and a pair completed by a discard."""

    number, zh, en, points = 52, "全求人", "Melded Hand", 6
    excludes = frozenset({SINGLE})

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.exposed_melds == 4 and not v.ctx.self_drawn)


@register
class FullyConcealedHand(Fan):
    number, zh, en, points = 56, "不求人", "Fully Concealed Hand", 4
    excludes = frozenset({62, _SELF_DRAWN})  # 门前清
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.exposed_melds == 0 and v.ctx.self_drawn)


@register
class LastTile(Fan):
    """Winning on the last copy of a tile, the other three being visible."""

    number, zh, en, points = 58, "和绝张", "Last Tile", 4
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.last_copy)


@register
class ConcealedHand(Fan):
    number, zh, en, points = 62, "门前清", "Concealed Hand", 2
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.exposed_melds == 0 and not v.ctx.self_drawn)


@register
class EdgeWait(Fan):
    """The only winning tile was a 3 after 12 or a 7 before 89."""

    number, zh, en, points = EDGE, "边张", "Edge Wait", 1
    shapes = STANDARD_KNITTED

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.wait == EDGE)


@register
class ClosedWait(Fan):
    """The only winning tile was the middle of a chow."""

    number, zh, en, points = CLOSED, "嵌张", "Closed Wait", 1
    shapes = STANDARD_KNITTED

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.wait == CLOSED)


@register
class SingleWait(Fan):
    """The only winning tile paired a single tile."""

    number, zh, en, points = SINGLE, "单钓将", "Single Wait", 1
    shapes = STANDARD_KNITTED

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.wait == SINGLE)


@register
class SelfDrawn(Fan):
    number, zh, en, points = _SELF_DRAWN, "自摸", "Self-Drawn", 1
    shapes = ALL_SHAPES

    @staticmethod
    def count(v: HandView) -> int:
        return int(v.ctx.self_drawn)


@register
class FlowerTiles(Fan):
    """One fan per flower; added after the best reading is chosen, never toward the minimum."""

    number, zh, en, points = 81, "花牌", "Flower Tiles", 1
    shapes = frozenset()

    @staticmethod
    def count(v: HandView) -> int:
        return v.ctx.flowers




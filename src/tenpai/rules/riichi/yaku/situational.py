"""Yaku that come from how and when the hand was won, not from its shape."""

from __future__ import annotations

from tenpai.rules.riichi.reading import Reading
from tenpai.rules.riichi.yaku.base import Yaku

__all__ = [
    "Chankan",
    "DoubleRiichi",
    "Haitei",
    "Houtei",
    "Ippatsu",
    "MenzenTsumo",
    "RenhouMangan",
    "Riichi",
    "Rinshan",
]


class Riichi(Yaku):
    id = "riichi"
    name_ja = "立直"
    han_closed = 1
    han_open = None
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.riichi


class DoubleRiichi(Yaku):
    """Riichi declared on the first uninterrupted turn; replaces riichi."""

    id = "double_riichi"
    name_ja = "両立直"
    han_closed = 2
    han_open = None
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.double_riichi


class Ippatsu(Yaku):
    id = "ippatsu"
    name_ja = "一発"
    han_closed = 1
    han_open = None
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.ippatsu


class MenzenTsumo(Yaku):
    """Self-draw with a closed hand (ankan allowed)."""

    id = "menzen_tsumo"
    name_ja = "門前清自摸和"
    han_closed = 1
    han_open = None
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.tsumo and r.facts.closed


class Haitei(Yaku):
    id = "haitei"
    name_ja = "海底摸月"
    han_closed = 1
    han_open = 1
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.haitei


class Houtei(Yaku):
    id = "houtei"
    name_ja = "河底撈魚"
    han_closed = 1
    han_open = 1
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.houtei


class Rinshan(Yaku):
    id = "rinshan"
    name_ja = "嶺上開花"
    han_closed = 1
    han_open = 1
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.rinshan


class Chankan(Yaku):
    id = "chankan"
    name_ja = "搶槓"
    han_closed = 1
    han_open = 1
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.chankan


class RenhouMangan(Yaku):
    """Renhou as a 5-han yaku, for rules with ``renhou="mangan"`` (both presets play without)."""

    id = "renhou"
    name_ja = "人和"
    han_closed = 5
    han_open = None
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.renhou and r.facts.rules.renhou == "mangan"

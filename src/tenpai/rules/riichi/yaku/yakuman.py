"""Yakuman: limit hands that replace every other yaku and all dora.

Four of them have a harder variant (kokushi on the 13-sided wait, suuankou won on the pair,
chuuren on the 9-sided wait, and daisuushii itself) that some rules pay as a double yakuman;
each variant is its own class with ``double = True`` and replaces the plain one, so a result
names the variant whichever rules score it.
"""

from __future__ import annotations

from typing import Final

from tenpai.rules.riichi.reading import KOKUSHI, STANDARD, TANKI, WINDS, Reading
from tenpai.rules.riichi.yaku.base import Yaku

__all__ = [
    "Chiihou",
    "Chinroutou",
    "Chuuren",
    "Daisangen",
    "Daisuushii",
    "JunseiChuuren",
    "Kokushi",
    "Kokushi13",
    "RenhouYakuman",
    "Ryuuiisou",
    "Shousuushii",
    "Suuankou",
    "SuuankouTanki",
    "Suukantsu",
    "Tenhou",
    "Tsuuiisou",
]

_NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


class Kokushi(Yaku):
    id = "kokushi"
    name_ja = "国士無双"
    han_closed = 13
    han_open = None
    yakuman = True

    def applies(self, r: Reading) -> bool:
        return r.form == KOKUSHI and r.facts.closed_counts[r.facts.win_kind] == 1


class Kokushi13(Yaku):
    """Kokushi won on the 13-sided wait (the winning tile is the pair)."""

    id = "kokushi_13"
    name_ja = "国士無双十三面待ち"
    han_closed = 13
    han_open = None
    yakuman = True
    double = True

    def applies(self, r: Reading) -> bool:
        return r.form == KOKUSHI and r.facts.closed_counts[r.facts.win_kind] == 2


class Suuankou(Yaku):
    """Four concealed triplets, not won on the pair (so a shanpon won by tsumo)."""

    id = "suuankou"
    name_ja = "四暗刻"
    han_closed = 13
    han_open = None
    yakuman = True

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and r.wait != TANKI and r.ankou == 4


class SuuankouTanki(Yaku):
    """Four concealed triplets won on the pair (by ron too)."""

    id = "suuankou_tanki"
    name_ja = "四暗刻単騎"
    han_closed = 13
    han_open = None
    yakuman = True
    double = True

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and r.wait == TANKI and r.ankou == 4


class Daisangen(Yaku):
    id = "daisangen"
    name_ja = "大三元"
    han_closed = 13
    han_open = 13
    yakuman = True

    def applies(self, r: Reading) -> bool:
        return sum(1 for t in r.trips if t >= 31) == 3


def _wind_triplets(r: Reading) -> int:
    return sum(1 for t in r.trips if 27 <= t <= 30)


class Shousuushii(Yaku):
    id = "shousuushii"
    name_ja = "小四喜"
    han_closed = 13
    han_open = 13
    yakuman = True

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and r.pair in WINDS and _wind_triplets(r) == 3


class Daisuushii(Yaku):
    id = "daisuushii"
    name_ja = "大四喜"
    han_closed = 13
    han_open = 13
    yakuman = True
    double = True

    def applies(self, r: Reading) -> bool:
        return _wind_triplets(r) == 4


class Tsuuiisou(Yaku):
    """Only honours (four triplets and a pair, or seven honour pairs)."""

    id = "tsuuiisou"
    name_ja = "字一色"
    han_closed = 13
    han_open = 13
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.suits == 0


class Chinroutou(Yaku):
    """Only terminals."""

    id = "chinroutou"
    name_ja = "清老頭"
    han_closed = 13
    han_open = 13
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        f = r.facts
        return f.all_terminal_honor and not f.has_honor


class Ryuuiisou(Yaku):
    """Only 2 3 4 6 8 sou and the green dragon (the dragon is not required)."""

    id = "ryuuiisou"
    name_ja = "緑一色"
    han_closed = 13
    han_open = 13
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.all_green


def _nine_gates_suit(r: Reading) -> int:
    """The suit base (0, 9, 18) of a closed one-suit hand holding 1112345678999, else -1."""
    f = r.facts
    if f.ctx.melds or f.has_honor or f.suits not in (1, 2, 4):
        return -1
    base = {1: 0, 2: 9, 4: 18}[f.suits]
    cc = f.closed_counts
    for i, need in enumerate(_NINE_GATES):
        if cc[base + i] < need:
            return -1
    return base


class Chuuren(Yaku):
    id = "chuuren"
    name_ja = "九蓮宝燈"
    han_closed = 13
    han_open = None
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        base = _nine_gates_suit(r)
        if base < 0:
            return False
        wk = r.facts.win_kind
        return r.facts.closed_counts[wk] - 1 < _NINE_GATES[wk - base]


class JunseiChuuren(Yaku):
    """Chuuren won on the 9-sided wait: the hand before the win was exactly 1112345678999."""

    id = "junsei_chuuren"
    name_ja = "純正九蓮宝燈"
    han_closed = 13
    han_open = None
    yakuman = True
    double = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        base = _nine_gates_suit(r)
        if base < 0:
            return False
        wk = r.facts.win_kind
        return r.facts.closed_counts[wk] - 1 >= _NINE_GATES[wk - base]


class Suukantsu(Yaku):
    id = "suukantsu"
    name_ja = "四槓子"
    han_closed = 13
    han_open = 13
    yakuman = True

    def applies(self, r: Reading) -> bool:
        return r.kans == 4


class Tenhou(Yaku):
    id = "tenhou"
    name_ja = "天和"
    han_closed = 13
    han_open = None
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.tenhou


class Chiihou(Yaku):
    id = "chiihou"
    name_ja = "地和"
    han_closed = 13
    han_open = None
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.chiihou


class RenhouYakuman(Yaku):
    """Renhou as a yakuman, for rules with ``renhou="yakuman"``."""

    id = "renhou_yakuman"
    name_ja = "人和"
    han_closed = 13
    han_open = None
    yakuman = True
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.ctx.renhou and r.facts.rules.renhou == "yakuman"

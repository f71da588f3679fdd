"""Yaku built from triplets and kans, honour triplets included."""

from __future__ import annotations

from tenpai.rules.riichi.reading import DRAGONS, STANDARD, Reading
from tenpai.rules.riichi.yaku.base import Yaku

__all__ = [
    "Chun",
    "Haku",
    "Hatsu",
    "RoundWind",
    "Sanankou",
    "Sankantsu",
    "SanshokuDoukou",
    "SeatWind",
    "Shousangen",
    "Toitoi",
]


class Toitoi(Yaku):
    id = "toitoi"
    name_ja = "対々和"
    han_closed = 2
    han_open = 2

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and not r.seqs


class Sanankou(Yaku):
    """Three concealed triplets or kans (a triplet completed by ron does not count)."""

    id = "sanankou"
    name_ja = "三暗刻"
    han_closed = 2
    han_open = 2

    def applies(self, r: Reading) -> bool:
        return r.ankou == 3


class Sankantsu(Yaku):
    id = "sankantsu"
    name_ja = "三槓子"
    han_closed = 2
    han_open = 2

    def applies(self, r: Reading) -> bool:
        return r.kans == 3


class SanshokuDoukou(Yaku):
    """Triplets of the same number in all three suits."""

    id = "sanshoku_doukou"
    name_ja = "三色同刻"
    han_closed = 2
    han_open = 2

    def applies(self, r: Reading) -> bool:
        tiles = r.trips
        if len(tiles) < 3:
            return False
        return any(n + 9 in tiles and n + 18 in tiles for n in tiles if n < 9)


def _has_triplet(r: Reading, kind: int) -> bool:
    return kind in r.trips


class SeatWind(Yaku):
    """A triplet of one's own wind (a double wind also scores ``round_wind``)."""

    id = "yakuhai_seat_wind"
    name_ja = "自風牌"
    han_closed = 1
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return _has_triplet(r, r.facts.seat_wind)


class RoundWind(Yaku):
    id = "yakuhai_round_wind"
    name_ja = "場風牌"
    han_closed = 1
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return _has_triplet(r, r.facts.round_wind)


class Haku(Yaku):
    id = "yakuhai_haku"
    name_ja = "白"
    han_closed = 1
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return _has_triplet(r, 31)


class Hatsu(Yaku):
    id = "yakuhai_hatsu"
    name_ja = "發"
    han_closed = 1
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return _has_triplet(r, 32)


class Chun(Yaku):
    id = "yakuhai_chun"
    name_ja = "中"
    han_closed = 1
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return _has_triplet(r, 33)


class Shousangen(Yaku):
    """Two dragon triplets and a dragon pair (the dragon triplets score their yakuhai too)."""

    id = "shousangen"
    name_ja = "小三元"
    han_closed = 2
    han_open = 2

    def applies(self, r: Reading) -> bool:
        if r.form != STANDARD or r.pair not in DRAGONS:
            return False
        return sum(1 for t in r.trips if t >= 31) == 2

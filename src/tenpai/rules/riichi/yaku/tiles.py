"""Yaku about which tiles the hand holds: simples, terminals, flushes, seven pairs."""

from __future__ import annotations

from tenpai.rules.riichi.reading import CHIITOITSU, STANDARD, Reading, Set
from tenpai.rules.riichi.yaku.base import Yaku

__all__ = ["Chanta", "Chiitoitsu", "Chinitsu", "Honitsu", "Honroutou", "Junchan", "Tanyao"]


class Tanyao(Yaku):
    """Only simples.  Open hands count only with ``RiichiRules.open_tanyao`` (kuitan)."""

    id = "tanyao"
    name_ja = "断幺九"
    han_closed = 1
    han_open = 1
    per_reading = False

    def applies(self, r: Reading) -> bool:
        f = r.facts
        return f.all_simple and (f.closed or f.rules.open_tanyao)


class Chiitoitsu(Yaku):
    """Seven different pairs (a four-of-a-kind is not two pairs)."""

    id = "chiitoitsu"
    name_ja = "七対子"
    han_closed = 2
    han_open = None

    def applies(self, r: Reading) -> bool:
        return r.form == CHIITOITSU


def _set_has_terminal(s: Set) -> bool:
    n = s.tile % 9
    if s.seq:
        return n == 0 or n == 6
    return s.tile >= 27 or n == 0 or n == 8


def _outside(r: Reading) -> bool:
    """Every set and the pair hold a terminal or honour, and there is a sequence."""
    if r.form != STANDARD:
        return False
    p = r.pair
    if p < 27 and p % 9 not in (0, 8):
        return False
    return any(s.seq for s in r.sets) and all(_set_has_terminal(s) for s in r.sets)


class Chanta(Yaku):
    """Terminal or honour in every set and the pair, with honours and a sequence."""

    id = "chanta"
    name_ja = "混全帯幺九"
    han_closed = 2
    han_open = 1

    def applies(self, r: Reading) -> bool:
        return r.facts.has_honor and _outside(r)


class Junchan(Yaku):
    """A terminal in every set and the pair, no honours, with a sequence."""

    id = "junchan"
    name_ja = "純全帯幺九"
    han_closed = 3
    han_open = 2

    def applies(self, r: Reading) -> bool:
        return not r.facts.has_honor and _outside(r)


class Honroutou(Yaku):
    """Only terminals and honours (triplets or seven pairs)."""

    id = "honroutou"
    name_ja = "混老頭"
    han_closed = 2
    han_open = 2
    per_reading = False

    def applies(self, r: Reading) -> bool:
        return r.facts.all_terminal_honor


class Honitsu(Yaku):
    """One suit plus honours."""

    id = "honitsu"
    name_ja = "混一色"
    han_closed = 3
    han_open = 2
    per_reading = False

    def applies(self, r: Reading) -> bool:
        f = r.facts
        return f.has_honor and f.suits in (1, 2, 4)


class Chinitsu(Yaku):
    """One suit, no honours."""

    id = "chinitsu"
    name_ja = "清一色"
    han_closed = 6
    han_open = 5
    per_reading = False

    def applies(self, r: Reading) -> bool:
        f = r.facts
        return not f.has_honor and f.suits in (1, 2, 4)

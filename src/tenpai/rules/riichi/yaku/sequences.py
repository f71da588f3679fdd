"""Yaku built from sequences: pinfu, the peikou pair, ittsu, sanshoku."""

from __future__ import annotations

from tenpai.rules.riichi.reading import RYANMEN, STANDARD, Reading
from tenpai.rules.riichi.yaku.base import Yaku

__all__ = ["Iipeikou", "Ittsu", "Pinfu", "Ryanpeikou", "SanshokuDoujun"]


class Pinfu(Yaku):
    """Closed, four sequences, a pair that earns no fu, won on a two-sided wait."""

    id = "pinfu"
    name_ja = "平和"
    han_closed = 1
    han_open = None

    def applies(self, r: Reading) -> bool:
        f = r.facts
        if r.form != STANDARD or not f.closed or r.wait != RYANMEN or r.pair in f.yakuhai:
            return False
        return not r.trips


def _identical_sequence_pairs(r: Reading) -> int:
    starts = r.seqs
    pairs = 0
    i = 0
    while i + 1 < len(starts):
        if starts[i] == starts[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


class Iipeikou(Yaku):
    """Two identical sequences in a closed hand (exactly one such pair, else ryanpeikou)."""

    id = "iipeikou"
    name_ja = "一盃口"
    han_closed = 1
    han_open = None

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and r.facts.closed and _identical_sequence_pairs(r) == 1


class Ryanpeikou(Yaku):
    """Two pairs of identical sequences in a closed hand; replaces iipeikou."""

    id = "ryanpeikou"
    name_ja = "二盃口"
    han_closed = 3
    han_open = None

    def applies(self, r: Reading) -> bool:
        return r.form == STANDARD and r.facts.closed and _identical_sequence_pairs(r) == 2


class Ittsu(Yaku):
    """123, 456 and 789 of one suit."""

    id = "ittsu"
    name_ja = "一気通貫"
    han_closed = 2
    han_open = 1

    def applies(self, r: Reading) -> bool:
        starts = r.seqs
        if len(starts) < 3:
            return False
        return any(b in starts and b + 3 in starts and b + 6 in starts for b in (0, 9, 18))


class SanshokuDoujun(Yaku):
    """The same sequence in all three suits."""

    id = "sanshoku"
    name_ja = "三色同順"
    han_closed = 2
    han_open = 1

    def applies(self, r: Reading) -> bool:
        starts = r.seqs
        if len(starts) < 3:
            return False
        return any(n + 9 in starts and n + 18 in starts for n in starts if n < 7)

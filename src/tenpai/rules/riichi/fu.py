"""Fu (minipoints) of one reading.

The standard count: 20 base; 10 more for a closed ron; 2 for a self-draw except pinfu; sets by
openness, terminal/honour and kan (an open simple triplet 2, doubled when concealed, doubled
again for terminals and honours, times four for a kan); 2 for a pair of a dragon, the seat wind
or the round wind (``RiichiRules.double_wind_pair_fu`` when both winds); 2 for a kanchan,
penchan or tanki wait; then rounded up to ten.  An open hand that would total 20 on a ron gets
30, and seven pairs are a flat 25.  Which wait the winning tile completed is part of the
reading, so choosing the wait that scores best is the scorer's job, not this module's.
"""

from __future__ import annotations

from typing import Final

from tenpai.rules.riichi.reading import CHIITOITSU, KOKUSHI, RYANMEN, SHANPON, Reading

__all__ = ["extra_fu", "fu"]

_TERMINAL_OR_HONOR: Final = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))


def extra_fu(r: Reading) -> int:
    """Fu from sets, the pair and the wait (zero exactly for a pinfu shape)."""
    total = 0
    for s in r.sets:
        if s.seq:
            continue
        v = 4 if _TERMINAL_OR_HONOR[s.tile] else 2
        if s.concealed:
            v *= 2
        if s.kan:
            v *= 4
        total += v
    f = r.facts
    p = r.pair
    if p >= 31:
        total += 2
    elif p >= 27:
        if p == f.seat_wind and p == f.round_wind:
            total += f.rules.double_wind_pair_fu
        elif p == f.seat_wind or p == f.round_wind:
            total += 2
    if r.wait != RYANMEN and r.wait != SHANPON:
        total += 2
    return total


def fu(r: Reading) -> int:
    """The rounded fu of a reading (0 for thirteen orphans, which is scored as a yakuman)."""
    if r.form == CHIITOITSU:
        return 25
    if r.form == KOKUSHI:
        return 0
    f = r.facts
    extra = extra_fu(r)
    if f.closed:
        if f.tsumo:
            total = 20 + extra + (2 if extra else 0)
        else:
            total = 30 + extra
    else:
        total = 20 + extra + (2 if f.tsumo else 0)
        if total == 20:
            total = 30
    return (total + 9) // 10 * 10

"""From han and fu to points: limits, base points and who pays how much.

``base_points`` is the classic ``fu * 2**(han + 2)`` capped at mangan (2,000), with the fixed
limits above it; a yakuman is 8,000 per yakuman.  Payments are rounded up to 100 per payer: a ron
pays four times the base (six for the dealer), a tsumo splits it between the others (the dealer
pays double).  Honba and riichi deposits are added by :func:`tenpai.rules.riichi.payments`.
"""

from __future__ import annotations

from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["base_points", "ceil100", "payment_split"]

_LIMITS = (
    (13, 8000, "kazoe_yakuman"),
    (11, 6000, "sanbaiman"),
    (8, 4000, "baiman"),
    (6, 3000, "haneman"),
    (5, 2000, "mangan"),
)

_YAKUMAN_NAMES = {1: "yakuman", 2: "double_yakuman", 3: "triple_yakuman"}


def ceil100(x: int) -> int:
    return -(-x // 100) * 100


def base_points(han: int, fu: int, yakuman: int, rules: RiichiRules) -> tuple[int, str]:
    """Base points and the limit's name ("" below mangan) of a hand.

    ``yakuman`` is the number of yakuman (0 for a regular hand).
    """
    if yakuman:
        return 8000 * yakuman, _YAKUMAN_NAMES.get(yakuman, f"{yakuman}x_yakuman")
    for min_han, base, name in _LIMITS:
        if han >= min_han:
            if min_han == 13 and not rules.kazoe_yakuman:
                return 6000, "sanbaiman"
            return base, name
    base = fu << (han + 2)
    if base > 2000:
        return 2000, "mangan"
    if rules.kiriage_mangan and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return 2000, "mangan"
    return base, ""


def payment_split(base: int, dealer: bool, tsumo: bool) -> tuple[int, int, int]:
    """``(ron, tsumo_from_dealer, tsumo_from_each_non_dealer)`` before honba and deposits.

    For a dealer's tsumo ``tsumo_from_dealer`` is 0 and the non-dealers each pay double.
    """
    if not tsumo:
        return ceil100(base * (6 if dealer else 4)), 0, 0
    if dealer:
        return 0, 0, ceil100(base * 2)
    return 0, ceil100(base * 2), ceil100(base)

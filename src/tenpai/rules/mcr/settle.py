"""Points changing hands after an MCR win (base-8 settlement).

Self-drawn: each other player pays 8 + F.  On a discard (or a robbed kong): the discarder pays
8 + F and the two others pay 8.  F is the winner's total, flowers included.  Botzone's contest
payoffs are the same numbers, so both presets share the base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tenpai.rules.mcr.evaluate import MCRResult

__all__ = ["PRESETS", "SettlementPreset", "settle"]


@dataclass(frozen=True, slots=True)
class SettlementPreset:
    """Settlement constants of a rule variant."""

    name: str
    #: Paid by every loser on top of (or, for non-discarders, instead of) the fan total.
    base: int = 8


PRESETS: Final = {
    "mcr_official": SettlementPreset("mcr_official"),
    "botzone": SettlementPreset("botzone"),
}


def settle(
    result: MCRResult,
    winner: int,
    discarder: int | None,
    preset: str | SettlementPreset = "mcr_official",
) -> list[int]:
    """Per-seat score changes (seats 0-3) for a win; ``discarder`` is None for a self-draw."""
    if isinstance(preset, str):
        try:
            preset = PRESETS[preset]
        except KeyError:
            known = sorted(PRESETS)
            raise ValueError(f"settle: unknown preset {preset!r}; known: {known}") from None
    if not 0 <= winner <= 3:
        raise ValueError(f"settle: winner must be a seat 0-3, got {winner}")
    if discarder is not None and (not 0 <= discarder <= 3 or discarder == winner):
        raise ValueError(f"settle: discarder must be another seat 0-3, got {discarder}")
    fan = result.total
    deltas = [0, 0, 0, 0]
    for seat in range(4):
        if seat == winner:
            continue
        pay = preset.base + fan if discarder is None or seat == discarder else preset.base
        deltas[seat] -= pay
        deltas[winner] += pay
    return deltas

"""Chinese Official (MCR, 国标) mahjong rules: scoring of all 81 fans and settlement.

``evaluate(MCRContext(...))`` reads a finished hand every possible way and returns the best
reading's fans (:class:`MCRResult`), or ``None`` when the tiles do not form a winning hand;
``result.meets_minimum`` is the 8-fan check.  ``settle`` turns a result into score changes.
"""

from __future__ import annotations

from tenpai.rules.mcr.context import EAST, NORTH, SOUTH, WEST, MCRContext, MCRInputError, Meld
from tenpai.rules.mcr.evaluate import MINIMUM_FAN, FanHit, MCRResult, evaluate
from tenpai.rules.mcr.fans import FAN_BY_NAME, FAN_BY_NUMBER, FANS, Fan
from tenpai.rules.mcr.settle import PRESETS, SettlementPreset, settle
from tenpai.rules.mcr.shapes import Shape

__all__ = [
    "EAST",
    "FANS",
    "FAN_BY_NAME",
    "FAN_BY_NUMBER",
    "MINIMUM_FAN",
    "NORTH",
    "PRESETS",
    "SOUTH",
    "WEST",
    "Fan",
    "FanHit",
    "MCRContext",
    "MCRInputError",
    "MCRResult",
    "Meld",
    "SettlementPreset",
    "Shape",
    "evaluate",
    "settle",
]

"""Riichi (Japanese) mahjong rules: hand scoring, payments and rule presets.

``evaluate(WinContext(...))`` scores a win (yaku, fu, limits, base points and the payment
split); ``payments`` turns a result into per-seat point changes with honba, deposits and pao;
``RiichiRules`` with the ``TENHOU``, ``MAHJONG_SOUL`` and ``TENHOU_SANMA`` (three players)
presets says which rules apply.
docs/riichi.md has the rule table and the yaku list.
"""

from tenpai.rules.riichi.context import EAST, NORTH, SOUTH, WEST, Meld, ScoringError, WinContext
from tenpai.rules.riichi.evaluate import WinResult, count_dora, evaluate
from tenpai.rules.riichi.payments import nagashi_mangan_payments, payments
from tenpai.rules.riichi.ruleset import (
    MAHJONG_SOUL,
    PRESETS,
    TENHOU,
    TENHOU_SANMA,
    RiichiRules,
    preset,
    preset_for_players,
)

__all__ = [
    "EAST",
    "MAHJONG_SOUL",
    "NORTH",
    "PRESETS",
    "SOUTH",
    "TENHOU",
    "TENHOU_SANMA",
    "WEST",
    "Meld",
    "RiichiRules",
    "ScoringError",
    "WinContext",
    "WinResult",
    "count_dora",
    "evaluate",
    "nagashi_mangan_payments",
    "payments",
    "preset",
    "preset_for_players",
]

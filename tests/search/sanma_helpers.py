"""Tables at the decisions of seeded three-player (``tenhou_sanma``, tonpuu) games played by
``efficiency``, which sets Norths aside (shared by the three-player search tests): the
four-player helpers of :mod:`tests.search.helpers` on the three-player rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from tenpai.engine.flow import Decision
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.ruleset import TENHOU_SANMA

from .helpers import decisions, find, fingerprint, hidden
from .helpers import swap_hidden_tiles as swap_hidden

__all__ = ["NORTH", "SANMA_TONPUU", "find_sanma", "fingerprint", "hidden", "sanma_decisions",
           "swap_hidden"]

SANMA_TONPUU = dataclasses.replace(TENHOU_SANMA, length="tonpuu")
NORTH = 30


def sanma_decisions(seed: int, limit: int = 400) -> Iterator[tuple[RiichiRound, Decision]]:
    """Every pending decision of a seeded three-player efficiency game (the round is live)."""
    return decisions(seed, limit, SANMA_TONPUU)


def find_sanma(pred: Callable[[RiichiRound, Decision], bool], seeds: range = range(40)
               ) -> tuple[RiichiRound, Decision]:
    """A copy of the first three-player table where ``pred`` holds, and its decision."""
    return find(pred, seeds, SANMA_TONPUU)

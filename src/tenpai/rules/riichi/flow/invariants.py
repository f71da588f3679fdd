"""Riichi invariants: the shared table's, plus points and deposits conserved."""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.engine.invariants import InvariantError, check_table
from tenpai.rules.riichi.flow.round import RiichiRound

__all__ = ["InvariantError", "check_round"]


def check_round(rnd: RiichiRound, tileset: Sequence[int], total_points: int) -> None:
    """Raise InvariantError unless tiles and points are conserved in ``rnd``."""
    aside = [t for n in rnd.nukidora for t in n]
    check_table(rnd, tileset, rnd.wall.undrawn_tiles(), aside=aside)
    pool = rnd.kyotaku * rnd.rules.riichi_deposit
    if sum(rnd.scores) + pool != total_points:
        raise InvariantError(
            f"points not conserved after event {len(rnd.events)}: scores {rnd.scores} + "
            f"deposits {pool} != {total_points}"
        )

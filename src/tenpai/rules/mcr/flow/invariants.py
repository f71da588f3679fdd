"""Invariants of an MCR table, checked after every step in tests (and on demand).

Every tile of the set is in exactly one place — a hand, a meld, a river, a flower row or the
wall — and points only move between players; a bug that breaks either shows at the step
that caused it, not at the end of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.engine.invariants import InvariantError, check_table
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.tiles import is_flower

__all__ = ["InvariantError", "check_round"]


def check_round(rnd: MCRRound, tileset: Sequence[int], total_points: int = 0) -> None:
    """Raise InvariantError unless tiles and points are conserved in ``rnd``."""
    where = f"after event {len(rnd.events)} ({rnd.events[-1].type})"
    aside = [t for f in rnd.flowers for t in f]
    check_table(rnd, tileset, rnd.wall.undrawn_tiles(), aside=aside, where=where)
    if sum(rnd.scores) != total_points:
        raise InvariantError(f"points not conserved {where}: scores {rnd.scores}")
    for s in range(4):
        if any(is_flower(t) for t in rnd.hands[s]):
            raise InvariantError(f"position {s} keeps a flower in hand {where}")

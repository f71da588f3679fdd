"""Invariants of a 108-tile table, checked after every step in tests.

Every one of the 108 tiles is in exactly one place (a hand, a meld, a river or the wall), the
points of the four players add up to what they started with, and each hand holds 13 tiles
(14 for the player to move), counting a meld as three.
"""

from __future__ import annotations

from tenpai.engine.invariants import InvariantError, check_table
from tenpai.rules.suits108.game import Suits108Game
from tenpai.rules.suits108.round import Suits108Round

__all__ = ["InvariantError", "check_game", "check_round"]


def check_round(rnd: Suits108Round, tileset: tuple[int, ...], total_points: int) -> None:
    """Raise InvariantError unless tiles and points are conserved in ``rnd``."""
    where = f"hand {rnd.hand_index + 1} after event {len(rnd.events)} ({rnd.events[-1].type})"
    check_table(rnd, tileset, rnd.wall.undrawn(), where=where)
    if len(tileset) != 108:
        raise InvariantError(f"the tile set holds {len(tileset)} tiles, not 108")
    if sum(rnd.scores) != total_points:
        raise InvariantError(f"points not conserved {where}: {rnd.scores} != {total_points}")
    for s in range(4):
        if rnd.declared[s] and rnd.phase != "ended":
            own = len(rnd.hands[s]) % 3 == 1
            if own and rnd.waits_of(s) != rnd.locked_waits[s]:
                raise InvariantError(f"seat {s}: a locked hand changed its waits {where}")


def check_game(game: Suits108Game) -> None:
    """Check the current hand, or the final scores once the game is over."""
    if game.round is not None:
        check_round(game.round, game.tileset, game.total_points)
    elif sum(game.final_scores) != game.total_points:
        raise InvariantError(f"final scores {game.final_scores} != {game.total_points}")

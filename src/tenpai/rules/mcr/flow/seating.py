"""Who sits where in each round of a full MCR game (the Green Book's seat changes).

Within a round the players keep their places and the dealer moves on one place each hand (MCR
has no dealer repeat).  Between rounds they change places: after East, the East and South
players swap and so do West and North; after South, East goes to West, West to South, South to
North and North to East; after West, the first swap again.  Each round starts with the
player who was East in the first hand as dealer, so every player deals once per round and
sits once in each place over the game.
"""

from __future__ import annotations

from typing import Final

__all__ = ["POSITION_OF", "dealer_position", "players_at"]

#: POSITION_OF[round][player] = the table position (0-3, turn order) of a player in a round.
POSITION_OF: Final[tuple[tuple[int, ...], ...]] = (
    (0, 1, 2, 3),
    (1, 0, 3, 2),
    (2, 3, 1, 0),
    (3, 2, 0, 1),
)


def players_at(round_index: int, rotate: bool = True) -> tuple[int, ...]:
    """The player sitting at each position (0-3) in a round."""
    pos = POSITION_OF[round_index % 4] if rotate else POSITION_OF[0]
    out = [0, 0, 0, 0]
    for player, p in enumerate(pos):
        out[p] = player
    return tuple(out)


def dealer_position(round_index: int, hand: int, rotate: bool = True) -> int:
    """The dealer's position in hand ``hand`` (0-3) of a round."""
    first = POSITION_OF[round_index % 4][0] if rotate else 0
    return (first + hand) % 4

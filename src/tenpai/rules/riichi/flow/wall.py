"""A Riichi round's tiles: the four starting hands, the live wall and the dead wall.

The engine never looks at how a wall was made.  A seeded shuffle deals a fresh game; a record
replay builds the wall from the draws the record shows, so the engine reproduces the record's
draws exactly and any divergence is a rules difference, not a dealing one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["RoundWall", "WallError"]

DEAD_WALL = 14
HAND = 13


class WallError(ValueError):
    """A wall that cannot hold the tiles asked of it (a record that draws a fifth copy, say)."""


@dataclass(slots=True)
class RoundWall:
    """Tiles of one round, as tile codes.

    ``live`` is drawn from the front; each kan shortens it by one from the back (the tile that
    moves to the dead wall), so the last draw (haitei) comes earlier after kans, as at a real
    table.  ``dora`` holds the five indicator slots in reveal order, ``ura`` the five below them,
    ``rinshan`` the four replacement tiles in draw order.
    """

    hands: list[list[int]]
    live: list[int]
    dora: list[int]
    ura: list[int]
    rinshan: list[int]
    _next: int = 0
    _end: int = field(default=-1)
    _kans: int = 0

    def __post_init__(self) -> None:
        if self._end < 0:
            self._end = len(self.live)

    @classmethod
    def from_shuffled(cls, tiles: Sequence[int], players: int = 4) -> RoundWall:
        """Deal 13 tiles to each seat from the front; the last 14 tiles are the dead wall."""
        t = list(tiles)
        dealt = players * HAND
        hands = [t[i * HAND : (i + 1) * HAND] for i in range(players)]
        dead = t[-DEAD_WALL:]
        live = t[dealt : len(t) - DEAD_WALL]
        return cls(hands=hands, live=live, dora=dead[0:5], ura=dead[5:10], rinshan=dead[10:14])

    @classmethod
    def from_record(
        cls,
        tileset: Sequence[int],
        hands: Sequence[Sequence[int]],
        draws: Sequence[int],
        dora: Sequence[int],
        ura: Sequence[int],
        rinshan: Sequence[int],
    ) -> RoundWall:
        """A wall whose known slots are the record's tiles; unknown slots get the leftover tiles.

        Raises WallError when the record uses more copies of a tile than the set holds.
        """
        for seat, h in enumerate(hands):
            if len(h) != HAND:
                raise WallError(f"seat {seat} starts with {len(h)} tiles, not {HAND}")
        left = Counter(tileset)
        for group in (*hands, draws, dora, ura, rinshan):
            for t in group:
                if left[t] <= 0:
                    raise WallError(f"the record uses more copies of tile {t} than the set has")
                left[t] -= 1
        spare = sorted(left.elements())

        def fill(known: Sequence[int], size: int) -> list[int]:
            out = list(known)
            while len(out) < size:
                out.append(spare.pop())
            return out

        n_live = len(tileset) - len(hands) * HAND - DEAD_WALL
        if len(draws) > n_live:
            raise WallError(f"the record draws {len(draws)} tiles from a live wall of {n_live}")
        return cls(
            hands=[list(h) for h in hands],
            dora=fill(dora, 5),
            ura=fill(ura, 5),
            rinshan=fill(rinshan, 4),
            live=fill(draws, n_live),
        )

    @property
    def remaining(self) -> int:
        """Tiles still to be drawn from the live wall."""
        return self._end - self._next

    def draw(self) -> int:
        if self._next >= self._end:
            raise WallError("the live wall is empty")
        t = self.live[self._next]
        self._next += 1
        return t

    def draw_rinshan(self) -> int:
        """The replacement tile after a kan; the live wall loses its last tile to the dead wall."""
        if self._kans >= len(self.rinshan):
            raise WallError("no replacement tile left (a fifth kan)")
        self._end -= 1
        t = self.rinshan[self._kans]
        self._kans += 1
        return t

    def undrawn_tiles(self) -> list[int]:
        """Every tile not yet in a hand, for the conservation check (indicators included)."""
        return self.live[self._next :] + self.dora + self.ura + self.rinshan[self._kans :]

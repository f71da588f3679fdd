"""The tiles of one MCR hand: the four starting hands and the wall(s) still to draw from.

Two layouts share one small interface so the round never asks which it has:

* :class:`SharedWall` (Green Book): one wall; ordinary draws from the front, kong and flower
  replacements from the back; the hand is drawn when it is empty.  MCR keeps no dead wall.
* :class:`SeatWalls` (Botzone): each seat owns a wall of a quarter of the tiles, is dealt
  from it and draws from it, replacements included.  Botzone's ``walltiles`` string is the four
  walls one after another, each drawn from its end, which :meth:`SeatWalls.from_shuffled` copies.

A replay builds either from a record's draws, so the engine draws what the players drew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

__all__ = ["HAND", "MCRWall", "SeatWalls", "SharedWall", "WallError"]

HAND = 13


class WallError(ValueError):
    """A wall that cannot hold what is asked of it (a fifth copy, a draw from an empty wall)."""


class MCRWall(Protocol):
    """What a round needs from its tiles."""

    hands: list[list[int]]

    def draw(self, seat: int) -> int:
        """The next ordinary draw of ``seat``."""
        ...

    def draw_replacement(self, seat: int) -> int:
        """A replacement draw (after a kong or a flower) for ``seat``."""
        ...

    def remaining_for(self, seat: int) -> int:
        """Tiles left that ``seat``'s next draw (ordinary or replacement) can come from."""
        ...

    def undrawn_tiles(self) -> list[int]:
        """Every tile not drawn yet (for the conservation invariant)."""
        ...

    @property
    def total_remaining(self) -> int: ...


def _leftover(tileset: Sequence[int], used: Sequence[Sequence[int]]) -> list[int]:
    left = Counter(tileset)
    for group in used:
        for t in group:
            if left[t] <= 0:
                raise WallError(f"the record uses more copies of tile {t} than the set has")
            left[t] -= 1
    return sorted(left.elements())


def _check_hands(hands: Sequence[Sequence[int]]) -> None:
    if len(hands) != 4:
        raise WallError(f"{len(hands)} starting hands, not 4")
    for seat, h in enumerate(hands):
        if len(h) != HAND:
            raise WallError(f"seat {seat} starts with {len(h)} tiles, not {HAND}")


class SharedWall:
    """One wall: draws from the front, replacements from the back."""

    __slots__ = ("_back", "_front", "hands", "live")

    def __init__(self, hands: Sequence[Sequence[int]], live: Sequence[int]) -> None:
        _check_hands(hands)
        self.hands = [list(h) for h in hands]
        self.live = list(live)
        self._front = 0
        self._back = len(self.live)

    @classmethod
    def from_shuffled(cls, tiles: Sequence[int], dealer: int = 0) -> SharedWall:
        """Deal 13 tiles to each seat from the front, the dealer first; the rest is the wall."""
        t = list(tiles)
        hands: list[list[int]] = [[] for _ in range(4)]
        for i in range(4):
            hands[(dealer + i) % 4] = t[i * HAND : (i + 1) * HAND]
        return cls(hands, t[4 * HAND :])

    @classmethod
    def from_record(
        cls,
        tileset: Sequence[int],
        hands: Sequence[Sequence[int]],
        front: Sequence[int],
        back: Sequence[int],
    ) -> SharedWall:
        """A wall whose front holds the record's ordinary draws and whose back holds its
        replacement draws (in draw order); the tiles nobody drew fill the middle."""
        _check_hands(hands)
        spare = _leftover(tileset, [*hands, front, back])
        size = len(tileset) - 4 * HAND
        drawn = len(front) + len(back)
        if drawn > size:
            raise WallError(f"the record draws {drawn} tiles from a wall of {size}")
        return cls(hands, [*front, *spare, *reversed(back)])

    def draw(self, seat: int) -> int:
        if self._front >= self._back:
            raise WallError("the wall is empty")
        t = self.live[self._front]
        self._front += 1
        return t

    def draw_replacement(self, seat: int) -> int:
        if self._front >= self._back:
            raise WallError("the wall is empty (no replacement tile)")
        self._back -= 1
        return self.live[self._back]

    def remaining_for(self, seat: int) -> int:
        return self._back - self._front

    @property
    def total_remaining(self) -> int:
        return self._back - self._front

    def undrawn_tiles(self) -> list[int]:
        return self.live[self._front : self._back]


class SeatWalls:
    """One wall per seat; every draw of a seat, replacements included, comes from its own."""

    __slots__ = ("_pos", "hands", "walls")

    def __init__(self, hands: Sequence[Sequence[int]], walls: Sequence[Sequence[int]]) -> None:
        _check_hands(hands)
        if len(walls) != 4:
            raise WallError(f"{len(walls)} seat walls, not 4")
        self.hands = [list(h) for h in hands]
        self.walls = [list(w) for w in walls]
        self._pos = [0, 0, 0, 0]

    @classmethod
    def from_shuffled(cls, tiles: Sequence[int]) -> SeatWalls:
        """Botzone's layout: seat ``i`` owns the i-th quarter of ``tiles`` and takes tiles from
        its end — the 13 of its deal first, then its draws."""
        t = list(tiles)
        if len(t) % 4:
            raise WallError(f"{len(t)} tiles cannot be split into four walls")
        q = len(t) // 4
        if q <= HAND:
            raise WallError(f"seat walls of {q} tiles leave nothing to draw")
        seats = [t[i * q : (i + 1) * q][::-1] for i in range(4)]
        return cls([s[:HAND] for s in seats], [s[HAND:] for s in seats])

    def shuffled(self) -> list[int]:
        """The tiles in :meth:`from_shuffled`'s order (Botzone's ``walltiles``): a record can
        then carry the whole wall, and a reader can check every deal and draw against it.
        Meaningful before the hand starts (the hands are the dealt tiles)."""
        out: list[int] = []
        for hand, wall in zip(self.hands, self.walls, strict=True):
            out.extend((hand + wall)[::-1])
        return out

    @classmethod
    def from_record(
        cls,
        tileset: Sequence[int],
        hands: Sequence[Sequence[int]],
        draws: Sequence[Sequence[int]],
    ) -> SeatWalls:
        """Walls that start with each seat's recorded draws (in order); the tiles nobody drew
        fill the rest, so every wall has its full size."""
        _check_hands(hands)
        if len(draws) != 4:
            raise WallError(f"draws for {len(draws)} seats, not 4")
        spare = _leftover(tileset, [*hands, *draws])
        size = len(tileset) // 4 - HAND
        walls: list[list[int]] = []
        for seat, d in enumerate(draws):
            if len(d) > size:
                raise WallError(f"seat {seat} draws {len(d)} tiles from a wall of {size}")
            w = list(d)
            while len(w) < size:
                w.append(spare.pop())
            walls.append(w)
        return cls(hands, walls)

    def draw(self, seat: int) -> int:
        i = self._pos[seat]
        if i >= len(self.walls[seat]):
            raise WallError(f"seat {seat}'s wall is empty")
        self._pos[seat] = i + 1
        return self.walls[seat][i]

    def draw_replacement(self, seat: int) -> int:
        return self.draw(seat)

    def remaining_for(self, seat: int) -> int:
        return len(self.walls[seat]) - self._pos[seat]

    def upcoming(self, seat: int) -> list[int]:
        """The seat's undrawn tiles in the order it will draw them (only a per-seat wall
        has such an order: nobody else's play changes it)."""
        return self.walls[seat][self._pos[seat] :]

    @property
    def total_remaining(self) -> int:
        return sum(self.remaining_for(s) for s in range(4))

    def undrawn_tiles(self) -> list[int]:
        return [t for s in range(4) for t in self.walls[s][self._pos[s] :]]

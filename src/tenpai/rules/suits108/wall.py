"""The 108 tiles of one hand: four starting hands, draws from the front, kong replacements
from the back.

There is no dead wall and no dora in this rule set, so every tile can be drawn: after the deal
108 - 52 = 56 tiles remain, shared by ordinary draws and replacement draws.  A seeded shuffle
deals a fresh game; :func:`Suits108Wall.from_draws` rebuilds a wall from a game's own events,
so a replay reproduces the draws exactly without knowing the seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tenpai.engine.wall import standard_tileset

__all__ = ["HAND", "TILESET", "Suits108Wall", "WallError"]

HAND = 13
#: The 108 tile codes: four of each of the 27 suited kinds, no red fives, no honours.
TILESET: tuple[int, ...] = tuple(standard_tileset(red_fives=0, honors=False))


class WallError(ValueError):
    """A wall that cannot be built from the tiles given (a fifth copy, a short wall …)."""


class Suits108Wall:
    """The tiles of one hand, in dealing order."""

    __slots__ = ("_head", "_tail", "hands", "tiles")

    def __init__(self, tiles: Sequence[int]) -> None:
        if Counter(tiles) != Counter(TILESET):
            extra = Counter(tiles) - Counter(TILESET)
            missing = Counter(TILESET) - Counter(tiles)
            raise WallError(
                f"a 108-tile wall needs four of each suited kind: extra {dict(extra)}, "
                f"missing {dict(missing)}"
            )
        self.tiles = list(tiles)
        self.hands = [self.tiles[i * HAND : (i + 1) * HAND] for i in range(4)]
        self._head = 4 * HAND
        self._tail = len(self.tiles)

    @classmethod
    def from_draws(
        cls, hands: Sequence[Sequence[int]], draws: Sequence[int], replacements: Sequence[int]
    ) -> Suits108Wall:
        """The wall that deals ``hands``, then gives ``draws`` from the front and
        ``replacements`` (in the order drawn) from the back; unseen tiles fill the middle."""
        if len(hands) != 4 or any(len(h) != HAND for h in hands):
            raise WallError("from_draws: four starting hands of 13 tiles are needed")
        used = [t for h in hands for t in h] + list(draws) + list(replacements)
        left = Counter(TILESET)
        left.subtract(used)
        bad = {t: -n for t, n in left.items() if n < 0}
        if bad:
            raise WallError(f"from_draws: more copies than the set holds of {bad}")
        middle = sorted(left.elements())
        return cls([*used[: 4 * HAND + len(draws)], *middle, *reversed(replacements)])

    @property
    def remaining(self) -> int:
        return self._tail - self._head

    def draw(self) -> int:
        """The next tile from the front."""
        if self._head >= self._tail:
            raise WallError("the wall is empty")
        t = self.tiles[self._head]
        self._head += 1
        return t

    def draw_replacement(self) -> int:
        """A kong's replacement tile, from the back."""
        if self._head >= self._tail:
            raise WallError("the wall is empty")
        self._tail -= 1
        return self.tiles[self._tail]

    def undrawn(self) -> list[int]:
        return self.tiles[self._head : self._tail]

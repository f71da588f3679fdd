"""A Riichi round's tiles: the starting hands, the live wall and the dead wall.

The engine never looks at how a wall was made.  A seeded shuffle deals a fresh game; a record
replay builds the wall from the draws the record shows, so the engine reproduces the record's
draws exactly and any divergence is a rules difference, not a dealing one.

Three players (108 tiles) keep the 14-tile dead wall but may take eight replacement tiles (four
kans and four Norths set aside).  The dead wall holds the first four; each replacement draw
moves the live wall's last tile into the dead wall, and replacements five to eight are those
moved tiles — so, as at Tenhou's table, every replacement shortens the live wall by one and a
round always has 55 draws in all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tenpai import tiles as T

__all__ = ["RoundWall", "WallError"]

DEAD_WALL = 14
HAND = 13
#: Replacement tiles the dead wall itself holds.
RINSHAN = 4
#: Replacement draws a round may have: four kans (and, with three players, four Norths).
MAX_REPLACEMENTS = {4: 4, 3: 8}


class WallError(ValueError):
    """A wall that cannot hold the tiles asked of it (a record that draws a fifth copy, say)."""


@dataclass(slots=True)
class RoundWall:
    """Tiles of one round, as tile codes.

    ``live`` is drawn from the front; each kan shortens it by one from the back (the tile that
    moves to the dead wall), so the last draw (haitei) comes earlier after kans, as at a real
    table.  ``dora`` holds the five indicator slots in reveal order, ``ura`` the five below them,
    ``rinshan`` the four replacement tiles in draw order.  ``max_replacements`` (8 with three
    players) allows replacement draws past those four: each takes the live-wall tile its draw
    has just cut off (``live[_end]``).
    """

    hands: list[list[int]]
    live: list[int]
    dora: list[int]
    ura: list[int]
    rinshan: list[int]
    _next: int = 0
    _end: int = field(default=-1)
    _kans: int = 0
    max_replacements: int = RINSHAN

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
        return cls(hands=hands, live=live, dora=dead[0:5], ura=dead[5:10], rinshan=dead[10:14],
                   max_replacements=MAX_REPLACEMENTS[players])

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

        The player count is the number of hands.  Raises WallError when the record uses more
        copies of a tile than the set holds.
        """
        for seat, h in enumerate(hands):
            if len(h) != HAND:
                raise WallError(f"seat {seat} starts with {len(h)} tiles, not {HAND}")
        if len(hands) not in MAX_REPLACEMENTS:
            raise WallError(f"a wall for {len(hands)} players")
        most = MAX_REPLACEMENTS[len(hands)]
        if len(rinshan) > most:
            raise WallError(f"the record takes {len(rinshan)} replacement tiles; at most {most}")
        left = Counter(tileset)
        groups: list[tuple[str, Sequence[int]]] = [
            *((f"seat {s}'s deal", h) for s, h in enumerate(hands)),
            ("the draws", draws), ("the dora indicators", dora),
            ("the ura-dora indicators", ura), ("the replacement draws", rinshan)]
        for where, group in groups:
            for i, t in enumerate(group):
                if left[t] <= 0:  # named by where it appears, in mjai notation
                    have = tileset.count(t)
                    raise WallError(
                        f"{where} (tile {i + 1}: {T.to_mjai(t)}) would be copy {have + 1} of "
                        f"{T.to_mjai(t)}; the set has {have}")
                left[t] -= 1
        spare = sorted(left.elements())

        def fill(known: Sequence[int], size: int) -> list[int]:
            out = list(known)
            while len(out) < size:
                out.append(spare.pop())
            return out

        n_live = len(tileset) - len(hands) * HAND - DEAD_WALL
        if len(draws) + len(rinshan) > n_live:
            raise WallError(
                f"the record draws {len(draws) + len(rinshan)} tiles from a live wall of "
                f"{n_live}"
            )
        dora_slots = fill(dora, 5)
        ura_slots = fill(ura, 5)
        rinshan_slots = fill(rinshan[:RINSHAN], RINSHAN)
        # Replacements past the dead wall's four are live-wall tiles cut off by the draw: the
        # k-th (0-based, k >= 4) is live[n_live - 1 - k], which no ordinary draw reaches.
        slots: list[int | None] = [*draws, *([None] * (n_live - len(draws)))]
        for k, t in enumerate(rinshan[RINSHAN:], RINSHAN):
            slots[n_live - 1 - k] = t
        live = [spare.pop() if t is None else t for t in slots]
        return cls(
            hands=[list(h) for h in hands],
            dora=dora_slots,
            ura=ura_slots,
            rinshan=rinshan_slots,
            live=live,
            max_replacements=most,
        )

    @property
    def remaining(self) -> int:
        """Tiles still to be drawn from the live wall."""
        return self._end - self._next

    def next_draws(self, n: int) -> list[int]:
        """The next ``n`` (or fewer) live-wall tiles in draw order, for perfect-information
        players (the search of seed 000 reads the wall top)."""
        return self.live[self._next : min(self._end, self._next + n)]

    def draw(self) -> int:
        if self._next >= self._end:
            raise WallError("the live wall is empty")
        t = self.live[self._next]
        self._next += 1
        return t

    def draw_rinshan(self) -> int:
        """The replacement tile after a kan (or a North set aside); the live wall loses its last
        tile to the dead wall."""
        if self._kans >= self.max_replacements:
            raise WallError("no replacement tile left (a fifth kan)")
        self._end -= 1
        if self._kans < len(self.rinshan):
            t = self.rinshan[self._kans]
        else:
            t = self.live[self._end]
        self._kans += 1
        return t

    @property
    def replacements_left(self) -> int:
        """Replacement draws still possible."""
        return self.max_replacements - self._kans

    def undrawn_tiles(self) -> list[int]:
        """Every tile not yet in a hand, for the conservation check (indicators included)."""
        taken = max(0, self._kans - len(self.rinshan))  # cut-off live tiles drawn as replacements
        return (
            self.live[self._next : self._end]
            + self.live[self._end + taken :]
            + self.dora
            + self.ura
            + self.rinshan[self._kans :]
        )

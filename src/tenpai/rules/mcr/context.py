"""What the MCR scorer is told about a win: the hand, its melds and the situation.

:class:`MCRContext` checks itself on construction, so an impossible hand fails at the call site
with a message naming the field, never deep inside a fan predicate.  Tiles are tile codes from
:mod:`tenpai.tiles` (red fives are read as plain fives; flowers are not tiles of the hand and are
passed as a count).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from tenpai import tiles as T

__all__ = [
    "EAST",
    "NORTH",
    "SOUTH",
    "WEST",
    "MCRContext",
    "MCRInputError",
    "Meld",
    "MeldKind",
]

#: Winds as seat / prevalent wind numbers (the wind's kind is ``27 + wind``).
EAST: Final = 0
SOUTH: Final = 1
WEST: Final = 2
NORTH: Final = 3

MeldKind = Literal["chow", "pung", "exposed_kong", "concealed_kong", "promoted_kong"]
_MELD_KINDS: Final = ("chow", "pung", "exposed_kong", "concealed_kong", "promoted_kong")
_KONGS: Final = frozenset({"exposed_kong", "concealed_kong", "promoted_kong"})


class MCRInputError(ValueError):
    """A win context that cannot happen; the message names the offending field."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or declared set.

    ``tiles`` are the meld's tile codes (3 for a chow or pung, 4 for a kong).  ``claimed_from``
    is the offset of the player the tile came from, counted in turn order from the caller:
    1 = the previous player (上家, the only one a chow may come from), 2 = opposite,
    3 = the next player; 0 for a concealed kong, which nobody discarded.  A promoted kong keeps
    the offset of the pung it grew from.
    """

    kind: MeldKind
    tiles: tuple[int, ...]
    claimed_from: int = 1
    #: Lowest kind of the set (filled in on construction).
    base: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in _MELD_KINDS:
            raise MCRInputError(f"Meld.kind {self.kind!r} is not one of {', '.join(_MELD_KINDS)}")
        tiles = tuple(self.tiles)
        object.__setattr__(self, "tiles", tiles)
        want = 4 if self.kind in _KONGS else 3
        if len(tiles) != want:
            raise MCRInputError(f"Meld.tiles of a {self.kind} needs {want} tiles, got {len(tiles)}")
        for t in tiles:
            if not 0 <= t < T.FLOWER_BASE:
                raise MCRInputError(f"Meld.tiles holds {t}, not a tile code 0-36")
        kinds = sorted(T.kind_of(t) for t in tiles)
        k = kinds[0]
        if self.kind == "chow":
            if k >= 27 or k % 9 > 6 or kinds != [k, k + 1, k + 2]:
                raise MCRInputError(f"Meld.tiles {T.to_compact(tiles)} is not a chow")
        elif any(x != k for x in kinds):
            raise MCRInputError(f"Meld.tiles {T.to_compact(tiles)} is not a {self.kind}")
        if self.kind == "concealed_kong":
            if self.claimed_from != 0:
                raise MCRInputError("Meld.claimed_from of a concealed kong must be 0")
        elif self.kind == "chow":
            if self.claimed_from != 1:
                raise MCRInputError("Meld.claimed_from of a chow must be 1 (the previous player)")
        elif self.claimed_from not in (1, 2, 3):
            raise MCRInputError(f"Meld.claimed_from must be 1-3, got {self.claimed_from}")
        object.__setattr__(self, "base", k)

    @property
    def is_kong(self) -> bool:
        return self.kind in _KONGS

    @property
    def is_exposed(self) -> bool:
        """Every meld but a concealed kong opens the hand."""
        return self.kind != "concealed_kong"

    @classmethod
    def chow(cls, first: int) -> Meld:
        """A chow claimed from the previous player, given its lowest kind."""
        return cls("chow", (first, first + 1, first + 2), 1)

    @classmethod
    def pung(cls, kind: int, claimed_from: int = 1) -> Meld:
        return cls("pung", (kind,) * 3, claimed_from)

    @classmethod
    def kong(cls, kind: int, how: MeldKind = "exposed_kong", claimed_from: int = 1) -> Meld:
        return cls(how, (kind,) * 4, 0 if how == "concealed_kong" else claimed_from)


@dataclass(frozen=True, slots=True)
class MCRContext:
    """A finished hand and the way it was won.

    ``concealed`` holds the tiles not in melds, the winning tile included (14 - 3 per meld
    tiles).  ``last_tile`` means the wall was empty: with ``self_drawn`` it is 妙手回春, on a
    discard 海底捞月.  ``last_copy`` (和绝张) means the three other copies of the winning tile
    were already visible (discards and exposed melds); it is implied when the winner's own melds
    hold those three copies.  ``kong_replacement`` (杠上开花) is a self-drawn win on a kong's
    replacement tile; ``robbing_kong`` (抢杠和) a win on a tile added to a promoted kong.
    """

    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    self_drawn: bool = False
    seat_wind: int = EAST
    prevalent_wind: int = EAST
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_copy: bool = False
    flowers: int = 0
    #: 34-count vector of ``concealed`` (filled in on construction).
    concealed_counts: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        concealed = tuple(self.concealed)
        melds = tuple(self.melds)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        for i, t in enumerate(concealed):
            if not 0 <= t < T.NUM_TILES:
                raise MCRInputError(f"MCRContext.concealed[{i}] = {t} is not a tile code")
            if T.is_flower(t):
                raise MCRInputError(
                    f"MCRContext.concealed[{i}] is a flower; pass flowers as the `flowers` count"
                )
        for i, m in enumerate(melds):
            if not isinstance(m, Meld):
                raise MCRInputError(f"MCRContext.melds[{i}] is not a Meld")
        if len(melds) > 4:
            raise MCRInputError(f"MCRContext.melds has {len(melds)} melds, at most 4 fit")
        want = 14 - 3 * len(melds)
        if len(concealed) != want:
            raise MCRInputError(
                f"MCRContext.concealed has {len(concealed)} tiles; with {len(melds)} melds a "
                f"winning hand keeps {want} (winning tile included)"
            )
        if not 0 <= self.win_tile < T.FLOWER_BASE:
            raise MCRInputError(f"MCRContext.win_tile {self.win_tile} is not a tile code 0-36")
        win = T.kind_of(self.win_tile)
        counts = T.counts34(concealed)
        if counts[win] == 0:
            raise MCRInputError("MCRContext.win_tile is not among the concealed tiles")
        total = list(counts)
        for m in melds:
            for t in m.tiles:
                total[T.kind_of(t)] += 1
        for k, c in enumerate(total):
            if c > 4:
                raise MCRInputError(f"the hand holds {c} copies of {T.to_compact([k])}")
        for name in ("seat_wind", "prevalent_wind"):
            w = getattr(self, name)
            if not 0 <= w <= 3:
                raise MCRInputError(f"MCRContext.{name} must be 0-3 (E S W N), got {w}")
        if not 0 <= self.flowers <= 8:
            raise MCRInputError(f"MCRContext.flowers must be 0-8, got {self.flowers}")
        in_melds = total[win] - counts[win]
        if self.robbing_kong:
            if self.self_drawn:
                raise MCRInputError("MCRContext.robbing_kong cannot be a self-drawn win")
            if counts[win] != 1 or in_melds:
                raise MCRInputError(
                    "MCRContext.robbing_kong: the robbed tile's other copies are in the kong, "
                    "so the winner cannot hold another"
                )
            if self.kong_replacement:
                raise MCRInputError(
                    "MCRContext: robbing_kong and kong_replacement exclude each other"
                )
        if self.kong_replacement:
            if not self.self_drawn:
                raise MCRInputError("MCRContext.kong_replacement needs a self-drawn win")
            if not any(m.is_kong for m in melds):
                raise MCRInputError("MCRContext.kong_replacement needs a kong among the melds")
        if self.last_copy and counts[win] != 1:
            raise MCRInputError(
                "MCRContext.last_copy: the winner holds another copy of the winning tile, so "
                "it cannot be the last one"
            )
        if in_melds == 3 and counts[win] == 1 and not self.last_copy:
            # The three other copies sit in the winner's own exposed melds: 和绝张 is certain.
            object.__setattr__(self, "last_copy", True)
        object.__setattr__(self, "concealed_counts", tuple(counts))

    @property
    def win_kind(self) -> int:
        return T.kind_of(self.win_tile)

    @property
    def is_open(self) -> bool:
        """True when some meld was claimed (a concealed kong keeps the hand closed)."""
        return any(m.is_exposed for m in self.melds)

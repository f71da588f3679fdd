"""Worlds that see more than the seat may: a measuring instrument for ``search_mcr``'s ceiling.

The fair sampler (:class:`~tenpai.search.mcr.worlds.MCRWorldSampler`) fills every hidden place
with tiles drawn uniformly from what the seat has not seen.  Whatever a better reading of the
opponents could add to the search, it can add no more than knowing their hands outright; and
whatever any lookahead over the planner's candidates could add, it can add no more than
knowing the whole table, walls included.  These samplers give the search that knowledge so
the arena can measure both bounds (docs/mcr_strength.md, "How far can the search go?"):

* ``hands`` — the opponents' concealed hands and concealed kongs are the table's own; the
  undrawn walls (every seat's, the searching seat's too) are the remaining tiles shuffled,
  as the fair sampler shuffles them.  The bound of any world weighting.
* ``all`` — the table's hidden tiles exactly, walls in their order.  Only the playouts'
  policy seeds differ between worlds.  The bound of a one-step lookahead continued by these
  playout policies, and a loose one: it also knows the seat's own future draws, which no
  reading of the table gives (measured on seed 47307, most of its gain is self-draws).

They read the real table the observation carries, so they are for the arena, where that
table is the engine's; the Botzone bot's seat state does not know the other hands or the
walls and is refused in one line (:class:`~tenpai.search.mcr.worlds.MCRWorldError`).  No
agent plays with them unless ``$TENPAI_SEARCH_MCR_SIGHT`` says so.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.wall import SeatWalls, SharedWall
from tenpai.search.mcr.worlds import (
    HiddenDraw,
    MCRWorldError,
    MCRWorldSampler,
    WorldView,
    hidden_wall_slots,
)

__all__ = ["SIGHTS", "SightedWorldSampler", "world_sampler"]

#: ``fair`` is the shipped sampler; the others see hidden tiles (module docstring).
SIGHTS: Final = ("fair", "hands", "all")


class SightedWorldSampler(MCRWorldSampler):
    """Worlds that keep the table's hidden tiles (``sight``: ``hands`` or ``all``)."""

    def __init__(self, sight: str) -> None:
        if sight not in SIGHTS[1:]:
            raise ValueError(f"a sighted sampler sees 'hands' or 'all', not {sight!r}")
        self.sight = sight

    def draw(self, table: MCRRound, view: WorldView, seed: int) -> HiddenDraw:
        if type(table) is not MCRRound or not isinstance(table.wall, SeatWalls | SharedWall):
            raise MCRWorldError(
                f"TENPAI_SEARCH_MCR_SIGHT={self.sight} reads the engine's own table, and this "
                f"one ({type(table).__name__}) does not hold the hidden tiles")
        hands = {s: list(table.hands[s]) for s in view.others}
        kongs = {s: [tuple(m.tiles) for m in table.melds[s] if m.type == "ankan"]
                 for s in view.others}
        kongs = {s: groups for s, groups in kongs.items() if groups}
        if self.sight == "all":
            wall = [t for lst, a, b in hidden_wall_slots(table) for t in lst[a:b]]
        else:
            rest = Counter(view.tiles)
            rest.update(view.flowers)
            for s in view.others:
                rest.subtract(hands[s])
                for group in kongs.get(s, []):
                    rest.subtract(group)
            if any(c < 0 for c in rest.values()):
                raise MCRWorldError(f"seat {view.seat}: the table's hidden hands hold tiles "
                                    f"the seat's view counts as seen ({table._where()})")
            wall = sorted(rest.elements())
            random.Random(seed).shuffle(wall)
        if len(wall) != sum(view.undrawn):
            raise MCRWorldError(f"seat {view.seat}: {len(wall)} hidden wall tiles for "
                                f"{sum(view.undrawn)} places ({table._where()})")
        return HiddenDraw(hands, kongs, wall)


def world_sampler(sight: str) -> MCRWorldSampler:
    """The sampler of a ``SIGHT`` name: the fair one for ``fair``."""
    return MCRWorldSampler() if sight == "fair" else SightedWorldSampler(sight)

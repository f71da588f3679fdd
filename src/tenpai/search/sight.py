"""Worlds that hold the opponents' real hands: a measuring instrument for ``search``'s ceiling.

Six registered runs put ``search`` against three mjai-manue between 2.30 and 2.55 in average
rank, where issue 38 asks for 2.25; every world model tried since (weighted worlds, calls and
passed wins as evidence) changed the reading of the opponents a little and the rank not at all.
Whatever a better reading could add, it can add no more than knowing the hands outright.  This
sampler gives the search that knowledge, so one arena run bounds what any world model could
bring to this search with this prior, these playouts and this budget (docs/search.md, "How far
can reading take the search?"):

* ``hands`` — every opponent's concealed tiles are the table's own; the hidden wall (live
  tiles, dora and ura indicators, replacement tiles) is the rest of the unseen tiles shuffled
  afresh for each world, as the fair sampler shuffles them.  The searching seat does not learn
  its own draws, which no reading of the table gives (the MCR instrument ``all`` showed how much
  of such a bound can be self-draw foresight rather than reading).

It reads the engine's own round behind the observation, so it is for the arena; a table rebuilt
from a seat's events (mjai, the Tenhou client) holds no other hand and is refused in one line
by the agent, and the web table refuses the setting (``INSTRUMENT_SETTINGS``).  No agent plays
with it unless ``$TENPAI_SEARCH_SIGHT`` (or ``search[SIGHT=hands]``) says so.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from tenpai.search.worlds import Hands, Prepared, WorldError, WorldSampler

__all__ = ["SIGHTS", "SightedWorldSampler", "world_sampler"]

#: ``fair`` is the shipped sampler; ``hands`` sees the opponents' concealed tiles.
SIGHTS: Final = ("fair", "hands")


class SightedWorldSampler(WorldSampler):
    """Worlds whose opponents hold their real concealed tiles (module docstring)."""

    def __init__(self) -> None:
        super().__init__("uniform", riichi_ready=False)

    def _draw_hands(self, prep: Prepared, rng: random.Random) -> Hands:
        table = prep.table
        rest = Counter(prep.unseen)
        hands: dict[int, list[int]] = {}
        for s in prep.order:
            hands[s] = list(table.hands[s])
            rest.subtract(hands[s])
        if any(c < 0 for c in rest.values()):
            bad = sorted(k for k, c in rest.items() if c < 0)
            raise WorldError(f"seat {prep.seat}: the table's hidden hands hold tiles {bad} "
                             f"the seat's view counts as seen ({table._where()})")
        pool = sorted(rest.elements())
        rng.shuffle(pool)
        return Hands(hands, pool, 0)


def world_sampler(sight: str, opponents: str = "uniform", riichi_ready: bool = True,
                  read_waits: bool = False) -> WorldSampler:
    """The sampler of a ``SIGHT`` name: the fair one (with its opponent model) for ``fair``."""
    if sight == "fair":
        return WorldSampler(opponents, riichi_ready=riichi_ready,  # type: ignore[arg-type]
                            read_waits=read_waits)
    if sight == "hands":
        return SightedWorldSampler()
    raise ValueError(f"a search sight is one of {', '.join(SIGHTS)}, not {sight!r}")

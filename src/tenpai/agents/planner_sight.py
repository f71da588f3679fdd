"""A planner that sees hidden tiles: measuring instruments for how far its own play can go.

``search_mcr`` has its ``SIGHT`` instrument (:mod:`tenpai.search.mcr.sight`): worlds that hold
the real hands bound what any reading of the opponents could add to the search.  These two do
the same for the planner itself (``$TENPAI_PLANNER_SIGHT``), each reading one thing the seat
cannot see from the engine's own table:

* ``walls`` — the planner's odds use, for each kind, the copies in the undrawn walls instead
  of every copy it has not seen (the opponents' concealed tiles taken out).  Under Botzone's
  per-seat walls its own draws are then a uniform subset of the right tiles: the exact law of
  its draws with the opponents' hands known.  It bounds what a reading of the hands could add
  to the planner's *odds*;
* ``draws`` — the planner knows the order of its own coming draws (Botzone's per-seat walls:
  nobody else's play changes it) and values each target by the survival of its hand to the
  draw that completes it (:mod:`tenpai.rules.mcr.plan.foresight`), calls and passes too.  It
  bounds what any building of its own hand, with these targets, could add;
* ``wins`` — among its legal discards the planner only considers those no opponent's real
  hand could declare a win on (the engine's own rule: a complete hand of 8 fans or more), unless
  every discard is one.  Perfect knowledge of who wins on
  what: it bounds what any *defense* of the planner's discards could add.

Neither is an agent that can play a real match.  They read ``observation._table`` and are
refused in one line (:class:`SightError`) where that is not the engine's round (the Botzone
bot's seat state knows no other hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.wall import SeatWalls, SharedWall

__all__ = ["SIGHTS", "SightError", "own_draws", "undeclared_discards", "wall_live"]

#: ``fair`` is the shipped planner; the others read hidden tiles (module docstring).
SIGHTS: Final = ("fair", "walls", "draws", "wins")


class SightError(ValueError):
    """A sighted planner was given a table that does not hold the hidden tiles."""


def _table(obs: Any, sight: str) -> MCRRound:
    """The engine's round behind ``obs`` (a subclass, such as the Botzone bot's seat state,
    does not hold the other hands or the walls, and is refused as the search's sight is)."""
    table = getattr(obs, "_table", None)
    if type(table) is not MCRRound or not isinstance(table.wall, SeatWalls | SharedWall):
        raise SightError(f"TENPAI_PLANNER_SIGHT={sight} reads the engine's own table, and this "
                         f"one ({type(table).__name__}) does not hold the hidden tiles")
    return table


def wall_live(obs: Any) -> tuple[int, ...]:
    """Per kind, the copies in the undrawn walls: what the seat has not seen, less the other
    seats' concealed tiles and the concealed kongs it cannot see."""
    table = _table(obs, "walls")
    live = [4 - c - v for c, v in zip(obs.counts, obs.visible_counts())]
    hidden_kongs = getattr(obs, "hide_closed_kans", True)
    for s in range(len(table.hands)):
        if s == obs.seat:
            continue
        for tile in table.hands[s]:
            live[T.kind_of(tile)] -= 1
        if hidden_kongs:
            for m in table.melds[s]:
                if m.type == "ankan":
                    for tile in m.tiles:
                        live[T.kind_of(tile)] -= 1
    if any(n < 0 for n in live):
        raise SightError(f"seat {obs.seat}: the other hands hold tiles its view counts as seen")
    return tuple(live)


def own_draws(obs: Any) -> tuple[int, ...]:
    """The kinds the seat will draw, in order: only per-seat walls fix that order (on a
    shared wall every call moves the tiles between the seats), so another wall is refused."""
    table = _table(obs, "draws")
    wall = table.wall
    if not isinstance(wall, SeatWalls):
        raise SightError("TENPAI_PLANNER_SIGHT=draws reads a seat's own wall, and this table "
                         "has one wall shared by all (use the botzone preset)")
    return tuple(T.kind_of(t) for t in wall.upcoming(obs.seat))


def undeclared_discards(obs: Any, discards: Sequence[Event]) -> list[Event]:
    """The discards no other seat would win on, by the engine's own rule for a win on a
    discard (the 8-fan minimum and every situational fan included); all of them when every
    one would be."""
    table = _table(obs, "wins")
    others = [s for s in range(len(table.hands)) if s != obs.seat]
    won: dict[int, bool] = {}
    safe: list[Event] = []
    for e in discards:
        if e.pai is None:
            continue
        k = T.kind_of(e.pai)
        if k not in won:
            won[k] = any(table.rules_allow_win_on(s, e.pai, obs.seat) for s in others)
        if not won[k]:
            safe.append(e)
    return safe or list(discards)

"""Worlds drawn straight into the compiled core's state, without a copy of the round.

With ``POLICY=c:greedy`` a playout costs about a tenth of a millisecond in C, but the Python
world it starts from cost about 1.3 ms: a deep copy of the :class:`MCRRound` and the sampled
tiles written into it, only for :func:`~tenpai.search.mcr.compiled.export_state` to read it
back out.  Here the table is exported once per decision (everything the position sees) and
each world only fills in its hidden places — the others' concealed hands and concealed kongs
and every seat's undrawn wall — from a :class:`~tenpai.search.mcr.worlds.HiddenDraw`: the
fair draw of a seed, a weighted pick (:mod:`tenpai.search.mcr.reading`) or a sighted one.  So
:meth:`ExportedWorlds.state` is, tuple for tuple, the export of the world
:class:`~tenpai.search.mcr.worlds.MCRWorldSampler` builds from the same hidden tiles
(``tests/search/test_mcr_exported_worlds.py``), and the search's decisions do not change.

:class:`ExportedWorldPlayouts` plays one decision's candidates on such states:

* a discard by the seat to move (after a draw, or the one owed after a call) is the core's
  first move on the world's state;
* a pass in a claim window, where the position may not win on the tile, is the core started
  in the window: greedy in that seat passes too (it never calls), so it is the same hand as
  the pass stepped in Python;
* anything else (a call, a kong) needs the engine's step: the world is then built as a round
  by the Python sampler (once per world, for that candidate) and played as before, as is a
  hand the core does not cover (:func:`~tenpai.search.mcr.compiled.run` gives None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.wall import SharedWall
from tenpai.search.mcr.compiled import (
    _MELD_CODES,
    _PHASES,
    CompiledMCRPlayout,
    EndedHand,
    MCRRolloutStateError,
    _kind,
    melds_code,
    run,
    turn_code,
)
from tenpai.search.mcr.worlds import (
    HiddenDraw,
    MCRWorldSampler,
    WorldView,
    draw_hidden,
    world_view,
)

__all__ = ["ExportedWorldPlayouts", "ExportedWorlds", "exports"]

_ANKAN = _MELD_CODES["ankan"]


def exports(table: MCRRound) -> str | None:
    """None when the worlds of ``table`` can be drawn into the core's state, else why not: the
    ``botzone`` preset (per-seat walls, no flowers) in a phase the core starts from.  The
    Botzone bot's table qualifies (its counting wall becomes per-seat walls in a world)."""
    r = table.rules
    if not r.per_seat_walls or r.flowers or r.allow_false_win or isinstance(table.wall,
                                                                            SharedWall):
        return f"the compiled MCR playouts play the botzone preset, not {r.name}"
    if table.phase not in _PHASES:
        return f"a rollout cannot start in phase {table.phase!r}"
    return None


class ExportedWorlds:
    """One decision's worlds as the core's state tuples (module docstring); built once per
    decision, then :meth:`state` per world seed."""

    def __init__(self, table: MCRRound, seat: int, view: WorldView | None = None) -> None:
        why = exports(table)
        if why is not None:
            raise MCRRolloutStateError(why)
        self.table = table
        self.seat = seat
        #: ``view``: the decision's :func:`world_view` when the caller holds it already.
        self.view = view = view if view is not None else world_view(table, seat)
        if len(view.undrawn) != 4:
            raise MCRRolloutStateError("the compiled MCR playouts need per-seat walls")
        # the world forgets an opponent's drawn tile; the core reads it only in phase act
        drawn = table.drawn if table.phase == "act" and table.turn == seat else None
        self._melds = melds_code(table)
        self._head = (table.dealer, table.prevalent_wind, table.rules.min_fan, table.rules.base)
        self._own = tuple(_kind(t) for t in table.hands[seat])
        self._tail = (
            tuple(tuple(_kind(t) for t in r) for r in table.rivers),
            tuple(tuple(int(c) for c in rc) for rc in table.river_called),
        )
        self._end = turn_code(table, drawn)
        bounds, a = [], 0
        for n in view.undrawn:
            bounds.append((a, a + n))
            a += n
        self._bounds = tuple(bounds)
        for t in (*view.tiles, *view.flowers):
            _kind(t)  # every hidden tile is a plain kind under botzone: checked once here

    def state(self, drawn: HiddenDraw) -> tuple[Any, ...]:
        """The state of the world of hidden tiles ``drawn``: ``export_state(MCRWorldSampler()
        .sample(table, seat, seed, drawn=drawn).round)``, without the round."""
        hands: list[tuple[int, ...]] = [()] * 4
        hands[self.seat] = self._own
        for s, h in drawn.hands.items():
            hands[s] = tuple(h)
        melds = self._melds
        if drawn.kong_tiles:
            rebuilt = list(melds)
            for s, groups in drawn.kong_tiles.items():
                it = iter(groups)
                rebuilt[s] = tuple((_ANKAN, next(it)) if code == _ANKAN else (code, tiles)
                                   for code, tiles in melds[s])
            melds = tuple(rebuilt)
        wall = drawn.wall
        walls = tuple(tuple(wall[a:b]) for a, b in self._bounds)
        return (*self._head, tuple(hands), melds, *self._tail, walls, *self._end)


class ExportedWorldPlayouts:
    """A decision's candidates played on exported worlds (module docstring), valued exactly as
    :meth:`CompiledMCRPlayout.play_out` values them on the Python worlds."""

    def __init__(self, playout: CompiledMCRPlayout, sampler: MCRWorldSampler, table: MCRRound,
                 seat: int, cands: Sequence[Event], may_win: bool,
                 view: WorldView | None = None) -> None:
        self.playout = playout
        self.sampler = sampler
        self.worlds = ExportedWorlds(table, seat, view)
        self.table = table
        self.seat = seat
        self.cands = list(cands)
        self._scores = list(table.scores)
        #: Per candidate: ("discard", tile), ("window", None) or ("round", None).
        self.routes = [self._route(e, may_win) for e in self.cands]

    def _route(self, e: Event, may_win: bool) -> tuple[str, int | None]:
        t = self.table
        if (t.phase in ("act", "discard") and t.turn == self.seat and e.type == "dahai"
                and e.pai is not None and not T.is_flower(e.pai)):
            return "discard", e.pai
        if t.phase == "claim" and e.type == "none" and not may_win:
            return "window", None
        return "round", None

    def play_world(self, seed: int, drawn: HiddenDraw | None = None) -> list[EndedHand]:
        """Every candidate's end of the hand on one world (the same world for all): the hidden
        tiles ``drawn`` (the fair draw of ``seed`` when None), policy seeds from ``seed``."""
        if drawn is None:
            drawn = draw_hidden(self.worlds.view, seed)
        state = self.worlds.state(drawn)
        world: MCRRound | None = None
        ends: list[EndedHand] = []
        for e, (route, tile) in zip(self.cands, self.routes):
            out = None
            if route != "round":
                out = run(state, tile, self.playout.policy)
            if out is not None:
                self.playout.exported += 1
                scores = [s + d for s, d in zip(self._scores, out.deltas)]
                ends.append(EndedHand(out.hand_result(), scores))
                continue
            self.playout.copied += 1
            if world is None:
                world = self.sampler.sample(self.table, self.seat, seed,
                                            self.worlds.view, drawn).round
            ends.append(self.playout.play_out(world, {self.seat: e}, seed))
        return ends

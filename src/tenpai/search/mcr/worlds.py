"""Worlds of an MCR hand: the hidden tiles sampled from what one position has seen.

A world is a copy of the table in which every field the deciding position cannot see has been
overwritten with tiles it has not seen: the other three concealed hands, the tiles of their
concealed kongs (MCR lays them face down), the undrawn wall — one shared wall (flowers
included, under ``mcr_official``) or, under ``botzone``, each position's own wall, whose
length everyone can count — and the dealt hands the wall object keeps.  The event list is
replaced by the position's masked view, a claim or rob window's other decisions are rebuilt
from the sampled hands (:func:`tenpai.search.window.rebuild_window`), and an opponent's drawn
tile is forgotten.  Every unseen tile is equally likely anywhere (no reading of the opponents'
discards): with per-seat walls a position's own undrawn wall is as unknown as the others'.

Hands never hold flowers (a flower is set aside and replaced at once), so hands and kongs are
drawn from the unseen tiles that are not flowers, and the flowers still out go to the wall.
A concealed kong takes a kind uniformly among those with four unseen copies.

A table that is not the engine's own (the Botzone bot's seat state: a subclass of the round
whose stand-in seats never decide, with a wall that only counts tiles) becomes one in the
world: the copy is made a plain :class:`MCRRound` and gets a real wall of the preset's layout
holding the sampled tiles in the counts the table shows (per-seat walls under ``botzone``, one
shared wall otherwise).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.engine.snapshot import clone
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.wall import SeatWalls, SharedWall
from tenpai.rules.mcr.game import tileset_for
from tenpai.search.window import rebuild_window

__all__ = ["HiddenDraw", "MCRWorld", "MCRWorldError", "MCRWorldSampler", "WorldView",
           "draw_hidden", "hidden_wall_slots", "mcr_seen", "mcr_unseen", "reshuffled_wall",
           "world_view"]


class MCRWorldError(ValueError):
    """The view cannot be completed into a world (tile counts, or a wall layout unknown here)."""


@dataclass(slots=True)
class MCRWorld:
    round: MCRRound
    seed: int


def mcr_seen(rnd: MCRRound, seat: int) -> Counter[int]:
    """Tiles ``seat`` has seen: its hand, unclaimed river tiles, every meld except the others'
    concealed kongs (face down), and every flower set aside."""
    seen: Counter[int] = Counter(rnd.hands[seat])
    for s in range(4):
        seen.update(t for t, called in zip(rnd.rivers[s], rnd.river_called[s]) if not called)
        for m in rnd.melds[s]:
            if m.type == "ankan" and s != seat:
                continue
            seen.update(m.tiles)
        seen.update(rnd.flowers[s])
    return seen


def mcr_unseen(rnd: MCRRound, seat: int) -> list[int]:
    """The preset's tiles minus :func:`mcr_seen`, sorted."""
    left = Counter(tileset_for(rnd.rules))
    left.subtract(mcr_seen(rnd, seat))
    if any(c < 0 for c in left.values()):
        bad = sorted(k for k, c in left.items() if c < 0)
        raise MCRWorldError(f"seat {seat} sees more copies of tiles {bad} than the set holds")
    return sorted(left.elements())


def hidden_wall_slots(rnd: MCRRound) -> list[tuple[list[int], int, int]]:
    """The undrawn wall as (list, start, stop) spans: the shared wall's middle, or what is
    left of each position's wall (a wall of another type gets a real one first)."""
    w = rnd.wall
    if isinstance(w, SharedWall):
        return [(w.live, w._front, w._back)]
    if isinstance(w, SeatWalls):
        return [(w.walls[s], w._pos[s], len(w.walls[s])) for s in range(4)]
    raise MCRWorldError(f"search_mcr cannot sample a wall of type {type(w).__name__} "
                        f"(preset {rnd.rules.name}); it knows SharedWall and SeatWalls")


def _undrawn_counts(rnd: MCRRound) -> list[int]:
    """Tiles left to draw in each position's wall (one count for a shared wall): public."""
    w = rnd.wall
    if isinstance(w, SharedWall):
        return [w.total_remaining]
    if isinstance(w, SeatWalls) or rnd.rules.per_seat_walls:
        return [w.remaining_for(s) for s in range(4)]
    return [w.total_remaining]


def _engine_wall(rnd: MCRRound, counts: list[int]) -> SeatWalls | SharedWall:
    """An empty real wall of the preset's layout with ``counts`` undrawn places (filled by the
    sampler), for a table whose own wall only counts tiles."""
    if len(counts) == 4:
        seats = object.__new__(SeatWalls)
        seats.hands = [[] for _ in range(4)]
        seats.walls = [[-1] * n for n in counts]
        seats._pos = [0, 0, 0, 0]
        return seats
    shared = object.__new__(SharedWall)
    shared.hands = [[] for _ in range(4)]
    shared.live = [-1] * counts[0]
    shared._front, shared._back = 0, counts[0]
    return shared


@dataclass(frozen=True, slots=True)
class WorldView:
    """What every world of one decision shares: the deciding seat, the tiles it has not seen
    (flowers apart, each sorted) and the hidden places they fill, all public counts."""

    seat: int
    #: The other seats, in table order.
    others: tuple[int, ...]
    #: Concealed kongs per other seat (four places each).
    kongs: tuple[int, ...]
    #: Concealed hand size per other seat.
    sizes: tuple[int, ...]
    #: Undrawn places per wall: four under per-seat walls, one for a shared wall.
    undrawn: tuple[int, ...]
    #: Unseen tiles that are not flowers, sorted (hands and kongs are drawn from these).
    tiles: tuple[int, ...]
    #: Unseen flowers, sorted (they only go to the wall).
    flowers: tuple[int, ...]


@dataclass(slots=True)
class HiddenDraw:
    """One world's hidden tiles: the others' hands and concealed kongs, and the undrawn wall in
    the order :func:`hidden_wall_slots` lists its places."""

    hands: dict[int, list[int]]
    kong_tiles: dict[int, list[tuple[int, ...]]]
    wall: list[int]


def world_view(table: MCRRound, seat: int) -> WorldView:
    """The decision's :class:`WorldView`; raises :class:`MCRWorldError` when the unseen tiles
    do not fill the hidden places exactly."""
    unseen = mcr_unseen(table, seat)
    others = tuple(s for s in range(4) if s != seat)
    kongs = tuple(sum(1 for m in table.melds[s] if m.type == "ankan") for s in others)
    sizes = tuple(len(table.hands[s]) for s in others)
    undrawn = tuple(_undrawn_counts(table))
    need = sum(sizes) + 4 * sum(kongs) + sum(undrawn)
    if need != len(unseen):
        raise MCRWorldError(f"seat {seat}: {len(unseen)} unseen tiles for {need} hidden "
                            f"places ({table._where()})")
    return WorldView(seat, others, kongs, sizes, undrawn,
                     tuple(t for t in unseen if not T.is_flower(t)),
                     tuple(t for t in unseen if T.is_flower(t)))


def draw_hidden(view: WorldView, seed: int) -> HiddenDraw:
    """The hidden tiles of world ``seed``: every sampler of this module draws them here, so
    the Python world and the compiled core's exported one are the same world."""
    rng = random.Random(seed)
    seat = view.seat
    tiles = list(view.tiles)
    rng.shuffle(tiles)
    kong_tiles: dict[int, list[tuple[int, ...]]] = {}
    for s, n in zip(view.others, view.kongs):
        for _ in range(n):
            by_kind: dict[int, list[int]] = {}
            for t in tiles:
                by_kind.setdefault(T.kind_of(t), []).append(t)
            fours = sorted(k for k, v in by_kind.items() if len(v) >= 4)
            if not fours:
                raise MCRWorldError(f"seat {seat}: no kind left for seat {s}'s concealed kong")
            group = tuple(sorted(by_kind[rng.choice(fours)][:4]))
            for t in group:
                tiles.remove(t)
            kong_tiles.setdefault(s, []).append(group)
    hands: dict[int, list[int]] = {}
    for s, size in zip(view.others, view.sizes):
        if size > len(tiles):
            raise MCRWorldError(f"seat {seat}: too few unseen tiles for seat {s}'s hand")
        hands[s] = tiles[:size]
        tiles = tiles[size:]
    rest = tiles + list(view.flowers)
    rng.shuffle(rest)
    return HiddenDraw(hands, kong_tiles, rest)


def reshuffled_wall(drawn: HiddenDraw, seed: int) -> HiddenDraw:
    """``drawn``'s hands and kongs on a wall of the same tiles shuffled by ``seed``: given the
    hands, every order of the rest is equally likely, so a pick of the weighted pool played
    twice is played on two walls."""
    wall = list(drawn.wall)
    random.Random(seed).shuffle(wall)
    return HiddenDraw(drawn.hands, drawn.kong_tiles, wall)


class MCRWorldSampler:
    """Samples worlds for one position's decision (see the module docstring)."""

    def draw(self, table: MCRRound, view: WorldView, seed: int) -> HiddenDraw:
        """The hidden tiles of world ``seed``: :func:`draw_hidden` of the view alone (a
        measuring sampler that also reads the table's hidden tiles overrides this)."""
        return draw_hidden(view, seed)

    def sample(self, table: MCRRound, seat: int, seed: int,
               view: WorldView | None = None, drawn: HiddenDraw | None = None) -> MCRWorld:
        """A world for ``seat`` at ``table``: a pure function of its view and ``seed``
        (``view``: the decision's :func:`world_view`, when the caller already holds it;
        ``drawn``: hidden tiles chosen elsewhere — a weighted world — instead of
        :meth:`draw`'s)."""
        if view is None:
            view = world_view(table, seat)
        if drawn is None:
            drawn = self.draw(table, view, seed)
        if isinstance(table.wall, SeatWalls | SharedWall):
            rnd = clone(table)
        else:  # a wall that only counts tiles is not copied: a real one takes its place
            rnd = clone(table, {id(table.wall): _engine_wall(table, list(view.undrawn))})
        if type(rnd) is not MCRRound:  # the Botzone bot's seat state: see the module docstring
            rnd.__class__ = MCRRound
        rnd._emit_hook = None
        rnd.events = list(table._observe(seat).events)
        for s, h in drawn.hands.items():
            rnd.hands[s] = list(h)
            rnd.counts[s] = T.counts34(h)
        for s, groups in drawn.kong_tiles.items():
            it = iter(groups)
            rnd.melds[s] = [Meld("ankan", next(it)) if m.type == "ankan" else m
                            for m in rnd.melds[s]]
        rest = drawn.wall
        i = 0
        for lst, a, b in hidden_wall_slots(rnd):
            for j in range(a, b):
                lst[j] = rest[i]
                i += 1
        rnd.wall.hands = [list(h) if s == seat else [] for s, h in enumerate(rnd.wall.hands)]
        if rnd.turn != seat:
            rnd.drawn = None
        rebuild_window(rnd, seat)
        return MCRWorld(rnd, seed)

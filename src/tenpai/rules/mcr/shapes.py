"""Win shapes: every way to read a finished MCR hand.

A hand may be read as four sets and a pair (several ways, called melds never re-split), as
seven pairs (a quad in the hand counts as two pairs), seven shifted pairs, thirteen orphans,
honours-and-knitted tiles (全不靠 / 七星不靠), or a knitted straight plus one set and a pair.
Each reading becomes a :class:`HandView`: the facts the fan predicates read, computed once.

Readings come out in a fixed order — special shapes first, then standard readings in canonical
set order — so that when two readings score the same the first one wins, deterministically.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from tenpai.hand.decompose import SEQUENCE, decompositions
from tenpai.rules.mcr.context import MCRContext
from tenpai.rules.mcr.patterns import (
    KNITTED_STRAIGHTS,
    TileFacts,
    canonical_key,
    chow_patterns,
    pung_patterns,
    seven_pairs_wait,
    standard_waits,
    tile_facts,
)
from tenpai.tiles import kind_of

__all__ = ["CLOSED", "EDGE", "SINGLE", "HandView", "Shape", "readings"]

#: Wait kinds a standard or knitted reading may carry (the fan numbers of 边张, 嵌张, 单钓将).
EDGE = 77
CLOSED = 78
SINGLE = 79


class Shape(Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    SHIFTED_PAIRS = "seven_shifted_pairs"
    ORPHANS = "thirteen_orphans"
    HONORS_KNITTED = "honors_and_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


class HandView:
    """One reading of a hand plus the facts of its win, as the fan predicates see them.

    Sets are plain kinds: ``chows`` (lowest kind) and ``pungs`` (kongs included), each in
    canonical order; ``pair`` is the pair's kind or -1.  ``concealed_pungs`` counts pungs and
    kongs that stay concealed — a pung completed by a discard counts as exposed.
    """

    __slots__ = (
        "chows",
        "combos",
        "concealed_kongs",
        "concealed_pungs",
        "ctx",
        "exposed_melds",
        "facts",
        "honors",
        "knitted",
        "melded_kongs",
        "nine_gates",
        "order",
        "pair",
        "pungs",
        "shape",
        "wait",
    )

    def __init__(self, shape: Shape, ctx: MCRContext, facts: TileFacts) -> None:
        self.shape = shape
        self.ctx = ctx
        self.facts = facts
        self.chows: tuple[int, ...] = ()
        self.pungs: tuple[int, ...] = ()
        self.pair = -1
        self.concealed_pungs = 0
        self.melded_kongs = 0
        self.concealed_kongs = 0
        self.exposed_melds = sum(1 for m in ctx.melds if m.is_exposed)
        self.combos: dict[int, int] = {}
        self.wait = 0
        #: A knitted straight is part of the hand (组合龙).
        self.knitted = False
        #: Honours in an honours-and-knitted hand.
        self.honors = 0
        self.nine_gates = False
        #: Sort key among standard readings (canonical set order).
        self.order: tuple[tuple[int, int], ...] = ()

    @property
    def kongs(self) -> int:
        return self.melded_kongs + self.concealed_kongs

    @property
    def gates(self) -> int:
        """Bits of what the reading has: 1 set combinations, 2 pungs, 4 kongs."""
        return ((1 if self.combos else 0) | (2 if self.pungs else 0)
                | (4 if self.melded_kongs or self.concealed_kongs else 0))


def _all_counts(ctx: MCRContext) -> tuple[int, ...]:
    counts = list(ctx.concealed_counts)
    for m in ctx.melds:
        for t in m.tiles:
            counts[kind_of(t)] += 1
    return tuple(counts)


def readings(ctx: MCRContext) -> list[HandView]:
    """Every reading of the hand, special shapes first; empty when the hand is not complete."""
    facts = tile_facts(_all_counts(ctx))
    out: list[HandView] = []
    melds = ctx.melds
    if len(melds) <= 1:
        knitted = _knitted_straight(ctx, facts)
        if knitted is not None:
            return [knitted]
    if not melds:
        special = _special_shape(ctx, facts)
        if special is not None:
            out.append(special)
            if special.shape is not Shape.SEVEN_PAIRS:
                return out
    out.extend(_standard_readings(ctx, facts))
    return out


# ---------------------------------------------------------------------------
# Special shapes (fully concealed, no melds).
# ---------------------------------------------------------------------------

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _special_shape(ctx: MCRContext, facts: TileFacts) -> HandView | None:
    counts = ctx.concealed_counts
    if all(c % 2 == 0 for c in counts):
        present = [k for k in range(34) if counts[k]]
        if (len(present) == 7 and present[0] < 27 and present[-1] - present[0] == 6
                and present[0] // 9 == present[-1] // 9):
            return HandView(Shape.SHIFTED_PAIRS, ctx, facts)
        return HandView(Shape.SEVEN_PAIRS, ctx, facts)
    if all(counts[k] for k in _ORPHANS) and sum(counts[k] for k in _ORPHANS) == 14:
        return HandView(Shape.ORPHANS, ctx, facts)
    if max(counts) == 1:
        numbered = tuple(k for k in range(27) if counts[k])
        honors = sum(counts[27:])
        if 7 <= len(numbered) <= 9 and any(set(numbered) <= set(s) for s in KNITTED_STRAIGHTS):
            view = HandView(Shape.HONORS_KNITTED, ctx, facts)
            view.honors = honors
            view.knitted = len(numbered) == 9
            return view
    return None


# ---------------------------------------------------------------------------
# Knitted straight + one set + a pair.
# ---------------------------------------------------------------------------

def _knitted_straight(ctx: MCRContext, facts: TileFacts) -> HandView | None:
    counts = ctx.concealed_counts
    straight = next((s for s in KNITTED_STRAIGHTS if all(counts[k] for k in s)), None)
    if straight is None:
        return None
    rest = list(counts)
    for k in straight:
        rest[k] -= 1
    win = ctx.win_kind
    view = HandView(Shape.KNITTED_STRAIGHT, ctx, facts)
    view.knitted = True
    if ctx.melds:
        pair = next((k for k in range(34) if rest[k] == 2), -1)
        if pair < 0:
            return None
        meld = ctx.melds[0]
        _add_set(view, meld.base, meld.kind == "chow", concealed=not meld.is_exposed,
                 kong=meld.is_kong)
        view.pair = pair
        if counts[win] > 1:
            view.wait = SINGLE
    else:
        found = decompositions(rest)
        if len(found) != 1 or len(found[0].groups) != 1:
            return None
        group = found[0].groups[0]
        view.pair = found[0].pair
        _add_set(view, group.tile, group.kind == SEQUENCE, concealed=True, kong=False)
        if rest[win]:
            rest[win] -= 1
            waits = standard_waits(tuple(rest))
            if len(waits) == 1:
                view.wait = _wait_kind(win, view.chows, view.pair)
    _finish(view, ctx)
    return view


# ---------------------------------------------------------------------------
# Standard readings.
# ---------------------------------------------------------------------------

def _standard_readings(ctx: MCRContext, facts: TileFacts) -> list[HandView]:
    found = decompositions(ctx.concealed_counts)
    if not found:
        return []
    win = ctx.win_kind
    nine_gates = _nine_gates(ctx)
    unique: bool | None = None  # computed only if some reading could show a wait fan
    views = []
    for dec in found:
        view = HandView(Shape.STANDARD, ctx, facts)
        concealed_chows = []
        for g in dec.groups:
            chow = g.kind == SEQUENCE
            _add_set(view, g.tile, chow, concealed=True, kong=False)
            if chow:
                concealed_chows.append(g.tile)
        for m in ctx.melds:
            _add_set(view, m.base, m.kind == "chow", concealed=not m.is_exposed, kong=m.is_kong)
        view.pair = dec.pair
        if (not ctx.self_drawn and ctx.concealed_counts[win] >= 3
                and not any(c <= win <= c + 2 for c in concealed_chows)
                and any(g.kind != SEQUENCE and g.tile == win for g in dec.groups)):
            # A pung completed by a discard is an exposed pung.
            view.concealed_pungs -= 1
        wait = _wait_kind(win, tuple(concealed_chows), dec.pair)
        if wait:
            if unique is None:
                unique = _unique_wait(ctx)
            if unique:
                view.wait = wait
        view.order = tuple(sorted((canonical_key(g.tile), int(g.kind == SEQUENCE))
                                  for g in dec.groups))
        view.nine_gates = nine_gates
        _finish(view, ctx)
        views.append(view)
    views.sort(key=lambda v: v.order)
    return views


def _add_set(view: HandView, kind: int, chow: bool, *, concealed: bool, kong: bool) -> None:
    if chow:
        view.chows += (kind,)
        return
    view.pungs += (kind,)
    if kong:
        if concealed:
            view.concealed_kongs += 1
            view.concealed_pungs += 1
        else:
            view.melded_kongs += 1
    elif concealed:
        view.concealed_pungs += 1


def _finish(view: HandView, ctx: MCRContext) -> None:
    view.chows = tuple(sorted(view.chows, key=canonical_key))
    view.pungs = tuple(sorted(view.pungs, key=canonical_key))
    combos = dict(chow_patterns(view.chows, view.pair))
    combos.update(pung_patterns(view.pungs))
    view.combos = combos


def _wait_kind(win: int, concealed_chows: tuple[int, ...], pair: int) -> int:
    """The wait fan this reading shows for a single-tile wait (edge > closed > single)."""
    edge = closed = False
    for c in concealed_chows:
        if win == c + 1:
            closed = True
        elif win == c or win == c + 2:
            edge = True
    if edge:
        return EDGE
    if closed:
        return CLOSED
    return SINGLE if pair == win else 0


def _unique_wait(ctx: MCRContext) -> bool:
    """True when the hand before the winning tile waited on that one kind only."""
    standing = list(ctx.concealed_counts)
    standing[ctx.win_kind] -= 1
    return _unique_wait_cached(tuple(standing), not ctx.melds)


@lru_cache(maxsize=1 << 16)
def _unique_wait_cached(standing: tuple[int, ...], no_melds: bool) -> bool:
    waits = standard_waits(standing)
    if not waits:
        return False
    if no_melds:
        extra = seven_pairs_wait(standing)
        if extra >= 0:
            waits = waits | {extra}
    return len(waits) == 1


def _nine_gates(ctx: MCRContext) -> bool:
    """九莲宝灯: concealed 1112345678999 of one suit waiting on any tile of that suit."""
    if ctx.melds:
        return False
    standing = list(ctx.concealed_counts)
    standing[ctx.win_kind] -= 1
    return _nine_gates_cached(tuple(standing))


@lru_cache(maxsize=1 << 12)
def _nine_gates_cached(standing: tuple[int, ...]) -> bool:
    for base in (0, 9, 18):
        suit = standing[base : base + 9]
        if suit == (3, 1, 1, 1, 1, 1, 1, 1, 3):
            return True
    return False

"""Readings of a winning hand: the shapes yaku predicates and the fu count look at.

A *reading* is one way to see the complete hand: a standard decomposition (four sets and a pair)
together with the set the winning tile completed, or the seven-pairs or thirteen-orphans form.
The same tiles can be read several ways (``111222333m`` as triplets or sequences; ``23434`` won
on ``4`` as a ryanmen or a tanki), and Riichi scores the best one, so the scorer builds all of
them.  Facts that do not depend on the reading (tile counts, dora, the flush and terminal
tests) are computed once per hand in :class:`HandFacts`, because ``evaluate`` runs at every
possible win of every simulated game.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final, NamedTuple

from tenpai import tiles as T
from tenpai.hand.decompose import SEQUENCE, Decomposition, decompositions

if TYPE_CHECKING:
    from tenpai.rules.riichi.context import WinContext
    from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = [
    "CHIITOITSU",
    "KANCHAN",
    "KOKUSHI",
    "PENCHAN",
    "RYANMEN",
    "SHANPON",
    "STANDARD",
    "TANKI",
    "HandFacts",
    "Reading",
    "Set",
    "readings",
]

# Forms.
STANDARD: Final = 0
CHIITOITSU: Final = 1
KOKUSHI: Final = 2

# Waits (what the winning tile completed).
RYANMEN: Final = 0
KANCHAN: Final = 1
PENCHAN: Final = 2
TANKI: Final = 3
SHANPON: Final = 4

DRAGONS: Final = (31, 32, 33)
WINDS: Final = (27, 28, 29, 30)
GREEN: Final = (19, 20, 21, 23, 25, 32)  # 2 3 4 6 8 sou and the green dragon
TERMINALS_HONORS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


class Set(NamedTuple):
    """One set of a standard reading.

    ``concealed`` is what sanankou and triplet fu look at: false for a called set and for a
    triplet completed by ron (shanpon ron makes it a called triplet for scoring).
    """

    seq: bool
    tile: int
    open: bool
    kan: bool
    concealed: bool


_KIND: Final = tuple(T.kind_of(t) for t in range(37))


class HandFacts:
    """Everything about the hand that no reading changes, computed once per ``evaluate``."""

    __slots__ = (
        "all_green",
        "all_simple",
        "all_terminal_honor",
        "closed",
        "closed_counts",
        "counts",
        "ctx",
        "dealer",
        "has_honor",
        "meld_sets",
        "reds",
        "round_wind",
        "rules",
        "seat_wind",
        "suits",
        "tsumo",
        "win_kind",
        "yakuhai",
    )

    def __init__(self, ctx: WinContext) -> None:
        self.ctx = ctx
        self.rules: RiichiRules = ctx.rules
        kind = _KIND
        closed_counts = [0] * 34
        reds = 0
        for t in ctx.closed:
            closed_counts[kind[t]] += 1
            reds += t >= 34
        counts = closed_counts.copy()
        total = len(ctx.closed)
        meld_sets: list[Set] = []
        closed = True
        for m in ctx.melds:
            for t in m.tiles:
                counts[kind[t]] += 1
                reds += t >= 34
            total += len(m.tiles)
            is_open = m.kind != "ankan"
            closed = closed and not is_open
            meld_sets.append(Set(m.kind == "chi", m.base, is_open, len(m.tiles) == 4, not is_open))
        self.counts = counts
        #: Red fives held (closed and melded).
        self.reds = reds
        self.closed_counts = closed_counts
        self.meld_sets = tuple(meld_sets)
        self.win_kind = kind[ctx.win_tile]
        self.closed = closed
        self.tsumo = ctx.tsumo
        self.dealer = ctx.seat_wind == 27
        self.seat_wind = ctx.seat_wind
        self.round_wind = ctx.round_wind
        self.suits = (
            (1 if any(counts[0:9]) else 0)
            | (2 if any(counts[9:18]) else 0)
            | (4 if any(counts[18:27]) else 0)
        )
        self.has_honor = any(counts[27:])
        outside = sum([counts[k] for k in TERMINALS_HONORS])
        self.all_simple = outside == 0
        self.all_terminal_honor = outside == total
        self.all_green = sum([counts[k] for k in GREEN]) == total
        #: Kinds whose triplet is a yakuhai (and whose pair earns fu): dragons, seat and round.
        self.yakuhai = (31, 32, 33, ctx.seat_wind, ctx.round_wind)


class Reading:
    """One reading of the hand (see the module docstring)."""

    __slots__ = ("ankou", "facts", "form", "kans", "pair", "seqs", "sets", "trips", "wait")

    def __init__(
        self, form: int, sets: tuple[Set, ...], pair: int, wait: int, facts: HandFacts
    ) -> None:
        self.form = form
        self.sets = sets
        self.pair = pair
        self.wait = wait
        self.facts = facts
        seqs: list[int] = []
        trips: list[int] = []
        ankou = kans = 0
        for s in sets:
            if s.seq:
                seqs.append(s.tile)
            else:
                trips.append(s.tile)
                if s.concealed:
                    ankou += 1
                if s.kan:
                    kans += 1
        seqs.sort()
        #: Sorted lowest kinds of the sequences; kinds of the triplets and kans.
        self.seqs = seqs
        self.trips = trips
        #: Concealed triplets and kans (what sanankou and suuankou count); kans of any kind.
        self.ankou = ankou
        self.kans = kans

    def __repr__(self) -> str:
        return f"Reading(form={self.form}, sets={self.sets}, pair={self.pair}, wait={self.wait})"


@lru_cache(maxsize=1 << 14)
def _closed_decompositions(counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    return tuple(decompositions(counts))


def _sequence_wait(start: int, win: int) -> int:
    if win == start + 1:
        return KANCHAN
    if (start % 9 == 0 and win == start + 2) or (start % 9 == 6 and win == start):
        return PENCHAN
    return RYANMEN


def readings(facts: HandFacts) -> list[Reading]:
    """Every reading of the hand; empty when the tiles are not a winning shape."""
    out: list[Reading] = []
    cc = facts.closed_counts
    wk = facts.win_kind
    ron = not facts.tsumo
    meld_sets = facts.meld_sets
    for dec in _closed_decompositions(tuple(cc)):
        base = [Set(g.kind == SEQUENCE, g.tile, False, False, True) for g in dec.groups]
        if dec.pair == wk:
            out.append(Reading(STANDARD, (*base, *meld_sets), dec.pair, TANKI, facts))
        seen: set[tuple[int, int, int]] = set()
        for i, g in enumerate(dec.groups):
            if g.kind == SEQUENCE:
                if not g.tile <= wk <= g.tile + 2:
                    continue
                wait = _sequence_wait(g.tile, wk)
                sets = base
            else:
                if g.tile != wk:
                    continue
                wait = SHANPON
                if ron:
                    sets = base.copy()
                    sets[i] = Set(False, g.tile, False, False, False)
                else:
                    sets = base
            key = (g.kind, g.tile, wait)
            if key in seen:
                continue
            seen.add(key)
            out.append(Reading(STANDARD, (*sets, *meld_sets), dec.pair, wait, facts))
    if not meld_sets:
        if sum(1 for c in cc if c == 2) == 7:
            out.append(Reading(CHIITOITSU, (), -1, TANKI, facts))
        elif all(cc[k] for k in TERMINALS_HONORS) and sum(cc[k] for k in TERMINALS_HONORS) == 14:
            out.append(Reading(KOKUSHI, (), -1, TANKI, facts))
    return out

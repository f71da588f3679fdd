"""Perfect-information input planes for Riichi, over 34 kinds: ``mzplanes@1`` ported.

``mzplanes_riichi@1``: every channel is a 34-long row.  Seats are relative to the deciding
player (0 = itself, 1 = next in turn order …), as in :mod:`tenpai.mcts.features`.

=======  ======================================================================  ==========
planes   feature                                                                 why
=======  ======================================================================  ==========
0-15     concealed hand of each player, 4 thermometer planes (≥1 … ≥4)           Table 1
16-19    red five in each player's concealed hand (1 at 5m/5p/5s kind)           a han each
20-35    all discards of each player, thermometer (called ones included)         Table 1
36-51    the 4 most recent discards of each player, one plane each, newest first Table 1
52-67    meld tiles of each player, thermometer (closed kans too: shown)         Table 1
68-71    riichi declared, each player (constant planes)                          threat
72-75    dora kinds, counted over the revealed indicators (≥1 … ≥4)              value
76-85    the next ten tiles of the live wall in draw order, one plane each       Table 1
86-87    ura-dora kinds under the revealed indicators (≥1, ≥2)                   riichi value
88-131   score of each player in 11 intervals (constant planes, one-hot)         Table 1
132      the tile just drawn (one-hot; own turn only)                            decision
133      the tile offered to claim or rob (one-hot)                              decision
134-137  decision kind: own turn, must discard, claim, rob (constant)            decision
138-141  round wind E/S/W/N (constant, one-hot)                                   yakuhai
142-145  own seat wind E/S/W/N (constant, one-hot)                               yakuhai, oya
146-148  honba ≥1, ≥2, ≥3 (constant)                                             payments
149-151  riichi sticks on the table ≥1, ≥2, ≥3 (constant)                        payments
152-155  hand number in the wind round, kyoku clipped to 0-3 (constant)          game stage
156      live tiles left in the wall / 70 (constant)                             haitei, time
=======  ======================================================================  ==========

The 108-tile planes carry over with their meaning: hands, rivers, recent discards, melds,
the wall top and scores (same :func:`~tenpai.mcts.features.score_interval`, 5,000 points wide
around the 25,000 start), the drawn and offered tiles and the decision kind.  Riichi adds what
changes the value of a hand or a deal-in: red fives (not in the kind counts), dora and, under
perfect information, ura dora (the search sees what a riichi would score); the winds (which
honours are yakuhai, who is dealer); honba and the riichi sticks (what a win collects); the hand
number (how much game is left).  A discard someone called stays in its discarder's river (the
engine keeps it there for furiten), so it also counts in the caller's meld planes.  Every plane
is 0/1 except the last, so the planes pack as uint8 with plane 156 × 70.

Three players (``rules.players == 3``): relative seat 3's rows stay zero, 1m and 9m indicate
each other, Norths set aside are not encoded.

**Safety planes** (``safety_planes_riichi``, 3 × 34): for each other player (relative seats 1-3)
the kinds it certainly cannot ron now, by furiten (:func:`tenpai.rules.riichi.safety.
safe_kinds`: its own river, what it passed since its last discard, and what it passed since its
riichi).  Public facts the thermometers lose; kept beside the planes, as in ``features``.

Feature access (Fig. 7a): ``"full"`` shows everything; ``"removed"`` zeroes the planes a
player cannot see (:data:`HIDDEN_PLANES`: other players' hands and red fives, the wall, the ura
dora); ``"random"`` fills them with a random deal of the tiles hidden from the player (the same
hand sizes, a random wall and ura-dora indicators).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

import numpy as np

from tenpai.mcts.features import ACCESS, FeatureAccess, score_interval
from tenpai.tiles import dora_from_indicator, kind_of

if TYPE_CHECKING:
    from tenpai.rules.riichi.flow.round import RiichiRound

__all__ = [
    "ENCODER",
    "HIDDEN_PLANES",
    "KINDS",
    "PLANES",
    "SAFETY_PLANES",
    "WALL_SCALE",
    "dora_kind",
    "encode_riichi",
    "safety_planes_riichi",
]

ENCODER: Final = "mzplanes_riichi@1"
KINDS: Final = 34
SAFETY_PLANES: Final = 3
WALL_SCALE: Final = 70.0

# First plane of each block (the layout table above).
HAND: Final = 0
RED: Final = 16
RIVER: Final = 20
RECENT: Final = 36
MELD: Final = 52
RIICHI: Final = 68
DORA: Final = 72
WALL: Final = 76
URA: Final = 86
SCORE: Final = 88
DRAWN: Final = 132
OFFERED: Final = 133
PHASE: Final = 134
BAKAZE: Final = 138
JIKAZE: Final = 142
HONBA: Final = 146
KYOTAKU: Final = 149
KYOKU: Final = 152
WALL_LEFT: Final = 156
PLANES: Final = 157
WALL_ROWS: Final = 10
URA_ROWS: Final = 2

HIDDEN_PLANES: Final[tuple[int, ...]] = (
    *range(HAND + 4, HAND + 16),
    *range(RED + 1, RED + 4),
    *range(WALL, WALL + WALL_ROWS),
    *range(URA, URA + URA_ROWS),
)

_PHASES: Final = {"act": 0, "discard": 1, "claim": 2, "rob": 3}
#: Kind of each tile code (34-36, the red fives, are fives), as a tuple for fast indexing.
_KIND: Final = tuple(kind_of(t) for t in range(37))
#: Red-five tile code → its kind, for the red-five rows.
_RED_KIND: Final = {34: 4, 35: 13, 36: 22}
_DORA_OF: Final = tuple(dora_from_indicator(k) for k in range(KINDS))
#: Three players: 1m and 9m indicate each other (2m-8m are not in the set).
_DORA_OF_3P: Final = tuple({0: 8, 8: 0}.get(k, d) for k, d in enumerate(_DORA_OF))
# Rows of the per-call count matrix whose thermometers become planes: 4 hands, 4 rivers,
# 4 meld sets, the dora kinds and the ura-dora kinds.
_C_HAND: Final = 0
_C_RIVER: Final = 4
_C_MELD: Final = 8
_C_DORA: Final = 12
_C_URA: Final = 13
_C_ROWS: Final = 14
_LEVELS: Final = np.arange(4).reshape(1, 4, 1)


def dora_kind(indicator: int, players: int = 4) -> int:
    """The dora kind an indicator tile code shows: the next kind in its suit (9 wraps to 1),
    E→S→W→N→E, haku→hatsu→chun→haku; with three players 1m and 9m show each other."""
    return (_DORA_OF_3P if players == 3 else _DORA_OF)[_KIND[indicator]]


def encode_riichi(
    table: RiichiRound,
    seat: int,
    access: FeatureAccess = "full",
    rng: random.Random | None = None,
) -> np.ndarray:
    """The (157, 34) float32 planes of ``table`` seen by ``seat`` (see the module docstring).

    One pass over the tiles: kind counts go to one flat index list (a bincount makes every
    thermometer at once), constant planes to ``rows`` and one-hot cells to ``cells``."""
    if access not in ACCESS:
        raise ValueError(f"unknown feature access {access!r}; one of {ACCESS}")
    kind = _KIND
    n = table.players
    order = [(seat + r) % n for r in range(n)]
    wall = table.wall
    revealed = len(table.dora_markers)
    hidden = access != "removed"
    if access == "random":
        hands, live, ura = _random_hidden(table, order, rng or random.Random(0))
    else:
        hands = [table.hands[s] for s in order]
        live = wall.next_draws(WALL_ROWS) if hidden else []
        ura = wall.ura[:revealed] if hidden else []
    dora_of = _DORA_OF_3P if n == 3 else _DORA_OF
    flat: list[int] = []  # row * 34 + kind of the count matrix, once per tile
    rows: list[int] = []  # constant planes
    cells: list[int] = []  # plane * 34 + kind of one-hot cells
    for r, s in enumerate(order):
        if r == 0 or hidden:
            at = (_C_HAND + r) * KINDS
            flat += [at + kind[t] for t in hands[r]]
            cells += [(RED + r) * KINDS + _RED_KIND[t] for t in hands[r] if t in _RED_KIND]
        river = table.rivers[s]
        at = (_C_RIVER + r) * KINDS
        flat += [at + kind[t] for t in river]
        at = (RECENT + 4 * r) * KINDS
        cells += [at + j * KINDS + kind[t] for j, t in enumerate(reversed(river[-4:]))]
        at = (_C_MELD + r) * KINDS
        flat += [at + kind[t] for m in table.melds[s] for t in m.tiles]
        if table.riichi[s]:
            rows.append(RIICHI + r)
        rows.append(SCORE + 11 * r + score_interval(table.scores[s]))
    flat += [_C_DORA * KINDS + dora_of[kind[t]] for t in table.dora_markers]
    flat += [_C_URA * KINDS + dora_of[kind[t]] for t in ura]
    cells += [(WALL + j) * KINDS + kind[t] for j, t in enumerate(live)]
    if table.drawn is not None and table.turn == seat:
        cells.append(DRAWN * KINDS + kind[table.drawn])
    if table.phase == "claim" and table.last_discard is not None:
        cells.append(OFFERED * KINDS + kind[table.last_discard[1]])
    elif table.phase == "rob" and table.kan_in_progress is not None:
        cells.append(OFFERED * KINDS + kind[table.kan_in_progress[1]])
    phase = _PHASES.get(table.phase)
    if phase is not None:
        rows.append(PHASE + phase)
    rows.append(BAKAZE + table.bakaze % 4)
    rows.append(JIKAZE + (seat - table.oya) % n)
    rows += range(HONBA, HONBA + min(table.honba, 3))
    rows += range(KYOTAKU, KYOTAKU + min(table.kyotaku, 3))
    rows.append(KYOKU + min(table.kyoku, 3))

    counts = np.bincount(np.array(flat, dtype=np.intp), minlength=_C_ROWS * KINDS)
    thermo = counts.reshape(_C_ROWS, 1, KINDS) > _LEVELS  # (rows, 4 levels, 34)
    out = np.zeros((PLANES, KINDS), dtype=np.float32)
    out[HAND : HAND + 16] = thermo[_C_HAND : _C_HAND + 4].reshape(16, KINDS)
    out[RIVER : RIVER + 16] = thermo[_C_RIVER : _C_RIVER + 4].reshape(16, KINDS)
    out[MELD : MELD + 16] = thermo[_C_MELD : _C_MELD + 4].reshape(16, KINDS)
    out[DORA : DORA + 4] = thermo[_C_DORA]
    out[URA : URA + URA_ROWS] = thermo[_C_URA, :URA_ROWS]
    out[rows] = 1
    out.reshape(-1)[cells] = 1
    out[WALL_LEFT] = wall.remaining / WALL_SCALE
    return out


def _random_hidden(
    table: RiichiRound, order: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]]:
    """Other hands, the wall top and the ura indicators replaced by a random deal of the
    tiles ``order[0]`` cannot see (same hand sizes): the "random features" of Fig. 7a.  The
    unseen tiles are the other hands and every wall tile but the revealed dora indicators."""
    wall = table.wall
    pool = wall.undrawn_tiles()
    for t in table.dora_markers:
        pool.remove(t)
    for s in order[1:]:
        pool += table.hands[s]
    rng.shuffle(pool)
    hands = [table.hands[order[0]]]
    at = 0
    for s in order[1:]:
        size = len(table.hands[s])
        hands.append(pool[at : at + size])
        at += size
    live = pool[at : at + min(WALL_ROWS, wall.remaining)]
    at += len(live)
    return hands, live, pool[at : at + len(table.dora_markers)]


def safety_planes_riichi(table: RiichiRound, seat: int) -> np.ndarray:
    """The (3, 34) uint8 safety planes of ``seat`` (see the module docstring)."""
    from tenpai.rules.riichi.safety import safe_kinds

    out = np.zeros((SAFETY_PLANES, KINDS), dtype=np.uint8)
    n = table.players
    for r in range(1, n):
        kinds = sorted(safe_kinds(table.events, (seat + r) % n))
        out[r - 1, kinds] = 1
    return out

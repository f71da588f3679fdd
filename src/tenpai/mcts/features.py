"""Perfect-information input planes (Table 1) and transition planes (Table 2), over 27 kinds.

``mzplanes@1``: every channel is a 27-long row (the paper's 27×1 planes).  Seats are relative
to the deciding player (0 = itself, 1 = next in turn order …), as the paper's position variable.

=======  ===================================================================  ============
planes   feature                                                              Table 1
=======  ===================================================================  ============
0-15     concealed hand of each player, 4 thermometer planes (≥1 … ≥4)        4 × 4
16-31    all discards of each player, thermometer                             4 × 4
32-47    the 4 most recent discards of each player, one plane each            4 × 4
48-63    meld tiles of each player, thermometer                               4 × 4
64-73    the next ten tiles of the wall, one plane each                       10
74-117   score of each player in 11 intervals (constant planes, one-hot)      11 × 4
118      the tile just drawn (one-hot)                                        (ours)
119      the tile offered to claim or rob (one-hot)                           (ours)
120-123  ready declared, each player (constant planes)                        (ours)
124-127  decision kind: own turn, must discard, claim, rob (constant)         (ours)
128      tiles left in the wall / 56 (constant)                               (ours)
=======  ===================================================================  ============

The first 118 planes are Table 1 as printed (118 = the paper's input depth).  The paper's model
also needs to know what decision it faces; planes 118-128 say it.  Score intervals: 5,000
points wide, centred on the starting 25,000 (interval 5 holds 22,500-27,499), clipped.

**Safety planes** (``safety_planes``, 3 × 27, ours; the normal agent of dropout learning only):
for each other player (relative seats 1-3), the kinds proven not to be its waits now
(:func:`tenpai.rules.suits108.safety.passed_kinds`: passed since its hand last changed, and
everything passed since its declaration).  Public facts a normal player can read from the order
of the rivers, which the thermometer planes above lose.  The perfect-information search never
needs them (it sees the hands), so they are not part of ``mzplanes@1``; the search's strategy
data carry them beside the planes so that the student can be given them.

Feature access (Fig. 7a): ``"full"`` shows everything; ``"removed"`` zeroes the unconventional
planes (other players' hands 4-15 and the wall 64-73); ``"random"`` fills them with a random
deal of the tiles hidden from the player (the same hand sizes, a random wall order).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, Literal

import numpy as np

from tenpai.mcts.actions import POSITIONS, STATES, SUITS108, ActionTables
from tenpai.tiles import kind_of

if TYPE_CHECKING:
    from tenpai.rules.suits108.round import Suits108Round

__all__ = [
    "ENCODER",
    "HIDDEN_PLANES",
    "PLANES",
    "SAFETY_PLANES",
    "TRANSITION_PLANES",
    "FeatureAccess",
    "encode_table",
    "safety_planes",
    "transition_planes",
]

ENCODER: Final = "mzplanes@1"
KINDS: Final = 27
PLANES: Final = 129
SAFETY_PLANES: Final = 3
#: Tile, 11 action types, 4 position changes, 5 player states.
TRANSITION_PLANES: Final = 1 + SUITS108.types + POSITIONS + STATES
#: What a player at the table cannot see: the other hands and the wall (zeroed by "removed").
HIDDEN_PLANES: Final = tuple(range(4, 16)) + tuple(range(64, 74))
FeatureAccess = Literal["full", "removed", "random"]
ACCESS: Final = ("full", "removed", "random")
_PHASES: Final = {"act": 0, "discard": 1, "claim": 2, "rob": 3}
_START: Final = 25_000


def _thermo(out: np.ndarray, at: int, counts: list[int] | np.ndarray) -> None:
    c = np.asarray(counts[:KINDS])
    for level in range(4):
        out[at + level] = c > level


def _counts(tiles: list[int] | tuple[int, ...]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[kind_of(t)] += 1
    return c


def score_interval(score: int) -> int:
    return min(10, max(0, (score - _START + 2_500) // 5_000 + 5))


def encode_table(
    table: Suits108Round,
    seat: int,
    access: FeatureAccess = "full",
    rng: random.Random | None = None,
) -> np.ndarray:
    """The (129, 27) float32 planes of ``table`` seen by ``seat`` with perfect information."""
    out = np.zeros((PLANES, KINDS), dtype=np.float32)
    order = [(seat + r) % 4 for r in range(4)]
    hands: list[list[int]] = [list(table.counts[s]) for s in order]
    wall = table.wall.undrawn()[:10]
    if access == "random":
        hands, wall = _random_hidden(table, seat, order, rng or random.Random(0))
    for r, s in enumerate(order):
        if access == "removed" and r > 0:
            pass
        else:
            _thermo(out, 4 * r, hands[r])
        river = table.rivers[s]
        _thermo(out, 16 + 4 * r, _counts(river))
        for j, t in enumerate(reversed(river[-4:])):
            out[32 + 4 * r + j, kind_of(t)] = 1
        _thermo(out, 48 + 4 * r, _counts([t for m in table.melds[s] for t in m.tiles]))
        out[74 + 11 * r + score_interval(table.scores[s])] = 1
        if table.declared[s]:
            out[120 + r] = 1
    if access != "removed":
        for j, t in enumerate(wall):
            out[64 + j, kind_of(t)] = 1
    if table.drawn is not None and table.turn == seat:
        out[118, kind_of(table.drawn)] = 1
    if table.phase == "claim" and table.last_discard is not None:
        out[119, kind_of(table.last_discard[1])] = 1
    elif table.phase == "rob" and table.kan_in_progress is not None:
        out[119, kind_of(table.kan_in_progress[1])] = 1
    phase = _PHASES.get(table.phase)
    if phase is not None:
        out[124 + phase] = 1
    out[128] = table.wall.remaining / 56.0
    return out


def safety_planes(table: Suits108Round, seat: int) -> np.ndarray:
    """The (3, 27) uint8 safety planes of ``seat`` (see the module docstring)."""
    from tenpai.rules.suits108.safety import passed_kinds

    out = np.zeros((SAFETY_PLANES, KINDS), dtype=np.uint8)
    for r in range(1, 4):
        for k in passed_kinds(table.events, (seat + r) % 4):
            if k < KINDS:
                out[r - 1, k] = 1
    return out


def _random_hidden(
    table: Suits108Round, seat: int, order: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """Other hands and the wall top replaced by a random deal of the tiles ``seat`` cannot
    see (same hand sizes): the "random features" variant of Fig. 7a."""
    hidden = [t for s in order[1:] for t in table.hands[s]] + table.wall.undrawn()
    rng.shuffle(hidden)
    hands = [list(table.counts[seat])]
    at = 0
    for s in order[1:]:
        n = len(table.hands[s])
        hands.append(_counts(hidden[at : at + n]))
        at += n
    return hands, hidden[at : at + 10]


def transition_planes(
    actions: np.ndarray, outcomes: np.ndarray, tables: ActionTables = SUITS108
) -> np.ndarray:
    """Table 2's planes for a batch of (action id, outcome) of ``tables``' rule set: the tile
    kind, the action type, the position change and the next player's state, (B, 1 + types +
    4 + 5, kinds) float32 — (B, 21, 27) for the 108-tile game."""
    b = len(actions)
    at = 1 + tables.types
    out = np.zeros((b, at + POSITIONS + STATES, tables.kinds), dtype=np.float32)
    rows = np.arange(b)
    tiles = tables.tile[actions]
    has = tiles >= 0
    out[rows[has], 0, tiles[has]] = 1
    out[rows, 1 + tables.type[actions], :] = 1
    delta, state = np.divmod(outcomes, STATES)
    out[rows, at + delta, :] = 1
    out[rows, at + POSITIONS + state, :] = 1
    return out

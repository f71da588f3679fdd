"""Action ids, their Table 3 types and the transition information of Table 2.

The search's policy is over a rule set's action ids (docs/env.md): ``suits108_v0``'s 229, or
``riichi_v0``'s 299.  Each id has a type among the paper's ten (Table 3) plus the ready
declaration (riichi) and Riichi's abortive draw, and a tile kind (or none).  Three
types are *dynamic* (Section 3.1.4): after a discard, an added kong or a pass the next player
and what it may do depend on the other hands; the others have a fixed transition.  A
transition is an *outcome* ``o = Δ × STATES + state``: ``Δ`` the change of the player position
variable (0-3, eq. 6's ``T(a)``) and ``state`` the next player's state (Table 2's "additional
player state": own turn, may win, may pong/kong, may chow; plus ``end`` when the hand is over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from tenpai.env.actions import RIICHI_ACTIONS, SUITS108_ACTIONS, ActionSpace
from tenpai.tiles import kind_of

__all__ = [
    "ACTION_TILE",
    "ACTION_TYPE",
    "GROUP",
    "GROUPS",
    "NUM_ACTIONS",
    "OUTCOMES",
    "RIICHI",
    "STATES",
    "STATE_NAMES",
    "SUITS108",
    "TYPE_NAMES",
    "ActionTables",
    "action_tables",
    "fixed_outcome",
    "outcome",
    "split_outcome",
]

#: Table 3's types in the paper's order, then the ready declaration / riichi (not in the
#: paper) and Riichi's abortive nine-terminals draw (which ends the hand).
TYPE_NAMES: Final = (
    "discard", "add_kong", "pass", "closed_kong", "chow_left", "chow_right", "chow_middle",
    "pong", "open_kong", "hu", "ready", "abort",
)
STATE_NAMES: Final = ("turn", "win", "pong_kong", "chow", "end")
TURN, WIN, PONG, CHOW, END = range(5)
STATES: Final = len(STATE_NAMES)
POSITIONS: Final = 4
OUTCOMES: Final = POSITIONS * STATES
_HU, _ABORT = 9, 11


def outcome(delta: int, state: int) -> int:
    return (delta % POSITIONS) * STATES + state


def split_outcome(o: int) -> tuple[int, int]:
    """(Δ, state) of an outcome index."""
    return divmod(o, STATES)


@dataclass(frozen=True, eq=False)
class ActionTables:
    """One rule set's ids seen by the search: each id's type, tile kind and dynamic group.

    Dynamic actions share a transition distribution per *group*: one per discarded kind (from
    the hand or just drawn, red fives with their kind), one per added-kong kind, and the
    pass — ``2 × kinds + 1`` groups.  Every other id has a fixed outcome (:attr:`fixed`)."""

    space: ActionSpace
    kinds: int
    #: How many of :data:`TYPE_NAMES` the rule set uses (the transition planes' type rows).
    types: int
    type: np.ndarray
    tile: np.ndarray
    group: np.ndarray
    fixed: np.ndarray

    @property
    def n(self) -> int:
        return self.space.n

    @property
    def groups(self) -> int:
        return 2 * self.kinds + 1

    @property
    def pass_group(self) -> int:
        return 2 * self.kinds

    @property
    def pass_id(self) -> int:
        return self.space.n - 1

    def fixed_outcome(self, action: int) -> int:
        """The transition of a non-dynamic action: calls, closed kongs and the declaration
        leave the same player to act (Δ 0, own turn); a win or an abortive draw ends the
        hand."""
        if self.group[action] >= 0:
            raise ValueError(f"action {action} is dynamic: its outcome is predicted, not fixed")
        return int(self.fixed[action])


def action_tables(space: ActionSpace, kinds: int, types: int) -> ActionTables:
    """The tables of ``space`` (whose last id must be the pass)."""
    n = space.n
    typ = np.zeros(n, dtype=np.int64)
    tiles = np.full(n, -1, dtype=np.int64)
    group = np.full(n, -1, dtype=np.int64)
    for i, key in enumerate(space.keys):
        kind = str(key[0])
        if kind == "dahai":
            k = kind_of(int(key[1]))
            typ[i], tiles[i], group[i] = 0, k, k
        elif kind == "chi":
            run, pos = int(key[1]), int(key[2])
            low = (run // 7) * 9 + run % 7
            typ[i] = (4, 6, 5)[pos]  # called tile lowest / middle / highest
            tiles[i] = low + pos
        elif kind == "pon":
            typ[i], tiles[i] = 7, int(key[1])
        elif kind == "daiminkan":
            typ[i], tiles[i] = 8, int(key[1])
        elif kind == "ankan":
            typ[i], tiles[i] = 3, int(key[1])
        elif kind == "kakan":
            typ[i], tiles[i], group[i] = 1, int(key[1]), kinds + int(key[1])
        elif kind == "reach":
            typ[i] = 10
        elif kind in ("tsumo", "ron"):
            typ[i] = _HU
        elif kind == "nine_terminals":
            typ[i] = _ABORT
        elif kind == "none":
            typ[i], group[i] = 2, 2 * kinds
        else:  # pragma: no cover - the spaces have no other keys
            raise AssertionError(key)
    if space.keys[-1] != ("none",) or typ.max() >= types:
        raise ValueError(f"{space.name}: the pass must be the last id and types < {types}")
    fixed = np.array(
        [-1 if group[a] >= 0 else outcome(0, END if typ[a] in (_HU, _ABORT) else TURN)
         for a in range(n)], dtype=np.int64)
    return ActionTables(space, kinds, types, typ, tiles, group, fixed)


#: The 108-tile game's tables (the search's first rule set; the names below are its).
SUITS108: Final = action_tables(SUITS108_ACTIONS, 27, 11)
#: Riichi's: 37 tile codes discarded as 34 kinds, red-five call variants, nine terminals.
RIICHI: Final = action_tables(RIICHI_ACTIONS, 34, 12)

SPACE: Final = SUITS108_ACTIONS
NUM_ACTIONS: Final = SPACE.n
GROUPS: Final = SUITS108.groups
PASS_GROUP: Final = SUITS108.pass_group
ACTION_TYPE: Final = SUITS108.type
ACTION_TILE: Final = SUITS108.tile
GROUP: Final = SUITS108.group
FIXED: Final = SUITS108.fixed


def fixed_outcome(action: int) -> int:
    """:meth:`ActionTables.fixed_outcome` of a 108-tile id."""
    return SUITS108.fixed_outcome(action)

"""Action ids, their Table 3 types and the transition information of Table 2.

The search uses ``suits108_v0``'s 229 action ids (docs/env.md) for its policy.  Each id has a
type among the paper's ten (Table 3) plus the ready declaration, and a tile (or none).  Three
types are *dynamic* (Section 3.1.4): after a discard, an added kong or a pass the next player
and what it may do depend on the other hands; the others have a fixed transition.  A
transition is an *outcome* ``o = Δ × STATES + state``: ``Δ`` the change of the player position
variable (0-3, eq. 6's ``T(a)``) and ``state`` the next player's state (Table 2's "additional
player state": own turn, may win, may pong/kong, may chow; plus ``end`` when the hand is over).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.env.actions import SUITS108_ACTIONS

__all__ = [
    "ACTION_TILE",
    "ACTION_TYPE",
    "GROUP",
    "GROUPS",
    "NUM_ACTIONS",
    "OUTCOMES",
    "STATES",
    "STATE_NAMES",
    "TYPE_NAMES",
    "fixed_outcome",
    "outcome",
    "split_outcome",
]

SPACE: Final = SUITS108_ACTIONS
NUM_ACTIONS: Final = SPACE.n
#: Table 3's types in the paper's order, then the ready declaration (not in the paper).
TYPE_NAMES: Final = (
    "discard", "add_kong", "pass", "closed_kong", "chow_left", "chow_right", "chow_middle",
    "pong", "open_kong", "hu", "ready",
)
STATE_NAMES: Final = ("turn", "win", "pong_kong", "chow", "end")
TURN, WIN, PONG, CHOW, END = range(5)
STATES: Final = len(STATE_NAMES)
POSITIONS: Final = 4
OUTCOMES: Final = POSITIONS * STATES
#: Dynamic actions share a transition distribution per group: 27 discard kinds (from the
#: hand or just drawn), 27 added-kong kinds, one pass.
GROUPS: Final = 55
PASS_GROUP: Final = 54


def outcome(delta: int, state: int) -> int:
    return (delta % POSITIONS) * STATES + state


def split_outcome(o: int) -> tuple[int, int]:
    """(Δ, state) of an outcome index."""
    return divmod(o, STATES)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    types = np.zeros(NUM_ACTIONS, dtype=np.int64)
    tiles = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    group = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    for i, key in enumerate(SPACE.keys):
        kind = str(key[0])
        if kind == "dahai":
            types[i], tiles[i], group[i] = 0, int(key[1]), int(key[1])
        elif kind == "chi":
            run, pos = int(key[1]), int(key[2])
            low = (run // 7) * 9 + run % 7
            types[i] = (4, 6, 5)[pos]  # called tile lowest / middle / highest
            tiles[i] = low + pos
        elif kind == "pon":
            types[i], tiles[i] = 7, int(key[1])
        elif kind == "daiminkan":
            types[i], tiles[i] = 8, int(key[1])
        elif kind == "ankan":
            types[i], tiles[i] = 3, int(key[1])
        elif kind == "kakan":
            types[i], tiles[i], group[i] = 1, int(key[1]), 27 + int(key[1])
        elif kind == "reach":
            types[i] = 10
        elif kind in ("tsumo", "ron"):
            types[i] = 9
        elif kind == "none":
            types[i], group[i] = 2, PASS_GROUP
        else:  # pragma: no cover - the space has no other keys
            raise AssertionError(key)
    return types, tiles, group


ACTION_TYPE, ACTION_TILE, GROUP = _tables()


def fixed_outcome(action: int) -> int:
    """The transition of a non-dynamic action: calls, closed kongs and the declaration leave
    the same player to act (Δ 0, own turn); a win ends the hand."""
    if GROUP[action] >= 0:
        raise ValueError(f"action {action} is dynamic: its outcome is predicted, not fixed")
    return outcome(0, END if ACTION_TYPE[action] == 9 else TURN)


#: Outcome of every non-dynamic id (-1 for dynamic ones).
FIXED: Final = np.array(
    [fixed_outcome(a) if GROUP[a] < 0 else -1 for a in range(NUM_ACTIONS)], dtype=np.int64
)

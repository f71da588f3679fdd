"""The paper's action ids: ten action types times 27 tiles (Table 3 and Section 4.4).

The normal agent of the paper outputs 27 x 10 actions.  Its worked examples pin the layout down:
``id = type * 27 + tile`` with the tiles in the order characters 1-9, dots 1-9, bamboo 1-9 and
the types in Table 3's column order, so the 5th action is "discard 6 characters", the 69th
"pass on 7 dots", the 204th "pong 7 dots" and the 258th "Hu on 7 dots".  The ready declaration
is not in the paper's action space (its agent never declares); it gets one extra id, 270.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tenpai.events import Event
from tenpai.tiles import NUM_TILES, is_flower, kind_of

__all__ = [
    "ACTION_TYPES",
    "NUM_ACTIONS",
    "READY_ID",
    "ActionIdError",
    "action_id",
    "decode",
    "legal_ids",
]

#: Table 3's action types in id order.
ACTION_TYPES: Final = (
    "discard",
    "add_kong",
    "pass",
    "closed_kong",
    "chow_left",
    "chow_right",
    "chow_middle",
    "pong",
    "open_kong",
    "hu",
)
#: The extra id of the ready declaration (mjai ``reach``), after the paper's 270.
READY_ID: Final = 270
NUM_ACTIONS: Final = 271

_SIMPLE = {
    "dahai": 0,
    "kakan": 1,
    "none": 2,
    "ankan": 3,
    "pon": 7,
    "daiminkan": 8,
    "hora": 9,
}


class ActionIdError(ValueError):
    """An event or id with no place in the action space; the message says which."""


def action_id(e: Event, pass_tile: int | None = None) -> int:
    """The id of a legal action.  A pass (``none``) needs the tile it lets go: ``pass_tile``.

    Chow types say where the claimed tile sits in the run: ``chow_left`` when it is the lowest
    tile, ``chow_middle`` in the middle, ``chow_right`` the highest.
    """
    if e.type == "reach":
        return READY_ID
    if e.type == "chi":
        if e.pai is None or len(e.consumed) != 2:
            raise ActionIdError(f"a chi needs a tile and two consumed tiles: {e.to_mjai()}")
        k = kind_of(e.pai)
        others = sorted(kind_of(t) for t in e.consumed)
        t = 4 if k < others[0] else (5 if k > others[1] else 6)
        return t * 27 + k
    if e.type not in _SIMPLE:
        raise ActionIdError(f"{e.type} is not an action of the 108-tile game")
    if e.type == "none":
        if pass_tile is None:
            raise ActionIdError("a pass needs the tile it passes on (pass_tile)")
        tile = pass_tile
    elif e.type == "ankan":
        tile = e.consumed[0] if e.consumed else -1
    else:
        tile = e.pai if e.pai is not None else -1
    if not 0 <= tile < NUM_TILES or is_flower(tile) or kind_of(tile) >= 27:
        raise ActionIdError(f"{e.type} needs a suited tile, got {tile}")
    return _SIMPLE[e.type] * 27 + kind_of(tile)


def legal_ids(legal: Sequence[Event]) -> dict[int, Event]:
    """Each legal action by id (the first event of an id wins: a hand discard before the
    same tile drawn).  A pass takes the tile of the claims offered beside it."""
    pass_tile = next((e.pai for e in legal if e.type != "none" and e.pai is not None), None)
    out: dict[int, Event] = {}
    for e in legal:
        out.setdefault(action_id(e, pass_tile), e)
    return out


def decode(ident: int, legal: Sequence[Event]) -> Event:
    """The legal event with id ``ident``; ActionIdError if none has it."""
    table = legal_ids(legal)
    try:
        return table[ident]
    except KeyError:
        raise ActionIdError(
            f"action id {ident} is not legal here; legal: {sorted(table)}"
        ) from None

"""``s108planes`` v1: count rows over the 27 suited kinds of the 108-tile game, shape (17, 27).

Same convention as the Riichi plane encoders (docs/encoders.md): every channel is a row of
counts 0-4 (a marked row or a 0/1 plane is a row of fours), so a model can expand it into
Gao-style 4-cell planes.  Seats are relative to the viewer (self, right, across, left).

====  =================================================================
0     own concealed hand
1     the tile just drawn (marked row; empty when not deciding after a draw)
2-5   melds: self, right, across, left (every tile, the called one included)
6-9   discards: self, right, across, left (tiles others called left out)
10    unseen copies (4 minus hand, melds and discards)
11-14 ready declared: self, right, across, left (0/1 planes)
15    the tile offered in a claim window (marked row)
16    own waits when the hand is ready (marked rows; empty on one's own turn)
====  =================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

from tenpai.tiles import kind_of

if TYPE_CHECKING:
    from tenpai.rules.suits108.observation import Suits108Observation

__all__ = ["CHANNELS", "NAME", "SHAPE", "VERSION", "Suits108View", "encode", "view_of"]

NAME: Final = "s108planes"
VERSION: Final = 1
KINDS: Final = 27
SHAPE: Final = (17, KINDS)
FULL: Final = 4
_SEATS: Final = ("self", "right", "across", "left")

CHANNELS: Final = (
    "hand",
    "drawn",
    *(f"melds_{s}" for s in _SEATS),
    *(f"river_{s}" for s in _SEATS),
    "unseen",
    *(f"ready_{s}" for s in _SEATS),
    "offered",
    "waits",
)


@dataclass(frozen=True, slots=True)
class Suits108View:
    """What one seat knows, as 27-count tuples with seats relative to the viewer."""

    hand: tuple[int, ...]
    melds: tuple[tuple[int, ...], ...]
    rivers: tuple[tuple[int, ...], ...]
    declared: tuple[bool, ...]
    waits: tuple[int, ...]
    drawn: int | None = None
    offered: int | None = None


def view_of(obs: Suits108Observation, *, drawn: int | None, offered: int | None) -> Suits108View:
    """The view of the engine's observation; ``drawn``/``offered`` are kinds from the decision.

    Rivers leave out called tiles: each open meld names its called tile and the seat it came
    from, so that copy is taken off that seat's river (it is counted in the caller's melds).
    """
    seat = obs.seat
    order = [(seat + r) % 4 for r in range(4)]
    hand = [0] * KINDS
    for t in obs.hand:
        hand[kind_of(t)] += 1
    melds = [[0] * KINDS for _ in range(4)]
    rivers = [[0] * KINDS for _ in range(4)]
    for s, river in enumerate(obs.rivers):
        for t in river:
            rivers[s][kind_of(t)] += 1
    for s, ms in enumerate(obs.melds):
        for m in ms:
            for t in m.tiles:
                melds[s][kind_of(t)] += 1
            if m.called is not None and m.target is not None:
                rivers[m.target][kind_of(m.called)] -= 1
    declared = obs.declared
    return Suits108View(
        hand=tuple(hand),
        melds=tuple(tuple(melds[s]) for s in order),
        rivers=tuple(tuple(rivers[s]) for s in order),
        declared=tuple(declared[s] for s in order),
        waits=tuple(obs.own_waits),
        drawn=drawn,
        offered=offered,
    )


def fill(view: Suits108View, out: np.ndarray) -> None:
    """Write the channels of the module docstring into ``out`` (shape :data:`SHAPE`, zeros)."""
    out[0] = view.hand
    if view.drawn is not None:
        out[1, view.drawn] = FULL
    for rel in range(4):
        out[2 + rel] = view.melds[rel]
        out[6 + rel] = view.rivers[rel]
        if view.declared[rel]:
            out[11 + rel] = FULL
    seen = out[0].astype(np.int16) + out[2:10].sum(axis=0, dtype=np.int16)
    out[10] = np.clip(FULL - seen, 0, FULL)
    if view.offered is not None:
        out[15, view.offered] = FULL
    for k in view.waits:
        out[16, k] = FULL


def encode(view: Suits108View) -> np.ndarray:
    """The ``uint8`` planes of one view."""
    out = np.zeros(SHAPE, dtype=np.uint8)
    fill(view, out)
    return out

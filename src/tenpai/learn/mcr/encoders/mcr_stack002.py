"""Seed 002's stacked 34-unit input (the IJCAI Chinese Standard Mahjong report) on MCR views.

Every channel is a *count row* over the 34 kinds (0-4); the network expands row ``c`` into
Gao-style 4-cell planes (``tenpai.models.planes.expand``), which is 002's "4 units per card
information".  Flowers have no channel (002 omits them).  Channels:

====  ===========================================================
0     own concealed hand
1-4   melds: self, right, across, left
5-8   discards: self, right, across, left (claimed tiles left out)
9     unseen copies of each kind (4 minus everything visible)
10    prevalent wind (full row on its kind)
11    own seat wind (full row)
12    best division: tiles in complete sets
13    best division: the pair
14    best division: partial sets
15    best division: isolated tiles
16    ting (ready) state: full plane when the hand is ready (14 tiles: after some discard)
17    one step from ready: full plane when MCR shanten ≤ 1
18    the tile being claimed (full row; empty outside claim windows)
====  ===========================================================

002 found the ting unit the single most useful addition; shanten here is MCR's (standard,
seven pairs, thirteen orphans, knitted forms) from :func:`tenpai.hand.shanten_mcr`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numpy as np

from tenpai.hand import shanten_mcr
from tenpai.learn.encoders.base import Encoder
from tenpai.learn.mcr.division import best_division
from tenpai.learn.mcr.state import MCRView

NAME: Final = "mcr_stack002"
VERSION: Final = 1
SHAPE: Final = (19, 34)
FULL: Final = 4
_SEATS: Final = ("self", "right", "across", "left")


@lru_cache(maxsize=100_000)
def _shanten(hand: tuple[int, ...]) -> int:
    return shanten_mcr(list(hand))


def fill(view: MCRView, out: np.ndarray) -> None:
    out[0] = view.hand
    for rel in range(4):
        out[1 + rel] = view.melds[rel]
        out[5 + rel] = view.rivers[rel]
    out[9] = view.unseen()
    out[10, 27 + view.prevalent_wind] = FULL
    out[11, 27 + view.seat_wind] = FULL
    for row, counts in enumerate(best_division(view.hand)):
        out[12 + row] = counts
    if sum(view.hand) % 3 != 0:
        s = _shanten(view.hand)
        if s <= 0:
            out[16] = FULL
        if s <= 1:
            out[17] = FULL
    if view.offered is not None:
        out[18, view.offered] = FULL


CHANNELS: Final = (
    "hand",
    *(f"melds_{s}" for s in _SEATS),
    *(f"river_{s}" for s in _SEATS),
    "unseen",
    "prevalent_wind",
    "seat_wind",
    "division_sets",
    "division_pair",
    "division_partials",
    "division_isolated",
    "ting",
    "one_from_ting",
    "offered",
)

ENCODER: Final = Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

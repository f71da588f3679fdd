"""``s108`` v1: count-row planes for the 108-tile rules — shape (43, 34).

The 108-tile rules have no honours, no dora and no red fives, so the Riichi planes for those
would stay empty; this encoder keeps what the game has and reuses the shared builders for the
rest.  Rows are over the 34 kinds (honour columns always zero) so the plane networks, the suit
augmentation and suit averaging apply unchanged.

====  ===========================================================
0     own concealed hand
1-4   rivers: self, right, across, left (claimed tiles left out)
5-8   melds: self, right, across, left
9-11  ready declared by right, across, left (0/1 planes)
12-15 rank (one-hot 0/1 planes, 0 = leading)
16-19 hand of the game (one-hot 0/1 planes, first … fourth)
20-23 efficiency: discard shanten, discard ukeire, shanten, effective draws
      (:mod:`tenpai.learn.encoders.efficiency`)
24-32 past 1: hand, 4 rivers, 4 melds (the seat's previous turn)
33-41 past 2
42    the tile being claimed (full row; empty outside claim windows)
====  ===========================================================
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import base, efficiency
from tenpai.learn.state import SeatView

NAME: Final = "s108"
VERSION: Final = 1
SHAPE: Final = (43, 34)
_SEATS: Final = ("self", "right", "across", "left")


def fill(view: SeatView, out: np.ndarray) -> None:
    out[0] = view.hand
    for rel in range(4):
        out[1 + rel] = view.rivers[rel]
        out[5 + rel] = view.melds[rel]
    for rel in range(1, 4):
        if view.riichi[rel]:
            out[8 + rel] = base.FULL
    out[12 + view.rank] = base.FULL
    out[16 + min(view.kyoku, 3)] = base.FULL
    at = efficiency.fill_efficiency(view, out, 20)
    at = base.fill_past(view, out, at, 1, full=False)
    at = base.fill_past(view, out, at, 2, full=False)
    base.fill_offered(view, out, at)


CHANNELS: Final = (
    "hand",
    *(f"river_{s}" for s in _SEATS),
    *(f"melds_{s}" for s in _SEATS),
    *(f"declared_{s}" for s in _SEATS[1:]),
    *(f"rank_{i}" for i in range(4)),
    *(f"hand_{i + 1}" for i in range(4)),
    *efficiency.CHANNEL_NAMES,
    *base.past_names(1, False),
    *base.past_names(2, False),
    "offered",
)

ENCODER: Final = base.Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

"""Gao's 56 planes (thesis 004, Table 4.1) plus one offered-tile plane: shape (57, 34).

Channels: the present situation (hand, aka, 4 rivers, 4 melds, dora indicators, the three
other players' riichi, round wind, own wind) then four past situations — the seat's previous
turns — of 13, 9, 9 and 9 planes.  Channel 56 is tenpai's extension: the tile offered in a
claim window (empty for discard and riichi decisions, so a discard model sees Gao's 56).
Seats are relative to the player (self, right, across, left).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import base
from tenpai.learn.state import SeatView

NAME: Final = "gao56"
VERSION: Final = 1
SHAPE: Final = (57, 34)


def fill(view: SeatView, out: np.ndarray) -> None:
    at = base.fill_present(view, out)
    at = base.fill_winds(view, out, at)
    at = base.fill_past(view, out, at, 1, full=True)
    for depth in (2, 3, 4):
        at = base.fill_past(view, out, at, depth, full=False)
    base.fill_offered(view, out, at)


CHANNELS: Final = tuple(
    base.present_names()
    + ["round_wind", "own_wind"]
    + base.past_names(1, True)
    + [n for d in (2, 3, 4) for n in base.past_names(d, False)]
    + ["offered"]
)

ENCODER: Final = base.Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

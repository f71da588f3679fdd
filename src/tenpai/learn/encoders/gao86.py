"""Gao's 86 planes (thesis 004, §6.4) plus one offered-tile plane: shape (87, 34).

``gao68`` with two more past situations (the 5th and 6th previous turns, 9 planes each) —
the thesis' best discard model (70.44 % top-1).  Channel 86 is the offered tile of a claim.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import base
from tenpai.learn.state import SeatView

NAME: Final = "gao86"
VERSION: Final = 1
SHAPE: Final = (87, 34)


def fill(view: SeatView, out: np.ndarray) -> None:
    at = base.fill_present(view, out)
    at = base.fill_rank_and_round(view, out, at)
    at = base.fill_winds(view, out, at)
    at = base.fill_past(view, out, at, 1, full=True)
    for depth in (2, 3, 4, 5, 6):
        at = base.fill_past(view, out, at, depth, full=False)
    base.fill_offered(view, out, at)


CHANNELS: Final = tuple(
    base.present_names()
    + base.rank_round_names()
    + ["round_wind", "own_wind"]
    + base.past_names(1, True)
    + [n for d in (2, 3, 4, 5, 6) for n in base.past_names(d, False)]
    + ["offered"]
)

ENCODER: Final = base.Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

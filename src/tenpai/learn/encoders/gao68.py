"""Gao's 68 planes (thesis 004, Table 6.1) plus one offered-tile plane: shape (69, 34).

Table 4.1's present planes, then rank (4 one-hot 0/1 planes, 0 = leading) and kyoku (8
one-hot 0/1 planes, East 1 … South 4; later rounds count as South 4), round and own wind,
and the same four past situations as ``gao56``.  Channel 68 is the offered tile of a claim.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import base
from tenpai.learn.state import SeatView

NAME: Final = "gao68"
VERSION: Final = 1
SHAPE: Final = (69, 34)


def fill(view: SeatView, out: np.ndarray) -> None:
    at = base.fill_present(view, out)
    at = base.fill_rank_and_round(view, out, at)
    at = base.fill_winds(view, out, at)
    at = base.fill_past(view, out, at, 1, full=True)
    for depth in (2, 3, 4):
        at = base.fill_past(view, out, at, depth, full=False)
    base.fill_offered(view, out, at)


CHANNELS: Final = tuple(
    base.present_names()
    + base.rank_round_names()
    + ["round_wind", "own_wind"]
    + base.past_names(1, True)
    + [n for d in (2, 3, 4) for n in base.past_names(d, False)]
    + ["offered"]
)

ENCODER: Final = base.Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

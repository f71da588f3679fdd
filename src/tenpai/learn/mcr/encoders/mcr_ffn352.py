"""Seed 003's 352-number input (the MahjongGB FFN report) on MCR views.

Nine 34-count vectors — own concealed hand, the four players' melds, the four players'
discards — then each player's number of chows, pungs and kongs (4 × 3), then a one-hot of the
tile being claimed (all zero outside a claim window): 9·34 + 12 + 34 = 352.  Seats relative
(self, right, across, left).  Flowers are left out, as in the report (they never form a hand).
The report's discard net read the first 318 numbers; claim nets need the last 34, and one
shape for every head keeps the pipeline simple.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders.base import Encoder
from tenpai.learn.mcr.state import MCRView

NAME: Final = "mcr_ffn352"
VERSION: Final = 1
SHAPE: Final = (352,)
_SEATS: Final = ("self", "right", "across", "left")


def fill(view: MCRView, out: np.ndarray) -> None:
    out[0:34] = view.hand
    for rel in range(4):
        out[34 * (1 + rel): 34 * (2 + rel)] = view.melds[rel]
        out[34 * (5 + rel): 34 * (6 + rel)] = view.rivers[rel]
        out[306 + 3 * rel: 309 + 3 * rel] = view.meld_types[rel]
    if view.offered is not None:
        out[318 + view.offered] = 1


CHANNELS: Final = tuple(
    ["hand[34]"]
    + [f"melds_{s}[34]" for s in _SEATS]
    + [f"river_{s}[34]" for s in _SEATS]
    + [f"calls_{s}[chow,pung,kong]" for s in _SEATS]
    + ["offered_onehot[34]"]
)

ENCODER: Final = Encoder(NAME, VERSION, "vector", SHAPE, CHANNELS, fill)

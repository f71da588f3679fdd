"""The 352-number vector of the MahjongGB FFN report (seed 003), applied to Riichi views.

Nine 34-count vectors — own hand, the four players' melds, the four players' discards — then
the number of chi, pon and kan calls of each player (4 × 3), then a one-hot of the tile being
claimed (the "last discard", all zero outside a claim window): 9·34 + 12 + 34 = 352.  Seats
are relative (self, right, across, left).  No history, winds or scores: the report found the
order of play mattered little, and this encoder exists to reproduce its baseline.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import base
from tenpai.learn.state import SeatView

NAME: Final = "ffn352"
VERSION: Final = 1
SHAPE: Final = (352,)
_SEATS: Final = ("self", "right", "across", "left")


def fill(view: SeatView, out: np.ndarray) -> None:
    out[0:34] = view.hand
    for rel in range(4):
        out[34 * (1 + rel) : 34 * (2 + rel)] = view.melds[rel]
        out[34 * (5 + rel) : 34 * (6 + rel)] = view.rivers[rel]
        out[306 + 3 * rel : 309 + 3 * rel] = view.meld_types[rel]
    if view.offered is not None:
        out[318 + view.offered] = 1


CHANNELS: Final = tuple(
    ["hand[34]"]
    + [f"melds_{s}[34]" for s in _SEATS]
    + [f"river_{s}[34]" for s in _SEATS]
    + [f"calls_{s}[chi,pon,kan]" for s in _SEATS]
    + ["offered_onehot[34]"]
)

ENCODER: Final = base.Encoder(NAME, VERSION, "vector", SHAPE, CHANNELS, fill)

"""Seed 003's 352-number input (the MahjongGB FFN report) on MCR views.

Nine 34-count vectors — own concealed hand, the four players' melds, the four players'
discards — then each player's number of chows, pungs and kongs (4 × 3), then a one-hot of the
tile being claimed (all zero outside a claim window): 9·34 + 12 + 34 = 352.  Seats relative
(self, right, across, left).  Flowers are left out, as in the report (they never form a hand).
The report's discard net read the first 318 numbers; claim nets need the last 34, and one
shape for every head keeps the pipeline simple.  The layout is the Riichi ``ffn352``'s, filled
by its :func:`~tenpai.learn.encoders.ffn352.fill` (an MCR view has the same fields).
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.base import Encoder
from tenpai.learn.encoders.ffn352 import channels, fill

NAME: Final = "mcr_ffn352"
VERSION: Final = 1
SHAPE: Final = (352,)
CHANNELS: Final = channels("chow,pung,kong")

ENCODER: Final = Encoder(NAME, VERSION, "vector", SHAPE, CHANNELS, fill)

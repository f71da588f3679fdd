"""Gao's 86 planes (thesis 004, §6.4) plus one offered-tile plane: shape (87, 34).

``gao68`` with two more past situations (the 5th and 6th previous turns, 9 planes each) —
the thesis' best discard model (70.44 % top-1).  Channel 86 is the offered tile of a claim.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders import base

NAME: Final = "gao86"
VERSION: Final = 1
ENCODER: Final = base.gao_planes(NAME, VERSION, rank_and_round=True, past_turns=6)
SHAPE: Final = ENCODER.shape
CHANNELS: Final = ENCODER.channels
fill: Final = ENCODER.fill

"""Gao's 68 planes (thesis 004, Table 6.1) plus one offered-tile plane: shape (69, 34).

Table 4.1's present planes, then rank (4 one-hot 0/1 planes, 0 = leading) and kyoku (8
one-hot 0/1 planes, East 1 … South 4; later rounds count as South 4), round and own wind,
and the same four past situations as ``gao56``.  Channel 68 is the offered tile of a claim.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders import base

NAME: Final = "gao68"
VERSION: Final = 1
ENCODER: Final = base.gao_planes(NAME, VERSION, rank_and_round=True, past_turns=4)
SHAPE: Final = ENCODER.shape
CHANNELS: Final = ENCODER.channels
fill: Final = ENCODER.fill

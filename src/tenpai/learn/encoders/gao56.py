"""Gao's 56 planes (thesis 004, Table 4.1) plus one offered-tile plane: shape (57, 34).

Channels: the present situation (hand, aka, 4 rivers, 4 melds, dora indicators, the three
other players' riichi, round wind, own wind) then four past situations — the seat's previous
turns — of 13, 9, 9 and 9 planes.  Channel 56 is tenpai's extension: the tile offered in a
claim window (empty for discard and riichi decisions, so a discard model sees Gao's 56).
Seats are relative to the player (self, right, across, left).
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders import base

NAME: Final = "gao56"
VERSION: Final = 1
ENCODER: Final = base.gao_planes(NAME, VERSION, rank_and_round=False, past_turns=4)
SHAPE: Final = ENCODER.shape
CHANNELS: Final = ENCODER.channels
fill: Final = ENCODER.fill

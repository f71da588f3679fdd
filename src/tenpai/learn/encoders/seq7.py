"""``gao86e``'s 91 channels rearranged as a sequence of seven turns: the input of ``seq_gru``.

Thesis 004 ch. 5 feeds a GRU one situation per turn of the round instead of stacking past
situations as planes.  Here the same information as ``gao86e`` is reordered so that a
sequential model reads it step by step and the comparison with the CNN changes one thing only,
the network (docs/learning_runs.md, issue-19 ablation):

* channels 0-62: seven steps of nine rows each, oldest first — the seat's 6th … 1st previous
  turn, then now — every step holding the hand, the four rivers and the four melds
  (``pastK_hand`` … ``pastK_melds_left``; all zero before the round's start);
* channels 63-90: what is not a per-turn picture (red fives, dora indicators, riichi, rank and
  round, winds, the previous turn's dora and riichi, the offered tile, the four efficiency rows),
  in ``gao86e``'s order.

The tracker keeps six past turns (``tenpai.learn.state.MAX_HISTORY``), so the sequence is the
last seven turns, not Gao's whole round (at most 22 steps); most discards come before the
eighth turn of a hand (the note gives the share).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import gao86e
from tenpai.learn.encoders.base import Encoder
from tenpai.learn.state import SeatView

__all__ = ["CONTEXT", "ENCODER", "STEPS", "STEP_CHANNELS"]

NAME: Final = "seq7"
VERSION: Final = 1
STEPS: Final = 7
_STEP_ROWS: Final = (
    "hand",
    *(f"river_{r}" for r in ("self", "right", "across", "left")),
    *(f"melds_{r}" for r in ("self", "right", "across", "left")),
)
STEP_CHANNELS: Final = len(_STEP_ROWS)
_STEP_NAMES: Final = tuple(
    f"past{d}_{row}" if d else row for d in range(STEPS - 1, -1, -1) for row in _STEP_ROWS
)
CONTEXT: Final = tuple(n for n in gao86e.CHANNELS if n not in _STEP_NAMES)
CHANNELS: Final = _STEP_NAMES + CONTEXT
SHAPE: Final = (len(CHANNELS), 34)
_ORDER: Final = np.array([gao86e.CHANNELS.index(n) for n in CHANNELS])


def fill(view: SeatView, out: np.ndarray) -> None:
    rows = np.zeros(gao86e.SHAPE, dtype=np.uint8)
    gao86e.fill(view, rows)
    out[:] = rows[_ORDER]


ENCODER: Final = Encoder(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

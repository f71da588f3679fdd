"""``gao86`` plus four hand-efficiency channels: shape (91, 34).

Channels 0-86 are exactly ``gao86``'s (Gao's 86 planes and the offered tile); channels 87-90
are :mod:`tenpai.learn.encoders.efficiency`'s shanten and effective-tile rows.  This is
tenpai's own extension, not a thesis encoder: the small CPU-trained discard net reaches a
higher agreement with it than with Gao's planes alone (docs/learning.md has the figures).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.encoders import efficiency, gao86
from tenpai.learn.state import SeatView

NAME: Final = "gao86e"
VERSION: Final = 1
SHAPE: Final = (gao86.SHAPE[0] + efficiency.WIDTH, 34)


def fill(view: SeatView, out: np.ndarray) -> None:
    gao86.fill(view, out)
    efficiency.fill_efficiency(view, out, gao86.SHAPE[0])


CHANNELS: Final = gao86.CHANNELS + efficiency.CHANNEL_NAMES

ENCODER: Final = gao86.ENCODER.__class__(NAME, VERSION, "planes", SHAPE, CHANNELS, fill)

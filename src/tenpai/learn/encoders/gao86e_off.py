"""``gao86e`` plus every off-table group (16 rows): an issue-19 ablation encoder.

See :mod:`tenpai.learn.encoders.extended` for how it is composed and docs/encoders.md for the
rows.  Frozen like every encoder: a change is a new version.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.extended import extended

NAME: Final = "gao86e_off"
VERSION: Final = 1
ENCODER: Final = extended(NAME, VERSION, ("scores", "context", "riichi"))
SHAPE: Final = ENCODER.shape
CHANNELS: Final = ENCODER.channels

"""The 81 MCR fans, one small class each, grouped by theme.

``FANS`` is the official table in order (1 大四喜 … 81 花牌); ``FAN_BY_NUMBER`` and
``FAN_BY_NAME`` (Chinese or English name) look classes up.
"""

from __future__ import annotations

from tenpai.rules.mcr.fans import chows, honors, pungs, situation, special_shapes, suits
from tenpai.rules.mcr.fans.base import REGISTRY, Fan

__all__ = ["FANS", "FAN_BY_NAME", "FAN_BY_NUMBER", "Fan"]

_MODULES = (chows, honors, pungs, situation, special_shapes, suits)

FANS: tuple[type[Fan], ...] = tuple(REGISTRY[n] for n in sorted(REGISTRY))
FAN_BY_NUMBER: dict[int, type[Fan]] = {f.number: f for f in FANS}
FAN_BY_NAME: dict[str, type[Fan]] = {f.zh: f for f in FANS} | {f.en: f for f in FANS}

if len(FANS) != 81:  # pragma: no cover - a missing class is a programming error
    raise RuntimeError(f"the MCR fan table has {len(FANS)} entries, expected 81")

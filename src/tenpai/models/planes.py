"""Turn stored count rows into Gao's 34×4 binary planes on the fly.

Shards keep one 0-4 count per (channel, kind) (see :mod:`tenpai.learn.encoders.base`); cell
``j`` of a row is set when the count exceeds ``j``, which is exactly Gao's left-filled plane.
"""

from __future__ import annotations

import torch

__all__ = ["expand"]

_STEPS = torch.arange(4, dtype=torch.uint8)


def expand(rows: torch.Tensor) -> torch.Tensor:
    """(B, C, 34) counts → (B, C, 34, 4) float planes."""
    return (rows.unsqueeze(-1) > _STEPS.to(rows.device)).float()

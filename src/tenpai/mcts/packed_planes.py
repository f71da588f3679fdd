"""How the search's input planes are stored: ``uint8``, a quarter of the float size.

The replay buffer, the checkpoints and every training (the search model's, the warm start's,
dropout learning's) keep planes packed by :func:`pack` and read them back with :func:`unpack`;
the agents pack what they record.  One level below all of them, so none imports another for it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pack", "unpack"]


def pack(planes: np.ndarray, scale: float = 56.0) -> np.ndarray:
    """Planes as ``uint8``: every plane is 0/1 except the wall fraction, stored × the rule
    set's wall size (56 live tiles in the 108-tile game, 70 in Riichi)."""
    out: np.ndarray = planes.copy()
    out[-1] *= scale
    packed: np.ndarray = np.rint(out).astype(np.uint8)
    return packed


def unpack(planes: np.ndarray, scale: float = 56.0) -> np.ndarray:
    """The float planes back from :func:`pack`."""
    out = planes.astype(np.float32)
    out[..., -1, :] /= scale
    return out

"""Suit relabelling: the cheapest sixfold enlargement of a Riichi dataset.

The rules treat the three suits alike (only the all-green yakuman singles out bamboo, and it
is far too rare to matter), so a decision with characters and dots swapped everywhere — hand,
rivers, melds, dora indicators, red fives, the offered tile, the label — is just as good a
decision.  Every plane encoder here indexes its last axis by the 34 kinds, so relabelling is a
gather along that axis.  Each sample of a training batch gets one of the six suit orders at
random; dev and test data are never touched.

Honours stay where they are, and the order of numbers inside a suit is kept: turning 1-9 into
9-1 is *not* a symmetry (the dora after a 9 indicator is the 1).
"""

from __future__ import annotations

import numpy as np

from tenpai.learn.shards import Batch
from tenpai.models.suit_orders import SUIT_ORDERS

__all__ = ["AUGMENTS", "SUIT_ORDERS", "relabel_suits"]

AUGMENTS = ("none", "suits")


_INVERSE = np.argsort(SUIT_ORDERS, axis=1)


def relabel_suits(b: Batch, rng: np.random.Generator, kind_labels: bool) -> Batch:
    """The batch with each sample's suits relabelled by a random order.

    ``x`` must be (B, C, 34) count rows.  ``kind_labels`` says the classes are the 34 kinds (the
    discard head): then labels and legal masks move with the tiles; otherwise (calls, riichi)
    only the inputs change.
    """
    if b.x.ndim != 3 or b.x.shape[-1] != 34:
        raise ValueError(f"suit relabelling needs (batch, channels, 34) planes, got {b.x.shape}")
    pick = rng.integers(0, len(SUIT_ORDERS), size=len(b.y))
    order = SUIT_ORDERS[pick]  # (B, 34)
    x = np.take_along_axis(b.x, order[:, None, :], axis=2)
    if not kind_labels:
        return Batch(x, b.y, b.legal)
    legal = np.take_along_axis(b.legal, order, axis=1)
    y = _INVERSE[pick, b.y]
    return Batch(x, y, legal)

"""The six orders of the three suits, as gathers along a 34-kind axis.

The rules treat the suits alike, so a position with characters and dots swapped is as good as
the original: training enlarges its data with these orders (:mod:`tenpai.train.augment`) and
inference can average a head over them (:meth:`tenpai.models.bundle.ModelBundle.logits`).
The table lives here, beside the models, because both of those read it and the models layer
must not reach up into training.

Honours stay where they are, and the order of numbers inside a suit is kept: turning 1-9 into
9-1 is *not* a symmetry (the dora after a 9 indicator is the 1).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

__all__ = ["SUIT_ORDERS"]


def _orders() -> np.ndarray:
    """(6, 34): row r maps a relabelled kind to the kind it is read from (identity first)."""
    rows = []
    for perm in permutations(range(3)):
        row = list(range(34))
        for new_suit, old_suit in enumerate(perm):
            for n in range(9):
                row[new_suit * 9 + n] = old_suit * 9 + n
        rows.append(row)
    return np.asarray(rows, dtype=np.intp)


SUIT_ORDERS = _orders()

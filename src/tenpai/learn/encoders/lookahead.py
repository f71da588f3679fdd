"""Look-ahead rows in the spirit of Suphx: what each candidate discard leaves the hand.

``gao86e``'s efficiency rows (:mod:`tenpai.learn.encoders.efficiency`) tell the network which
discards keep the best shanten and rank their effective tiles *relative to the best one*.
Suphx's look-ahead features go further: absolute numbers per discard — how far from tenpai
the hand would be, how many unseen tiles would then improve it, how many different kinds —
and whether it would still be worth something.  These rows add exactly that, per kind in the
hand of a ``3k+2`` decision (discard, riichi); they are empty for ``3k+1`` hands (claim
windows), where the efficiency rows already show the effective draws.

Rows (count rows 0-4, 0 for kinds not held):

``la_shanten``
    shanten after discarding the kind, absolute: 4 tenpai, 3 one away, 2 two, 1 three or more.
``la_ukeire_lo`` / ``la_ukeire_hi``
    the unseen copies of every kind whose draw would then lower the shanten (ukeire, 0 … 80):
    ``min(4, u // 4)`` and ``min(4, max(0, u - 16) // 8)`` — fine steps for small counts,
    coarse ones up to 48.
``la_kinds`` / ``la_kinds_hi``
    how many *different* improving kinds still have a copy unseen (a tenpai hand's number of
    live waits): ``min(4, n)`` and ``min(4, n // 4)``.
``la_dora``
    dora left in the hand (concealed tiles, red fives, own melds) after the discard, capped at 4.
``la_tanyao``
    4 − the terminals and honours left in the concealed hand (capped), 0 when an own meld
    already holds one: how close the hand stays to all-simples, the cheapest yaku.

Both shanten quantities come from one compiled :func:`tenpai.hand.efficiency.discard_draws`
call each (with the unseen counts as weights, then with 0/1 weights), the kernel the
efficiency rows use; no second shanten implementation.  Cost: docs/encoders.md.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.hand.efficiency import discard_draws
from tenpai.learn.encoders.efficiency import _unseen
from tenpai.learn.state import SeatView
from tenpai.tiles import dora_from_indicator

__all__ = ["CHANNEL_NAMES", "WIDTH", "fill_lookahead"]

CHANNEL_NAMES: Final = (
    "la_shanten",
    "la_ukeire_lo",
    "la_ukeire_hi",
    "la_kinds",
    "la_kinds_hi",
    "la_dora",
    "la_tanyao",
)
WIDTH: Final = len(CHANNEL_NAMES)
_YAOCHU: Final = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})
_FIVES: Final = (4, 13, 22)


def fill_lookahead(view: SeatView, out: np.ndarray, at: int) -> int:
    """Write the seven rows at ``out[at:at + 7]``; returns the next free channel."""
    hand = bytes(view.hand)
    if sum(hand) % 3 != 2:
        return at + WIDTH
    left = _unseen(view)
    after, totals = discard_draws(hand, left)
    _, kinds = discard_draws(hand, [1 if n > 0 else 0 for n in left])
    dora_kinds = [dora_from_indicator(k) for k in range(34) for _ in range(view.dora[k])]
    dora_now = sum(hand[d] + view.melds[0][d] for d in dora_kinds) + sum(view.red)
    meld_yaochu = any(view.melds[0][k] for k in _YAOCHU)
    yaochu_now = sum(hand[k] for k in _YAOCHU)
    for k in range(34):
        if not hand[k]:
            continue
        out[at, k] = 4 - min(max(after[k], 0), 3)
        u = totals[k]
        out[at + 1, k] = min(4, u // 4)
        out[at + 2, k] = min(4, max(0, u - 16) // 8)
        n = kinds[k]
        out[at + 3, k] = min(4, n)
        out[at + 4, k] = min(4, n // 4)
        dora = dora_now - dora_kinds.count(k)
        # The agent keeps a red five when a plain copy can go: only an all-red holding loses
        # its red by this discard.
        if k in _FIVES and hand[k] == view.red[_FIVES.index(k)]:
            dora -= 1
        out[at + 5, k] = min(4, max(dora, 0))
        if not meld_yaochu:
            out[at + 6, k] = 4 - min(4, yaochu_now - (k in _YAOCHU))
    return at + WIDTH

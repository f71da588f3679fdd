"""Hand-efficiency channels: what each discard does to the shanten and the effective tiles.

A small network trained on a few hundred thousand decisions has to rediscover shanten counting
from raw tile counts, and mostly does so poorly: most of the gap between a human's discard and
a weak model's is a discard that plainly loses tile efficiency.  These channels hand it the
answer the table-driven analyser computes in microseconds, the way strong Riichi bots feed
their nets shanten features, so the net's capacity goes to reading the table (danger, value,
pace) instead.  Every channel is a count row (0-4), like Gao's planes, and depends only on the
viewer's own hand and the tiles it can see.

Channels, for a view whose hand has ``3k+2`` tiles (a discard or riichi decision):

``discard_shanten``
    for each kind in hand: 4 when discarding it keeps the best reachable shanten, 3 when it is
    one step worse, 2 two steps, 1 further; 0 for kinds not in hand.
``discard_ukeire``
    for the kinds whose discard keeps the best shanten: the effective tiles left afterwards
    (4 - own - visible copies, summed over the kinds that would lower the shanten) relative to
    the best such discard: 4 for ≥ 100 %, 3 for ≥ 75 %, 2 for ≥ 50 %, else 1.
``shanten``
    a full row: 4 tenpai (or better), 3 one from tenpai, 2 two, 1 three or more — after the best
    discard for ``3k+2`` hands, as held for ``3k+1`` hands (claim windows).
``effective``
    for ``3k+1`` hands only: each kind whose draw would lower the shanten, valued by its copies
    still unseen (a kind with no copy left shows 0 like any other).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.hand import shanten as riichi_shanten
from tenpai.hand.efficiency import discard_draws, draw_shanten
from tenpai.learn.state import SeatView

__all__ = ["CHANNEL_NAMES", "WIDTH", "fill_efficiency"]

CHANNEL_NAMES: Final = ("discard_shanten", "discard_ukeire", "shanten", "effective")
WIDTH: Final = len(CHANNEL_NAMES)


def _unseen(view: SeatView) -> list[int]:
    """Copies of each kind the viewer has not seen (own hand, rivers, melds, dora indicators).

    Column sums over the ten count vectors with ``zip`` (once a 34 x 4 Python loop that cost
    more per decision than the compiled shanten rows it feeds).
    """
    r, m = view.rivers, view.melds
    seen = map(sum, zip(view.hand, view.dora, r[0], r[1], r[2], r[3], m[0], m[1], m[2], m[3]))
    return [4 - s if s < 4 else 0 for s in seen]


def _shanten_row(shanten: int) -> int:
    return 4 - min(max(shanten, 0), 3)


def fill_efficiency(view: SeatView, out: np.ndarray, at: int) -> int:
    """Write the four channels at ``out[at:at + 4]``; returns the next free channel."""
    efficiency_rows(bytes(view.hand), _unseen(view), out, at)
    return at + WIDTH


def efficiency_rows(hand: bytes, left: list[int], out: np.ndarray, at: int) -> None:
    """The four channels from the concealed hand's counts and the unseen copies per kind.

    Split from :func:`fill_efficiency` so shards of an encoder that already stores those
    counts (``gao86``) can gain the channels without replaying the records.
    """
    n = sum(hand)
    if n % 3 == 2:
        # One call for every discard and every draw after it (compiled when built): the
        # ~500 shanten evaluations per decision were most of batched self-play's time.
        after, totals = discard_draws(hand, left)
        shanten = {k: after[k] for k in range(34) if hand[k]}
        ukeire = {k: totals[k] for k in shanten}
        best = min(shanten.values())
        top = max(u for k, u in ukeire.items() if shanten[k] == best)
        for k, s in shanten.items():
            out[at, k] = max(1, 4 - (s - best))
            if s == best:
                u = ukeire[k]
                if top == 0 or u >= top:
                    out[at + 1, k] = 4
                elif 4 * u >= 3 * top:
                    out[at + 1, k] = 3
                elif 2 * u >= top:
                    out[at + 1, k] = 2
                else:
                    out[at + 1, k] = 1
        out[at + 2] = _shanten_row(best)
    elif n % 3 == 1:
        # The public shanten: compiled for bytes too (the private riichi_raw is pure Python).
        s = riichi_shanten(hand)
        out[at + 2] = _shanten_row(s)
        for k, v in enumerate(draw_shanten(hand)):
            if v < s:
                out[at + 3, k] = left[k]

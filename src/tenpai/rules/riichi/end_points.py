"""Tenhou's end-of-game points (the ``owari`` figures of a record), for three and four players.

Why one function: the arena writes them into its saved records and the Tenhou-protocol table
sends them to its clients, and both must read like a real Tenhou record.  The rule below is
the one every Houou record of the corpus follows (``tests/rules/test_end_points.py`` checks the
four-player hanchan lobby, GO type 169, and the three-player one, 185, game by game):

* each final score is rounded to thousands, halves away from zero (24,500 → 25; −500 → −1);
* minus the return (``target_points``: 30,000 at four players, 40,000 at three), in thousands;
* plus the rank bonus (uma) for 2nd and below: +10 / −10 / −20 at four players, 0 / −20 at three;
* the top takes whatever makes the table sum to zero (the return's surplus and the uma).

Ties go to the seat nearer the first dealer (seat order), as Tenhou ranks them.  Older lobbies
with another uma (2009's tonpuu rooms, 5 / −5 / −10) are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["UMA", "tenhou_end_points"]

#: Rank bonus for 2nd place and below, by table size.
UMA: Final = {4: (10, -10, -20), 3: (0, -20)}


def _thousands(score: int) -> int:
    """``score`` in thousands, halves away from zero (Tenhou's rounding of final scores)."""
    k = (abs(score) + 500) // 1000
    return k if score >= 0 else -k


def tenhou_end_points(scores: Sequence[int], target_points: int) -> tuple[float, ...]:
    """The end points of a game that finished with ``scores`` (seat order)."""
    n = len(scores)
    if n not in UMA:
        raise ValueError(f"Tenhou end points are for 3 or 4 players, got {n} scores")
    order = sorted(range(n), key=lambda s: (-scores[s], s))
    out = [0] * n
    for rank, seat in enumerate(order[1:]):
        out[seat] = _thousands(scores[seat]) - target_points // 1000 + UMA[n][rank]
    out[order[0]] = -sum(out)
    return tuple(float(p) for p in out)

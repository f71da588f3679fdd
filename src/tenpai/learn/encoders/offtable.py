"""Off-table channels (thesis 004, ch. 6): scores, round context and the riichi count as rows.

Gao kept only rank and kyoku (Table 6.1) because "specific number values such as riichi stick
number and scores are very difficult to include"; he tried a side tensor and saw no gain.  These
groups try again in the count-row form every plane encoder uses, each group separately so its
own gain can be measured (docs/learning_runs.md, the issue-19 ablation):

``scores`` (:data:`SCORE_NAMES`, 9 rows)
    four *thermometers* — the 136 cells of a 34×4 plane filled left to right, one cell per 500
    points (0 … 68,000) — for self, right, across, left; three centred thermometers of the gap
    own − other (cell 68 is a tie, one cell per 500 points, ±34,000); and two constant rows
    for the distance to the player just above and just below (levels 4 … 0 at ≤ 1,000,
    ≤ 4,000, ≤ 8,000, ≤ 16,000, further or no such player), which decide most placement fights.
``context`` (:data:`CONTEXT_NAMES`, 5 rows)
    dealer (a full plane), honba and riichi sticks on the table (constant rows, level = count
    capped at 4), and the live wall: a thermometer of one cell per remaining tile plus a
    constant level row (``wall // 18``, 0-3, 4 for a full wall).
``riichi`` (:data:`RIICHI_NAMES`, 2 rows)
    the number of other players in riichi (constant level 0-3) and whether the dealer is among
    them (full plane; a dealer's riichi costs half again).

A constant row is seen at every kind, which suits convolutions along the kinds; a thermometer
keeps finer resolution (the final dense layer reads where it ends).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from tenpai.learn.state import SeatView

__all__ = [
    "CONTEXT_NAMES",
    "RIICHI_NAMES",
    "SCORE_NAMES",
    "fill_context",
    "fill_riichi",
    "fill_scores",
    "thermometer",
]

SCORE_NAMES: Final = (
    "score_self",
    "score_right",
    "score_across",
    "score_left",
    "gap_right",
    "gap_across",
    "gap_left",
    "gap_above",
    "gap_below",
)
CONTEXT_NAMES: Final = ("dealer", "honba", "riichi_sticks", "wall_cells", "wall_level")
RIICHI_NAMES: Final = ("riichi_count", "riichi_dealer")

_CELLS: Final = 136
_POINTS_PER_CELL: Final = 500
_GAP_LEVELS: Final = (1000, 4000, 8000, 16000)


def thermometer(row: np.ndarray, cells: int) -> None:
    """Fill ``cells`` of the row's 136 cells from the left (kind 0 first, four cells a kind)."""
    cells = min(max(cells, 0), _CELLS)
    full, rest = divmod(cells, 4)
    row[:full] = 4
    if rest and full < 34:
        row[full] = rest


def _gap_level(gap: int | None) -> int:
    if gap is None:
        return 0
    for level, bound in zip((4, 3, 2, 1), _GAP_LEVELS):
        if gap <= bound:
            return level
    return 0


def fill_scores(view: SeatView, out: np.ndarray, at: int) -> int:
    """The nine score rows at ``out[at:]``; returns the next free channel."""
    scores = view.scores
    for rel in range(4):
        thermometer(out[at + rel], scores[rel] // _POINTS_PER_CELL)
    mine = scores[0]
    for rel in range(1, 4):
        thermometer(out[at + 3 + rel], _CELLS // 2 + (mine - scores[rel]) // _POINTS_PER_CELL)
    above = [s - mine for s in scores[1:] if s > mine]
    below = [mine - s for s in scores[1:] if s < mine]
    out[at + 7] = _gap_level(min(above) if above else None)
    out[at + 8] = _gap_level(min(below) if below else None)
    return at + len(SCORE_NAMES)


def fill_context(view: SeatView, out: np.ndarray, at: int) -> int:
    """Dealer, honba, riichi sticks and the live wall at ``out[at:]``."""
    if view.seat_wind == 0:
        out[at] = 4
    out[at + 1] = min(view.honba, 4)
    out[at + 2] = min(view.kyotaku, 4)
    wall = max(view.wall_remaining, 0)
    thermometer(out[at + 3], wall)
    out[at + 4] = min(wall // 18, 4)
    return at + len(CONTEXT_NAMES)


def fill_riichi(view: SeatView, out: np.ndarray, at: int) -> int:
    """How many others are in riichi, and whether the dealer is one of them."""
    others = [rel for rel in range(1, 4) if view.riichi[rel]]
    out[at] = len(others)
    # Relative seat ``rel`` is the dealer when its seat wind is East: own wind + rel ≡ 0 (mod 4).
    if any((view.seat_wind + rel) % 4 == 0 for rel in others):
        out[at + 1] = 4
    return at + len(RIICHI_NAMES)

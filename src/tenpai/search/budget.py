"""Time and seeds of one searched decision, shared by the Riichi and the MCR search.

A world is the unit of time: the budget is checked before each world and the first is always
played, so a decision overruns its budget by at most one world's playouts.  The clock is the
wall clock (think time at a real table) or this process's CPU time (measurements on a shared
machine).  World seeds are a pure function of the agent's seed and the decision's place in the
game, so a decision's search is reproducible whenever the worlds cap binds before the budget.
"""

from __future__ import annotations

import time

from tenpai.engine.wall import SplitMix64

__all__ = ["Budget", "decision_seed"]


class Budget:
    """The deadline of one decision on the chosen clock ("wall" or "cpu")."""

    __slots__ = ("clock", "deadline")

    def __init__(self, budget_ms: float, clock: str) -> None:
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        self.deadline = self.clock() + budget_ms / 1000.0

    def spent(self, played: int) -> bool:
        """Whether to stop before another world (never before the first)."""
        return played > 0 and self.clock() >= self.deadline


def decision_seed(seed: int, hand: int, events: int, seat: int, index: int) -> int:
    """The seed of world ``index`` of the decision of ``seat`` after ``events`` events of hand
    ``hand`` (a 31-bit number from SplitMix64 of the agent seed and that place)."""
    key = (((hand * 1009 + events) * 7 + seat) * 4099 + index)
    return SplitMix64(seed * 0x9E3779B1 + key).next() & 0x7FFFFFFF

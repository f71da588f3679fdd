"""The race: a target's completion probability weighted by the chance the hand is still on.

The planner's probability of a target (:mod:`tenpai.rules.mcr.plan.odds`) is that of
completing within *all* the draws left, so a target that completes at the player's next draw
and one that needs every remaining draw count the same.  Against fast opponents the late one
is usually too late: another seat wins first.  The race-weighted probability counts a
completion at the player's own draw ``t`` (from now) only as far as no other seat has won
before it:

    race = Σ_t [P(t) − P(t − 1)] · S(t)

with ``P(t)`` the planner's own probability of completing within ``t`` draws (either model:
draws only or draws and claims) and ``S(t)`` the survival of the hand from now to that draw.
It is computed in the summed-by-parts form ``P(D)·S(D) + Σ_{t<D} P(t)·(S(t) − S(t + 1))``,
so with ``S ≡ 1`` it is ``P(D)`` exactly, and no ``P(t)`` is needed where the survival does
not change.

**The survival** is a table by the player's own draw ``j`` (counted from the start of the
hand): ``Surv(j)``, the share of hands still on at that draw, Kaplan-Meier over the planner's
hands against three greedy Botzone bots (:data:`BOTS_SURVIVAL`); from draw ``d`` on,
``S(t) = Surv(d + t) / Surv(d)``.  ``python -m tenpai.bench.mcr_race_survival`` prints it
from a results file, beside the one-parameter rising hazard it was weighed against
(docs/mcr_strength_runs.md says why the table).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

__all__ = ["BOTS_SURVIVAL", "BOTZONE_WALL", "RaceError", "check_table", "race_probability",
           "survival"]

#: Draws a seat has in a Botzone hand (per-seat walls of 21 tiles); the draw a player is at
#: is this minus its draws left.
BOTZONE_WALL = 21

#: ``Surv(j)`` for own draws j = 0 … 21 (Kaplan-Meier, 80 hands of the planner against three
#: greedy bots, 48 of them won by a bot; development walls of seed 4160,
#: /work/runs/s25/h43b/diag_4160.db): ``python -m tenpai.bench.mcr_race_survival
#: /work/runs/s25/h43b/diag_4160.db`` prints it.
BOTS_SURVIVAL: tuple[float, ...] = (
    1.0, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 0.949, 0.861, 0.834, 0.752, 0.696, 0.655,
    0.640, 0.593, 0.494, 0.451, 0.404, 0.332, 0.212, 0.159, 0.159)


class RaceError(ValueError):
    """A survival table or a draw count that describes no race."""


def check_table(table: tuple[float, ...]) -> None:
    """A survival table starts at 1, never rises and stays above 0 (one line if not)."""
    if not table or table[0] != 1.0 or any(not 0.0 < b <= a for a, b in pairwise(table)):
        raise RaceError(f"a survival table starts at 1.0 and falls, staying above 0: {table}")


@lru_cache(maxsize=1 << 12)
def survival(table: tuple[float, ...], drawn: int, draws: int) -> tuple[float, ...]:
    """``S(0) … S(draws)``: the chance that no other seat has won before the player's ``t``-th
    draw from now, having made ``drawn`` draws so far (draws past the table's end keep its
    last figure)."""
    if drawn < 0 or draws < 0:
        raise RaceError(f"drawn {drawn} and draws {draws} must not be negative")
    last = len(table) - 1
    now = table[min(drawn, last)]
    return tuple(table[min(drawn + t, last)] / now for t in range(draws + 1))


def race_probability(probability_within: Callable[[int], float], total: float, draws: int,
                     drawn: int, table: tuple[float, ...], first: int = 0) -> float:
    """Σ_t [P(t) − P(t − 1)] · S(t) for t = 0 … ``draws`` (``P(−1) = 0``).

    ``probability_within(t)`` is ``P(t)``; ``total`` is ``P(draws)`` (the caller has it);
    ``first`` is the fewest draws with ``P > 0`` (the tiles still needed, under draws only),
    below which nothing is asked.  A table of ones returns ``total`` itself.
    """
    s = survival(table, drawn, draws)
    race = total * s[draws]
    for t in range(first, draws):
        drop = s[t] - s[t + 1]
        if drop != 0.0:
            race += probability_within(t) * drop
    return race

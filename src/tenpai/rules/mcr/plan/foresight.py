"""Targets valued by a known order of the player's own draws: a bound, not a player.

The planner values a target by the chance its needed tiles turn up (:mod:`.odds`).  Under
Botzone's per-seat walls the player's own draws are a fixed sequence nobody else's play
changes (a call skips a draw, it does not take one from the wall), so a player that knew the
sequence would know, for every target, the own draw at which it completes: the first ``t``
with every needed tile among the next ``t`` draws.  Holding the target's tiles costs nothing
in the meantime — a hand about to discard lets go one surplus tile per needed tile drawn.

What that knowledge is worth depends on how soon: a target completed at the player's 3rd draw
from now and one at its 18th both complete, but against fast opponents the late one is
usually too late.  So a target's figure here is its value with the probability replaced by
the survival of the hand to that draw (:mod:`.race`: the chance no other seat has won before
it, :data:`~tenpai.rules.mcr.plan.race.BOTS_SURVIVAL` by default).  A target completed by an
own draw is self-drawn, so one that reaches 8 fans only when self-drawn is not discounted.

Completion on an opponent's discard (a win or a call) is not foreseen: the bound is that of
foresight of the player's *own* draws (``TENPAI_PLANNER_SIGHT=draws``,
:mod:`tenpai.agents.planner_sight`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tenpai.rules.mcr.plan.race import BOTS_SURVIVAL, survival
from tenpai.rules.mcr.plan.targets import (
    DEFAULT_VALUATION,
    Candidate,
    PlanState,
    Target,
    Valuation,
    best_of,
    candidates,
    kept_rankings,
    score,
)

__all__ = ["completion_draw", "foresight_best", "foresight_by_discard"]


def completion_draw(needed: Sequence[tuple[int, int]], draws: Sequence[int]) -> int | None:
    """The number of the player's next draws (kinds, in order) that bring every needed
    ``(kind, copies)``; 0 when nothing is needed, None when the draws never do."""
    want = dict(needed)
    left = sum(want.values())
    if left == 0:
        return 0
    for i, kind in enumerate(draws):
        if want.get(kind, 0) > 0:
            want[kind] -= 1
            left -= 1
            if left == 0:
                return i + 1
    return None


def foresight_by_discard(
    state: PlanState, draws: Sequence[int], valuation: Valuation = DEFAULT_VALUATION,
    table: tuple[float, ...] = BOTS_SURVIVAL,
) -> dict[int, Target]:
    """For each kind in a hand, the target whose discard-keeping completion the known
    ``draws`` bring soonest in value: survival to its completing draw × (win base + fans).

    The targets returned carry that survival as their ``probability`` (so ``value`` is the
    figure ranked by) and are marked as not self-draw-only (they complete on an own draw).
    Candidates are the planner's own (:func:`~tenpai.rules.mcr.plan.candidates`), counted in
    order of survival, and one is skipped when even :func:`fan_cap` fans could not lift it
    above what every kind it lets go already keeps (as :func:`best_by_discard` does).
    """
    ranked = kept_rankings(state, _completing(state, draws, table), valuation, 1, _self_drawn)
    return {k: r[0] for k, r in ranked.items()}


def foresight_best(
    state: PlanState, draws: Sequence[int], valuation: Valuation = DEFAULT_VALUATION,
    table: tuple[float, ...] = BOTS_SURVIVAL,
) -> Target | None:
    """The most valuable target of a hand (one waiting for a tile, say) under the known
    ``draws``, valued as :func:`foresight_by_discard` values them; None when none completes."""
    return best_of(state, _completing(state, draws, table), valuation, _self_drawn)


def _completing(state: PlanState, draws: Sequence[int],
                table: tuple[float, ...]) -> list[Candidate]:
    """The candidates the draws complete, each with the survival of the hand to its
    completing draw as its probability, likeliest to be in time first (then the sooner)."""
    s = survival(table, state.drawn, len(draws))
    rows = []
    for c in candidates(state):
        t = completion_draw(c.needed, draws)
        if t is not None:
            rows.append((t, replace(c, probability=s[t])))
    rows.sort(key=lambda r: (-r[1].probability, r[0]))
    return [c for _t, c in rows]


def _self_drawn(state: PlanState, c: Candidate, excess: tuple[tuple[int, int], ...] | None,
                valuation: Valuation) -> Target | None:
    """The candidate scored at its (survival) probability; completed by an own draw, it is
    self-drawn, so a hand that needs the self-draw for 8 fans is not discounted."""
    target = score(state, c, excess, valuation)
    return None if target is None else replace(target, self_draw_only=False)

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
    FAN_CAP,
    Candidate,
    PlanState,
    Target,
    Valuation,
    candidates,
    fan_cap,
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
    hand = state.concealed
    rows = _completing(state, draws, table)
    floor = {k: 0.0 for k in range(34) if hand[k]}
    best: dict[int, Target] = {}
    for p, _t, c in rows:
        top = valuation.ceiling(p, fan_cap(c))
        if top <= min(floor.values()):
            if fan_cap(c) == FAN_CAP:
                break
            continue
        excess = c.excess_of(hand)
        if all(top <= floor[k] for k, _ in excess):
            continue
        target = _scored(state, c, p, valuation, excess)
        if target is None:
            continue
        v = target.value
        for k, _ in excess:
            if v > floor[k]:
                best[k] = target
                floor[k] = v
    return best


def foresight_best(
    state: PlanState, draws: Sequence[int], valuation: Valuation = DEFAULT_VALUATION,
    table: tuple[float, ...] = BOTS_SURVIVAL,
) -> Target | None:
    """The most valuable target of a hand (one waiting for a tile, say) under the known
    ``draws``, valued as :func:`foresight_by_discard` values them; None when none completes."""
    best: Target | None = None
    floor = 0.0
    for p, _t, c in _completing(state, draws, table):
        if valuation.ceiling(p, fan_cap(c)) <= floor:
            if fan_cap(c) == FAN_CAP:
                break
            continue
        target = _scored(state, c, p, valuation)
        if target is not None and target.value > floor:
            best, floor = target, target.value
    return best


def _completing(state: PlanState, draws: Sequence[int],
                table: tuple[float, ...]) -> list[tuple[float, int, Candidate]]:
    """The candidates the draws complete, as (survival to the completing draw, that draw,
    candidate), likeliest to be in time first."""
    s = survival(table, state.drawn, len(draws))
    rows = []
    for c in candidates(state):
        t = completion_draw(c.needed, draws)
        if t is not None:
            rows.append((s[t], t, c))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


def _scored(state: PlanState, c: Candidate, p: float, valuation: Valuation,
            excess: tuple[tuple[int, int], ...] | None = None) -> Target | None:
    """The candidate scored with the survival ``p`` as its probability; completed by an own
    draw, it is self-drawn, so a hand that needs the self-draw for 8 fans is not discounted."""
    target = score(state, replace(c, probability=p), excess, valuation)
    return None if target is None else replace(target, self_draw_only=False)

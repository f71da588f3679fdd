"""The vine estimator for ``pg_planner``: each chosen decision's answers compared on the same deal.

Why: REINFORCE (:mod:`tenpai.rl.planner_pg`'s default) credits every sampled answer of a game with
the game's score.  Three registered runs of it (960 and 4,096 training games, with and without the
opponents' readiness among the features) never separated from the planner
(docs/mcr_strength_runs.md), and the greedy head left the planner on 0.3-1.6 % of decisions: the
score of a hand is mostly the luck of the walls and the other seats, and one answer among the
twenty or so a hand takes moves it little.  The vine procedure (Schulman et al. 2015, *Trust
Region Policy Optimization*, sec. 5.2; the Riichi version is :mod:`tenpai.rl.vine`) asks instead
what *each* of several answers would have scored at one decision of one real table:

1. **Trunk.**  The current head plays the deal greedily in its seats against ``planner`` seats,
   exactly as the learning curve and the registered evaluations play it.
2. **Branch points.**  ``states`` of the trunk's learner decisions that have a choice (two
   candidate answers or more), uniformly by reservoir sampling, each kept as a snapshot of the
   table taken before the answer (:func:`tenpai.engine.snapshot.clone`).
3. **Branches.**  At each branch point the greedy answer and ``alternatives`` others, drawn
   without replacement from the head's softmax at ``temperature`` (Gumbel top-k), are played: a
   copy of the snapshot takes the answer and every seat then plays on, greedily, with agents
   made afresh from the trunk's seeds, to the end of the hand (a Botzone game is one hand).
   ``Q`` = the seat's Botzone score / ``scale``.  The Botzone walls are per seat and fixed by the
   deal, and every agent is a deterministic function of what it sees, so the branches differ
   *only* by the one answer and what follows from it: common random numbers, with no resampled
   world and no policy other than the ones that will be evaluated.  The greedy answer's ``Q`` is
   the trunk's own (a test replays it as a branch and finds the same score).
4. **Gradient.**  ``A_k = Q_k − mean_k Q`` over the answers played at a point; the ascent
   direction is ``mean over points Σ_k A_k ∇ log π(a_k)``, and for logits ``w · f / T`` that is
   ``Σ_k A_k f(a_k) / T`` (the softmax's mean feature cancels since ``Σ_k A_k = 0``).

The branches are drawn from the softmax, not weighted by it, so the direction is the Riichi
vine's approximation of the policy improvement, not an unbiased gradient; with the planner's
weight frozen (the default) it moves the other weights toward the features of the answers that
scored above the point's mean.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from tenpai.agents.pg_planner import (
    CALL_FEATURES,
    DISCARD_FEATURES,
    Decision,
    PGPlannerAgent,
    PlannerHead,
)
from tenpai.agents.planner import PlannerAgent
from tenpai.arena.games import make_game
from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.engine.runner import play
from tenpai.engine.snapshot import clone
from tenpai.events import Event

__all__ = ["BranchPoint", "VineDeal", "play_vine_deal", "vine_gradient"]

_OPTIONS: Final = {"preset": "botzone"}


@dataclass(slots=True)
class BranchPoint:
    """One kept learner decision: its candidates, the answers played (the greedy one first) and
    each one's ``Q``."""

    seat: int
    decision: Decision
    answers: list[int]
    q: list[float]


@dataclass(slots=True)
class VineDeal:
    """A deal's trunk and branches: the points, the trunk's final scores, and counts."""

    points: list[BranchPoint]
    trunk_scores: tuple[int, ...]
    decisions: int = 0
    branches: int = 0
    departures: int = 0


@dataclass(slots=True)
class _Kept:
    order: int
    seat: int
    decision: Decision
    greedy: int
    snapshot: GameFlow
    others: dict[int, Event] = field(default_factory=dict)


def _agents(head: PlannerHead, mine: Sequence[int], seeds: Callable[[int], int],
            record: bool) -> tuple[list[Agent], dict[int, PGPlannerAgent]]:
    learners = {s: PGPlannerAgent(head, seeds(s), record=record) for s in mine}
    agents: list[Agent] = [learners[s] if s in learners else PlannerAgent(seeds(s))
                           for s in range(4)]
    return agents, learners


def play_vine_deal(
    head: PlannerHead,
    deal_seed: int,
    mine: Sequence[int],
    seeds: Callable[[int], int],
    *,
    states: int,
    alternatives: int,
    temperature: float,
    scale: float,
    rng: np.random.Generator,
    replay_greedy: bool = False,
) -> VineDeal:
    """The trunk of ``deal_seed`` (the greedy head in ``mine``, ``planner`` elsewhere, each
    seat's agent seeded by ``seeds(seat)``) and the branches of up to ``states`` of its learner
    decisions.  ``replay_greedy`` also plays the greedy answer as a branch (its ``Q`` then comes
    from the branch, which the tests compare with the trunk's)."""
    names = ["pg_planner" if s in mine else "planner" for s in range(4)]
    game = make_game("mcr", deal_seed, names, _OPTIONS)
    agents, learners = _agents(head, mine, seeds, record=True)
    kept: list[_Kept] = []
    seen = 0
    while not game.done:
        answers: dict[int, Event] = {}
        offered: list[tuple[int, Decision, int]] = []
        for d in game.pending():
            a = agents[d.seat]
            before = len(learners[d.seat].trace) if d.seat in learners else 0
            answers[d.seat] = a.act(d.observation, d.legal)
            if d.seat in learners and len(learners[d.seat].trace) > before:
                decision, i = learners[d.seat].trace[-1]
                offered.append((d.seat, decision, i))
        for seat, decision, i in offered:
            # reservoir sampling (Vitter's R): every decision with a choice is kept with the
            # same probability without knowing the game's length
            slot = seen if seen < states else int(rng.integers(0, seen + 1))
            if slot < states:
                k = _Kept(seen, seat, decision, i, clone(game),
                          {s: e for s, e in answers.items() if s != seat})
                if seen < states:
                    kept.append(k)
                else:
                    kept[slot] = k
            seen += 1
        game.step(answers)
    trunk = tuple(game.final_scores)
    out = VineDeal([], trunk)
    out.decisions = sum(a.decisions for a in learners.values())
    out.departures = sum(a.departures for a in learners.values())
    for k in sorted(kept, key=lambda k: k.order):
        n = len(k.decision.actions)
        p = head.probabilities(k.decision, temperature)
        keys = np.log(np.maximum(p, 1e-300)) + rng.gumbel(size=n)
        keys[k.greedy] = -np.inf
        alts = [int(a) for a in np.argsort(-keys, kind="stable")[: min(alternatives, n - 1)]]
        point = BranchPoint(k.seat, k.decision, [k.greedy, *alts], [trunk[k.seat] / scale])
        for slot, answer in enumerate(point.answers):
            if slot == 0 and not replay_greedy:
                continue
            branch = clone(k.snapshot)
            fresh, _ = _agents(head, mine, seeds, record=False)
            step = dict(k.others)
            step[k.seat] = k.decision.actions[answer]
            branch.step(step)
            play(branch, fresh)
            q = branch.final_scores[k.seat] / scale
            if slot == 0:
                point.q[0] = q
            else:
                point.q.append(q)
            out.branches += 1
        out.points.append(point)
    return out


def vine_gradient(points: Sequence[BranchPoint], temperature: float) -> np.ndarray:
    """The mean over ``points`` of ``Σ_k A_k f(a_k) / T`` as one vector (discard weights, then
    call weights); see the module docstring."""
    nd = len(DISCARD_FEATURES)
    g = np.zeros(nd + len(CALL_FEATURES))
    for pt in points:
        q = np.asarray(pt.q, dtype=np.float64)
        adv = q - q.mean()
        rows: Any = pt.decision.features[pt.answers]
        part = adv @ rows / temperature
        if pt.decision.kind == "discard":
            g[:nd] += part
        else:
            g[nd:] += part
    return g / max(1, len(points))

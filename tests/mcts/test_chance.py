"""Outcomes as chance (the expectation over the other players' answers) versus the paper's
literal edges per outcome, and the Q of unvisited actions, on hand-made positions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from tenpai import tiles as T
from tenpai.env.actions import SUITS108_ACTIONS as SPACE
from tenpai.events import Event
from tenpai.mcts.actions import GROUP, GROUPS, NUM_ACTIONS, OUTCOMES, STATES, TURN, WIN, outcome
from tenpai.mcts.search import Evaluation, Node, SearchConfig, SearchRequest, run_searches

RISKY = SPACE.event_to_action(Event("dahai", actor=0, pai=T.parse("5m")[0], tsumogiri=False))
SAFE = SPACE.event_to_action(Event("dahai", actor=0, pai=T.parse("9s")[0], tsumogiri=False))
RON = SPACE.event_to_action(Event("hora", actor=1, target=0, pai=T.parse("5m")[0]))


class DealInEvaluator:
    """Discarding 5m lets the next player win with probability ``risk`` (it always does);
    9s never.  Priors uniform, values 0, reward +1 / -1 to the winner / the discarder."""

    def __init__(self, risk: float) -> None:
        self.risk = risk

    def _eval(self, b: int, states: list[Any], policy: np.ndarray,
              reward: np.ndarray | None) -> Evaluation:
        trans = np.full((b, GROUPS, OUTCOMES), -30.0)
        trans[:, :, outcome(1, TURN)] = 0.0
        g = GROUP[RISKY]
        trans[:, g, outcome(1, TURN)] = math.log(1 - self.risk)
        trans[:, g, outcome(1, WIN)] = math.log(self.risk)
        return Evaluation(states, policy, trans, np.zeros((b, 4)), reward)

    def initial(self, planes: np.ndarray) -> Evaluation:
        return self._eval(len(planes), [None] * len(planes),
                          np.zeros((len(planes), NUM_ACTIONS)), None)

    def recurrent(self, states: Sequence[Any], actions: np.ndarray,
                  outcomes: np.ndarray) -> Evaluation:
        b = len(actions)
        policy = np.zeros((b, NUM_ACTIONS))
        reward = np.zeros((b, 4))
        for i, (a, o) in enumerate(zip(actions, outcomes)):
            if o % STATES == WIN:
                policy[i, RON] = 20.0  # the winner always takes it
            if a == RON:
                reward[i] = (1.0, 0.0, 0.0, -1.0)  # actor first; the discarder is 3 after
        return self._eval(b, list(states), policy, reward)


def _visits(cfg: SearchConfig, risk: float) -> np.ndarray:
    req = SearchRequest(np.zeros((129, 27), np.float32), np.array(sorted([RISKY, SAFE])),
                        np.random.default_rng(0))
    (res,) = run_searches(DealInEvaluator(risk), [req], cfg)
    return res.visits


def test_chance_outcomes_avoid_a_likely_deal_in() -> None:
    v = _visits(SearchConfig(simulations=120, outcomes="chance"), risk=0.4)
    assert v[SAFE] > 3 * v[RISKY]
    assert int(np.argmax(v)) == SAFE


def test_literal_outcome_edges_are_optimistic() -> None:
    """The paper's reading lets the discarder 'choose' the 60 % where nobody wins: the risky
    discard keeps about as many visits as the safe one."""
    v = _visits(SearchConfig(simulations=120, outcomes="choose"), risk=0.4)
    assert v[RISKY] > 0.6 * v[SAFE]


def test_chance_outcome_visits_follow_q() -> None:
    """Within an action the outcomes are visited in proportion to q (here while the win edge
    is explored at all, i.e. with a zero-risk alternative absent)."""
    req = SearchRequest(np.zeros((129, 27), np.float32), np.array([RISKY]),
                        np.random.default_rng(0))
    (res,) = run_searches(DealInEvaluator(0.3), [req],
                          SearchConfig(simulations=101, outcomes="chance"))
    root = res.root
    n = {int(o): float(c) for o, c in zip(root.outcomes, root.n)}
    assert n[outcome(1, WIN)] == pytest.approx(30, abs=1)
    assert n[outcome(1, TURN)] == pytest.approx(70, abs=1)


def test_unvisited_q_zero_or_parent() -> None:
    """A node whose player expects -0.5: after one visit at -0.3, the paper's Q = 0 for the
    untried action makes it win the next pick; with "parent" the tried action is kept."""
    node = Node(0)
    node.value = np.array([-0.5, 0.2, 0.2, 0.1])
    node.actions = np.array([SAFE, RISKY])
    node.outcomes = np.array([outcome(1, TURN), outcome(1, TURN)])
    node.prior = np.array([0.9, 0.1])
    node.n = np.array([1.0, 0.0])
    node.w = np.array([-0.3, 0.0])
    node.children = [None, None]
    node.set_groups()
    for mode in ("choose", "chance"):
        assert node.select(0.1, SearchConfig(unvisited="zero", outcomes=mode)) == 1
        assert node.select(0.1, SearchConfig(unvisited="parent", outcomes=mode)) == 0


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="outcomes"):
        SearchConfig(outcomes="pick")
    with pytest.raises(ValueError, match="unvisited"):
        SearchConfig(unvisited="mean")

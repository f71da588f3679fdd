"""The multiplayer search on small hand-made positions (seed 000, eqs. 2 and 5-9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from tenpai import tiles as T
from tenpai.env.actions import SUITS108_ACTIONS as SPACE
from tenpai.events import Event
from tenpai.mcts.actions import (
    CHOW,
    END,
    GROUPS,
    NUM_ACTIONS,
    OUTCOMES,
    PONG,
    TURN,
    WIN,
    fixed_outcome,
    outcome,
)
from tenpai.mcts.features import encode_table
from tenpai.mcts.model import MCTSModel, ModelCard, NetEvaluator
from tenpai.mcts.search import (
    Evaluation,
    Node,
    SearchConfig,
    SearchRequest,
    _backup,
    run_searches,
    shifted_value,
)
from tenpai.rules.suits108 import PAPER, TILESET, Suits108Wall
from tenpai.rules.suits108.round import Suits108Round

DISCARD_5M = SPACE.event_to_action(Event("dahai", actor=0, pai=T.parse("5m")[0], tsumogiri=False))
CHI_345M = SPACE.event_to_action(
    Event("chi", actor=1, target=0, pai=T.parse("5m")[0], consumed=tuple(T.parse("34m")))
)
PON_5M = SPACE.event_to_action(
    Event("pon", actor=1, target=0, pai=T.parse("5m")[0], consumed=tuple(T.parse("55m")))
)
KAN_5M = SPACE.event_to_action(
    Event("daiminkan", actor=1, target=0, pai=T.parse("5m")[0], consumed=tuple(T.parse("555m")))
)
RON = SPACE.event_to_action(Event("hora", actor=1, target=0, pai=T.parse("5m")[0]))
TSUMO = SPACE.event_to_action(Event("hora", actor=1, target=1, pai=T.parse("5m")[0]))
PASS = SPACE.event_to_action(Event("none"))


def _node_with(d: int, edges: list[tuple[int, int]]) -> Node:
    node = Node(d)
    node.actions = np.array([a for a, _o in edges])
    node.outcomes = np.array([o for _a, o in edges])
    node.prior = np.full(len(edges), 1.0 / len(edges))
    node.n = np.zeros(len(edges))
    node.w = np.zeros(len(edges))
    node.children = [None] * len(edges)
    return node


def test_fixed_transitions_of_calls_and_wins() -> None:
    """Calls and kongs leave the caller to act (Δ 0); a win ends the hand."""
    for a in (CHI_345M, PON_5M, KAN_5M):
        assert fixed_outcome(a) == outcome(0, TURN)
    assert fixed_outcome(RON) == fixed_outcome(TSUMO) == outcome(0, END)


def test_position_variable_along_a_line_of_play() -> None:
    """eq. 6 along: discard → next player chows → its discard → player +2 pongs → its
    discard → next player draws → win.  D is relative to the root's player."""
    line = [
        (DISCARD_5M, outcome(1, CHOW), 1),
        (CHI_345M, fixed_outcome(CHI_345M), 1),
        (DISCARD_5M, outcome(2, PONG), 3),
        (PON_5M, fixed_outcome(PON_5M), 3),
        (DISCARD_5M, outcome(1, TURN), 0),
        (KAN_5M, fixed_outcome(KAN_5M), 0),
        (PASS, outcome(3, WIN), 3),
        (RON, fixed_outcome(RON), 3),
    ]
    node = _node_with(0, [(line[0][0], line[0][1])])
    for i, (_a, _o, expected) in enumerate(line):
        d = node.child_d(0)
        assert d == expected, f"step {i}"
        if i + 1 < len(line):
            nxt = _node_with(d, [(line[i + 1][0], line[i + 1][1])])
            node.children[0] = nxt
            node = nxt


def test_backup_shifts_the_value_vector_by_position() -> None:
    """eqs. 7-9: each edge gets the leaf value of the player who chose it."""
    ds = [0, 1, 3, 2]  # root, then after a chow-window discard, a pong by +2, a pass round
    nodes = [_node_with(d, [(DISCARD_5M, outcome(0, TURN))]) for d in ds]
    leaf = Node(1)
    leaf.value = np.array([0.4, -0.1, 0.9, -0.7])  # order of the leaf's player (D = 1)
    path = [(n, 0) for n in nodes]
    for n in nodes:  # the virtual loss selection would have put there
        n.n[0] += 1.0
        n.w[0] -= 1.0
    _backup(path, leaf, SearchConfig(use_reward=False), 1.0)
    for n in nodes:
        assert n.n[0] == 1
        expected = shifted_value(leaf.value, n.d, leaf.d)
        assert np.isclose(n.w[0], expected)
    # Spelled out: the root (D 0) is 3 seats after the leaf's player: v[3]; D 3 → v[2].
    assert np.isclose(nodes[0].w[0], -0.7)
    assert np.isclose(nodes[2].w[0], 0.9)


def test_backup_adds_rewards_in_each_actors_order() -> None:
    parent = _node_with(2, [(RON, fixed_outcome(RON))])
    leaf = Node(2)
    leaf.terminal = True
    leaf.reward = np.array([1.0, -1.0, 0.0, 0.0])  # actor (D 2) wins, D 3 pays
    parent.n[0] += 1.0
    parent.w[0] -= 1.0
    root = _node_with(3, [(PASS, outcome(3, WIN))])
    root.n[0] += 1.0
    root.w[0] -= 1.0
    _backup([(root, 0), (parent, 0)], leaf, SearchConfig(), 1.0)
    assert np.isclose(parent.w[0], 1.0)
    assert np.isclose(root.w[0], -1.0)  # the root player (D 3) paid


class RuleEvaluator:
    """A scripted model for the search tests: uniform priors, the true outcome of every
    action (a discard of ``5m`` lets player +1 win, anything else passes the turn), reward
    +1 to a winner and -1 to the player it won from, values 0."""

    def __init__(self) -> None:
        self.calls = 0

    def _eval(self, b: int, states: list[Any], reward: np.ndarray | None) -> Evaluation:
        trans = np.full((b, GROUPS, OUTCOMES), -20.0)
        trans[:, :, outcome(1, TURN)] = 0.0
        trans[:, 4, outcome(1, WIN)] = 5.0  # discarding 5m: the next player may win
        trans[:, 4, outcome(1, TURN)] = -20.0
        return Evaluation(states, np.zeros((b, NUM_ACTIONS)), trans, np.zeros((b, 4)), reward)

    def initial(self, planes: np.ndarray) -> Evaluation:
        self.calls += 1
        return self._eval(len(planes), [None] * len(planes), None)

    def recurrent(self, states: Sequence[Any], actions: np.ndarray, outcomes: np.ndarray
                  ) -> Evaluation:
        self.calls += 1
        reward = np.zeros((len(actions), 4))
        for i, a in enumerate(actions):
            if a in (RON, TSUMO):
                reward[i] = (1.0, 0.0, 0.0, -1.0) if a == RON else (1.0, -1 / 3, -1 / 3, -1 / 3)
        return self._eval(len(actions), list(states), reward)


def _position() -> Suits108Round:
    """Seat 0 (dealer) has just drawn 9s and holds a complete hand: it may win at once,
    or discard (one discard, 5m, would give seat 1 a win)."""
    hands = [T.parse("123m456m789p234s9s"), T.parse("34m678p111s22s789s"), [], []]
    left = Counter(TILESET)
    left.subtract([t for h in hands if h for t in h])
    left.subtract(T.parse("9s"))
    spare = sorted(left.elements())
    hands[2], hands[3] = spare[0::2][:13], spare[1::2][:13]
    wall = Suits108Wall.from_draws(hands, T.parse("9s"), [])
    return Suits108Round(PAPER, wall, hand_index=0, dealer=0, scores=(25000,) * 4)


def test_visits_concentrate_on_a_forced_win() -> None:
    rnd = _position()
    (d,) = rnd.pending()
    ids = SPACE.legal_ids(d.legal)
    assert TSUMO in ids
    legal = np.array(sorted(ids))
    req = SearchRequest(np.zeros((129, 27), np.float32), legal, np.random.default_rng(0))
    (res,) = run_searches(RuleEvaluator(), [req], SearchConfig(simulations=200))
    assert res.visits.sum() == 199
    assert res.visits[TSUMO] > 0.6 * res.visits.sum()
    assert int(np.argmax(res.visits)) == TSUMO


def test_seeded_search_is_deterministic_and_batch_independent() -> None:
    torch.manual_seed(0)
    model = MCTSModel(ModelCard(size="tiny"))
    rnd = _position()
    (d,) = rnd.pending()
    planes = encode_table(rnd, 0)
    legal = np.array(sorted(SPACE.legal_ids(d.legal)))
    cfg = SearchConfig(simulations=40, noise=True)

    def one(seed: int, company: int) -> np.ndarray:
        reqs = [SearchRequest(planes, legal, np.random.default_rng(seed))]
        reqs += [SearchRequest(planes, legal, np.random.default_rng(100 + i))
                 for i in range(company)]
        return run_searches(NetEvaluator(model.net), reqs, cfg)[0].visits

    a, b, c = one(7, 0), one(7, 0), one(7, 5)
    assert np.array_equal(a, b)
    assert np.allclose(a, c)
    assert not np.array_equal(a, one(8, 0))  # the noise does depend on the seed


def test_simulator_search_finds_the_forced_win_with_true_transitions() -> None:
    """Fig. 7b's variant: true transitions from table copies, an untrained network; the true
    terminal reward of the win makes it the most visited action, and the live table is never
    stepped."""
    from tenpai.mcts.simulator import SimRoot, run_simulator_searches

    torch.manual_seed(0)
    model = MCTSModel(ModelCard(size="tiny"))
    rnd = _position()
    events_before = list(rnd.events)
    roots = [SimRoot(rnd, 0, np.random.default_rng(0)), SimRoot(rnd, 0, np.random.default_rng(1))]
    results = run_simulator_searches(NetEvaluator(model.net), roots, SearchConfig(simulations=60))
    assert rnd.events == events_before and not rnd.done
    for res in results:
        assert res.visits.sum() == 59
        assert int(np.argmax(res.visits)) == TSUMO
    assert np.array_equal(results[0].visits, results[1].visits)  # no noise: same search


def test_simulator_transitions_follow_the_table() -> None:
    """Discarding 5m hands the decision to seat 1 (D 1), which may win on it; its win ends
    the hand with the true result; the dealer's tsumo is terminal at once."""
    from tenpai.mcts.simulator import _Sim, _transition

    rnd = _position()
    (d,) = rnd.pending()
    sim = _Sim(rnd, 0, {})
    sim.events = SPACE.legal_ids(d.legal)
    root = _node_with(0, [(DISCARD_5M, 0), (TSUMO, 0)])
    child, csim = _transition(root, sim, 0, 0, "sign", 8000.0)
    assert child.d == 1 and csim is not None and csim.seat == 1
    (claim,) = [x for x in csim.round.pending() if x.seat == 1]
    csim.events = SPACE.legal_ids(claim.legal)
    assert RON in csim.events
    node = _node_with(1, [(RON, 0)])
    end, none = _transition(node, csim, 0, 0, "sign", 8000.0)
    assert end.terminal and none is None
    assert list(end.reward) == [1.0, 0.0, 0.0, -1.0]  # actor (seat 1) first: seat 0 paid
    win, _ = _transition(root, sim, 1, 0, "sign", 8000.0)
    assert win.terminal and list(win.reward) == [1.0, -1.0, -1.0, -1.0]
    assert not rnd.done and len(rnd.events) == len(sim.round.events)


def test_root_knows_the_result_of_a_legal_win() -> None:
    """With the rules' result of the win at the root, even an untrained network takes it;
    without it, nothing tells the search that winning pays."""
    from tenpai.mcts.agent import MCTSAgent

    torch.manual_seed(0)
    model = MCTSModel(ModelCard(size="tiny"))
    rnd = _position()
    (d,) = rnd.pending()
    ruled = MCTSAgent(model, simulations=30, root_rules=True)
    action, info = ruled.act_batch_with_info([(d.observation, d.legal)])[0]
    assert action.type == "hora" and info["policy"][TSUMO] > 0.9
    blind = MCTSAgent(model, simulations=30, root_rules=False)
    _a, info = blind.act_batch_with_info([(d.observation, d.legal)])[0]
    assert info["policy"][TSUMO] < 0.5

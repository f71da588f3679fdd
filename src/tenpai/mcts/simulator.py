"""The simulator-based search of seed 000's Fig. 7b: the same tree, true transitions.

Instead of the dynamics network, every edge is applied to a copy of the real table
(:func:`tenpai.engine.snapshot.clone`); each new node's true state is encoded and evaluated by
the representation and prediction networks ("it can be equivalent to utilize the
representation and prediction network to calculate the prior policy and value estimation of
nodes, and it does not implement the internal state transition").  Edges are the decider's
legal actions at every node.  A claim window, which the engine answers all at once, is taken
one decider at a time in the order the learned tree uses (win, pong/kong, chow; ties in turn
order after the discarder); the engine steps once every decider of the window has answered.
A hand's end is a terminal node whose reward is the true result (the training value target:
the sign of each player's point change, or the scaled change).  The position variable D is the
decider's seat relative to the root's.  Leaves of all concurrent searches share one network
call per round, as in :mod:`tenpai.mcts.search`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.mcts.rulesets import SearchRules, search_rules
from tenpai.mcts.search import (
    Evaluator,
    Node,
    SearchConfig,
    SearchResult,
    _add_noise,
    _backup,
    _result,
)

__all__ = ["SimRoot", "run_simulator_searches"]

PLAYERS = 4


@dataclass(slots=True)
class SimRoot:
    """A root to search: the live hand (never stepped by the search), the deciding seat."""

    round: Any
    seat: int
    rng: np.random.Generator


class _Sim:
    """What a simulator node knows besides the statistics: its table copy and the answers
    already given in the current claim window."""

    __slots__ = ("answers", "events", "round", "seat")

    def __init__(self, rnd: Any, seat: int, answers: dict[int, Event]) -> None:
        self.round = rnd
        self.seat = seat
        self.answers = answers
        self.events: dict[int, Event] = {}


def _priority(legal: Sequence[Event]) -> int:
    types = {e.type for e in legal}
    return 0 if "hora" in types else 1 if types & {"pon", "daiminkan"} else 2


def _next_decider(rnd: Any, answered: dict[int, Event]) -> int | None:
    """The next seat to decide on ``rnd`` given the answers so far (None: step the table)."""
    left = [d for d in rnd.pending() if d.seat not in answered]
    if not left:
        return None
    if len(rnd.pending()) == 1:
        return int(left[0].seat)
    origin = rnd.last_discard[0] if rnd.phase == "claim" else rnd.kan_in_progress[0]
    left.sort(key=lambda d: (_priority(d.legal), (d.seat - origin) % PLAYERS))
    return int(left[0].seat)


def _value_of(deltas: Sequence[int], seat: int, mode: str, scale: float) -> np.ndarray:
    out = np.zeros(PLAYERS)
    for j in range(PLAYERS):
        d = deltas[(seat + j) % PLAYERS]
        out[j] = np.sign(d) if mode == "sign" else np.clip(d / scale, -1.0, 1.0)
    return out


def _transition(parent: Node, sim: _Sim, edge: int, root_seat: int, mode: str,
                scale: float) -> tuple[Node, _Sim | None]:
    """Apply the edge's action to a copy of the parent's table."""
    action = sim.events[int(parent.actions[edge])]
    rnd = clone(sim.round)
    answers = {**sim.answers, sim.seat: action}
    claiming = rnd.phase in ("claim", "rob")
    if claiming and action.type != "none":
        # Deciders go by priority, so a claim outranks every later answer of the window.
        answers = {**answers, **{d.seat: Event("none") for d in rnd.pending()
                                 if d.seat not in answers}}
    nxt = _next_decider(rnd, answers) if claiming else None
    if nxt is None:
        rnd.step(answers)
        answers = {}
        if not rnd.done:
            nxt = _next_decider(rnd, answers)
    if rnd.done or nxt is None:
        node = Node(parent.d)
        node.terminal = True
        node.reward = _value_of(rnd.result.deltas, sim.seat, mode, scale)
        return node, None
    return Node((nxt - root_seat) % PLAYERS), _Sim(rnd, nxt, answers)


def run_simulator_searches(
    evaluator: Evaluator,
    roots: Sequence[SimRoot],
    cfg: SearchConfig,
    value_target: str = "sign",
    value_scale: float = 8000.0,
    rules: SearchRules | None = None,
) -> list[SearchResult]:
    """Search every root with true transitions; one network call per round of leaves.
    ``rules``: the tables' rule set (default the 108-tile game's)."""
    if not roots:
        return []
    rules = rules or search_rules("suits108")
    sims: dict[int, _Sim] = {}
    nodes: list[Node] = []
    pending: list[tuple[Node, _Sim, np.ndarray | None, np.random.Generator | None]] = []
    for r in roots:
        node = Node(0)
        sim = _Sim(clone(r.round), r.seat, {})
        sims[id(node)] = sim
        nodes.append(node)
        pending.append((node, sim, None, r.rng))
    first = _evaluate(evaluator, pending, cfg, rules)
    done = [1] * len(roots)
    vl = cfg.virtual_loss
    while any(d < cfg.simulations for d in done):
        batch: list[tuple[Node, _Sim, np.ndarray | None, np.random.Generator | None]] = []
        paths: list[tuple[int, list[tuple[Node, int]], Node]] = []
        for i, root in enumerate(nodes):
            for _ in range(min(cfg.parallel, cfg.simulations - done[i])):
                picked = _walk(root, sims, batch, roots[i].seat, cfg, value_target, value_scale)
                if picked is None:
                    break  # met a node still waiting for its evaluation: next round
                path, leaf = picked
                for n_, e_ in path:
                    n_.n[e_] += vl
                    n_.w[e_] -= vl
                paths.append((i, path, leaf))
        if batch:
            _evaluate(evaluator, batch, cfg, rules)
        for i, path, leaf in paths:
            _backup(path, leaf, cfg, vl)
            done[i] += 1
        if not paths:
            break
    return [
        _result(root, first[j], np.array(sorted(sims[id(root)].events)))
        for j, root in enumerate(nodes)
    ]


def _walk(
    root: Node,
    sims: dict[int, _Sim],
    batch: list[tuple[Node, _Sim, np.ndarray | None, np.random.Generator | None]],
    root_seat: int,
    cfg: SearchConfig,
    value_target: str,
    value_scale: float,
) -> tuple[list[tuple[Node, int]], Node] | None:
    """Walk down by PUCT to a new or terminal node (a new one joins ``batch``)."""
    path: list[tuple[Node, int]] = []
    node = root
    while True:
        edge = node.select(cfg.c1, cfg)
        path.append((node, edge))
        child = node.children[edge]
        if child is None:
            child, sim = _transition(node, sims[id(node)], edge, root_seat, value_target,
                                     value_scale)
            node.children[edge] = child
            if sim is not None:
                sims[id(child)] = sim
                batch.append((child, sim, None, None))
            return path, child
        if child.terminal:
            return path, child
        if not child.expanded:
            return None
        node = child


def _evaluate(
    evaluator: Evaluator,
    items: Sequence[tuple[Node, _Sim, np.ndarray | None, np.random.Generator | None]],
    cfg: SearchConfig,
    rules: SearchRules,
) -> list[np.ndarray]:
    """Encode each node's true table, evaluate them in one call, expand over legal ids."""
    planes = np.stack([rules.encode(sim.round, sim.seat) for _n, sim, _l, _r in items])
    ev = evaluator.initial(planes)
    for j, (node, sim, _legal, rng) in enumerate(items):
        (decision,) = [d for d in sim.round.pending() if d.seat == sim.seat]
        sim.events = rules.tables.space.legal_ids(decision.legal)
        ids = np.array(sorted(sim.events), dtype=np.int64)
        logits = ev.policy[j][ids].astype(np.float64)
        p = np.exp(logits - logits.max())
        node.actions = ids
        node.outcomes = np.zeros(len(ids), dtype=np.int64)
        node.prior = p / p.sum()
        node.n = np.zeros(len(ids))
        node.w = np.zeros(len(ids))
        node.children = [None] * len(ids)
        node.value = ev.value[j].astype(np.float64)
        node.set_groups()
        if rng is not None and cfg.noise:
            _add_noise(node, cfg, rng)
    return list(ev.policy)

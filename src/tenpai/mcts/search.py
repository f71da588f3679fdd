"""Multiplayer MCTS on a learned model (seed 000, Section 3.1.1 and Algorithm 1).

Each node holds the internal state ``s``, the player position variable ``D`` (relative to the
root's player, ``D(s⁰) = 0``) and, per edge, the visits ``N``, the value sum ``W`` (so
``Q = W / N``) of the player who acts at that node, and the prior ``P``.  An edge is an action
id together with its transition *outcome* (position change ``Δ`` and the next player's state,
:mod:`tenpai.mcts.actions`): for a discard, an added kong or a pass the outcome is predicted by
the network (``P(s, a) = pᵏ × qᵏ``, eq. 5) and every outcome with ``q ≥ min_outcome`` is an
edge; other actions have their fixed outcome.  Moving along an edge sets
``D(child) = (D(node) + Δ) mod M`` (eq. 6).

Backup (eqs. 7-9): the leaf's value vector ``v`` is in the order of the leaf's player; the edge
leaving node ``k`` is credited ``v[(D(k) − D(leaf)) mod M]``, the value of the player who chose
it.  With ``use_reward`` the rewards predicted on the way down are added (undiscounted, each in
the order of the player who acted), which reduces to the paper's backup when they are zero.

Selection is PUCT (eq. 2, ``C₁ = 1.5``); the root gets Dirichlet noise (``0.7 P + 0.3 η``,
``α = 10 / edges`` unless set).  Many searches run together: each round every unfinished search
selects up to ``parallel`` leaves under virtual loss, and one network call evaluates the leaves
of all of them.  Only the root is limited to the legal actions (Appendix B).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from tenpai.mcts.actions import END, STATES, SUITS108, ActionTables, split_outcome

__all__ = [
    "Evaluation",
    "Evaluator",
    "Node",
    "SearchConfig",
    "SearchRequest",
    "SearchResult",
    "run_searches",
    "shifted_value",
]

PLAYERS = 4


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's settings (defaults: the paper's constants where it gives them)."""

    simulations: int = 50
    c1: float = 1.5
    noise: bool = False
    noise_fraction: float = 0.3
    dirichlet_alpha: float | None = None
    min_outcome: float = 0.05
    parallel: int = 4
    virtual_loss: float = 1.0
    use_reward: bool = True
    #: How a node's player meets the outcomes of its dynamic actions.  "choose" (the paper's
    #: eq. 5 taken literally): every (action, outcome) pair is an edge of its own under PUCT,
    #: so the player in effect picks the luckiest outcome (a discard that deals in 30 % of the
    #: time looks as good as its 70 %).  "chance": PUCT picks the *action* on the q-weighted
    #: mean Q of its outcomes, and the outcome is then allocated in proportion to q (most
    #: behind its share of the action's visits) — an expectation over what the other players
    #: do, as in stochastic MuZero.  See docs/mcts.md.
    outcomes: str = "choose"
    #: Q of an unvisited action: "zero" (the paper: Q initialised to 0) or "parent" (the
    #: node's own value for its player — a value vector mostly below zero otherwise makes
    #: every untried action look better than the tried ones).
    unvisited: str = "zero"

    def __post_init__(self) -> None:
        if self.simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {self.simulations}")
        if self.parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {self.parallel}")
        if not 0 <= self.noise_fraction <= 1 or self.c1 < 0 or self.virtual_loss < 0:
            raise ValueError("noise_fraction must be in [0, 1]; c1 and virtual_loss >= 0")
        if self.outcomes not in ("choose", "chance"):
            raise ValueError(f"outcomes must be choose or chance, not {self.outcomes!r}")
        if self.unvisited not in ("zero", "parent"):
            raise ValueError(f"unvisited must be zero or parent, not {self.unvisited!r}")


@dataclass(slots=True)
class Evaluation:
    """Network outputs for a batch: opaque states, priors, transition logits, values."""

    states: Sequence[Any]
    policy: np.ndarray  # (B, actions) logits
    transition: np.ndarray  # (B, groups, outcomes) logits
    value: np.ndarray  # (B, players)
    reward: np.ndarray | None = None  # (B, players), recurrent only


class Evaluator(Protocol):
    """What the search needs from a model: one call per batch of roots or of leaves.  An
    evaluator may carry ``tables`` (:class:`~tenpai.mcts.actions.ActionTables`, the ids its
    policy is over); without them the search reads the 108-tile game's."""

    def initial(self, planes: np.ndarray) -> Evaluation: ...

    def recurrent(
        self, states: Sequence[Any], actions: np.ndarray, outcomes: np.ndarray
    ) -> Evaluation: ...


class Node:
    """A search node: internal state, position variable, reward on arrival, and its edges."""

    __slots__ = (
        "actions", "children", "d", "group", "n", "outcomes", "prior", "reward", "share",
        "state", "terminal", "value", "w",
    )

    def __init__(self, d: int) -> None:
        self.d = d
        self.state: Any = None
        self.reward = np.zeros(PLAYERS)
        self.value = np.zeros(PLAYERS)
        self.terminal = False
        self.actions = np.zeros(0, dtype=np.int64)
        self.outcomes = np.zeros(0, dtype=np.int64)
        self.prior = np.zeros(0)
        self.n = np.zeros(0)
        self.w = np.zeros(0)
        self.children: list[Node | None] = []
        #: Per edge: the index of its action among the node's actions, and its outcome's share
        #: of that action's prior (q renormalised over the kept outcomes; 1 for fixed ones).
        self.group = np.zeros(0, dtype=np.int64)
        self.share = np.zeros(0)

    @property
    def expanded(self) -> bool:
        return self.terminal or len(self.actions) > 0

    def expand(
        self,
        policy: np.ndarray,
        transition: np.ndarray,
        legal: np.ndarray | None,
        min_outcome: float,
        tables: ActionTables = SUITS108,
    ) -> None:
        """Create the edges from the prediction: ``P = p × q`` (eq. 5), legal ids only at the
        root (``legal``), outcomes with ``q ≥ min_outcome`` (the likeliest always kept)."""
        ids = np.arange(tables.n) if legal is None else np.asarray(legal, dtype=np.int64)
        logits = policy[ids].astype(np.float64)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        groups = tables.group[ids]
        fixed = groups < 0
        acts = [ids[fixed]]
        outs = [tables.fixed[ids[fixed]]]
        priors = [p[fixed]]
        dyn = np.nonzero(~fixed)[0]
        if len(dyn):
            t = transition[groups[dyn]].astype(np.float64)
            q = np.exp(t - t.max(axis=1, keepdims=True))
            q /= q.sum(axis=1, keepdims=True)
            keep = q >= min_outcome
            keep[np.arange(len(dyn)), q.argmax(axis=1)] = True
            q = np.where(keep, q, 0.0)
            q /= q.sum(axis=1, keepdims=True)
            rows, cols = np.nonzero(keep)
            acts.append(ids[dyn][rows])
            outs.append(cols.astype(np.int64))
            priors.append(p[dyn][rows] * q[rows, cols])
        self.actions = np.concatenate(acts)
        self.outcomes = np.concatenate(outs)
        self.prior = np.concatenate(priors)
        self.n = np.zeros(len(self.actions))
        self.w = np.zeros(len(self.actions))
        self.children = [None] * len(self.actions)
        self.set_groups()

    def set_groups(self) -> None:
        """Fill :attr:`group` and :attr:`share` from :attr:`actions` and :attr:`prior` (the
        edges of one action are contiguous)."""
        new = np.ones(len(self.actions), dtype=bool)
        new[1:] = self.actions[1:] != self.actions[:-1]
        self.group = np.cumsum(new) - 1
        totals = np.bincount(self.group, weights=self.prior)
        self.share = self.prior / np.maximum(totals[self.group], 1e-12)

    def select(self, c1: float, cfg: SearchConfig | None = None) -> int:
        """PUCT (eq. 2): ``argmax Q + C₁ P √ΣN / (1 + N)``; ``ΣN`` counts as 1 on the first
        visit so that the first choice follows the prior.  With ``cfg.outcomes == "chance"``
        the argmax is over actions (Q the q-weighted mean of the visited outcomes) and the
        edge is then the outcome furthest behind its q share."""
        n = self.n
        fpu = float(self.value[0]) if cfg is not None and cfg.unvisited == "parent" else 0.0
        if cfg is None or cfg.outcomes == "choose":
            q = np.divide(self.w, n, out=np.full_like(self.w, fpu), where=n > 0)
            total = max(float(n.sum()), 1.0)
            return int(np.argmax(q + c1 * self.prior * math.sqrt(total) / (1.0 + n)))
        g = self.group
        k = int(g[-1]) + 1
        visited = n > 0
        qe = np.divide(self.w, n, out=np.zeros_like(self.w), where=visited)
        weight = np.bincount(g, weights=self.share * visited, minlength=k)
        qsum = np.bincount(g, weights=self.share * qe, minlength=k)
        qa = np.divide(qsum, weight, out=np.full(k, fpu), where=weight > 0)
        na = np.bincount(g, weights=n, minlength=k)
        pa = np.bincount(g, weights=self.prior, minlength=k)
        total = max(float(na.sum()), 1.0)
        a = int(np.argmax(qa + c1 * pa * math.sqrt(total) / (1.0 + na)))
        edges = np.nonzero(g == a)[0]
        if len(edges) == 1:
            return int(edges[0])
        behind = self.share[edges] - n[edges] / (na[a] + 1.0)
        return int(edges[int(np.argmax(behind))])

    def child_d(self, edge: int) -> int:
        """eq. 6: ``D(child) = (D(node) + T(a)) mod M``."""
        delta, _state = split_outcome(int(self.outcomes[edge]))
        return (self.d + delta) % PLAYERS


def shifted_value(v_leaf: np.ndarray, d_node: int, d_leaf: int, m: int = PLAYERS) -> float:
    """eqs. 7-8: the entry of the leaf's value vector that belongs to the player at ``d_node``:
    ``shift = (D_node − D_leaf + M) mod M``, ``Val = v_leaf[shift]``."""
    return float(v_leaf[(d_node - d_leaf + m) % m])


@dataclass(slots=True)
class SearchRequest:
    """One root to search: its planes, legal ids and a seeded generator."""

    planes: np.ndarray
    legal: np.ndarray
    rng: np.random.Generator
    #: Rewards the rules already know at the root (the result of a legal win), by action id,
    #: in the root player's order; those edges become terminal without a network call.
    known: dict[int, np.ndarray] = field(default_factory=dict)


@dataclass(slots=True)
class SearchResult:
    """Visit counts per action id (summed over outcomes), the root prior and value."""

    visits: np.ndarray  # (actions,)
    prior: np.ndarray  # (actions,) probabilities over the legal ids
    value: np.ndarray  # (players,) root value, root player first
    root: Node = field(repr=False)

    def policy(self) -> np.ndarray:
        """π: the visit distribution (the prior when nothing was visited: one simulation)."""
        total = self.visits.sum()
        return self.visits / total if total > 0 else self.prior.copy()


@dataclass(slots=True)
class _Search:
    root: Node
    done: int = 1
    pending: int = 0


def _add_noise(root: Node, cfg: SearchConfig, rng: np.random.Generator) -> None:
    k = len(root.prior)
    if k < 2:
        return
    alpha = cfg.dirichlet_alpha if cfg.dirichlet_alpha is not None else 10.0 / k
    eta = rng.gamma(alpha, 1.0, size=k)
    eta /= max(eta.sum(), 1e-12)
    root.prior = (1 - cfg.noise_fraction) * root.prior + cfg.noise_fraction * eta
    root.set_groups()


def _backup(path: list[tuple[Node, int]], leaf: Node, cfg: SearchConfig, vl: float) -> None:
    """Credit every edge of ``path`` with its player's share (eqs. 7-9) and lift the virtual
    loss that selection put on it."""
    # g[p]: return of the player at root-relative position p, summed from the leaf upwards.
    g = np.roll(leaf.value, leaf.d)  # g[p] = v[(p - D_leaf) mod M]
    child = leaf
    for node, edge in reversed(path):
        if cfg.use_reward:
            g = g + np.roll(child.reward, node.d)
        node.n[edge] += 1 - vl
        node.w[edge] += g[node.d] + vl
        child = node


def run_searches(
    evaluator: Evaluator, requests: Sequence[SearchRequest], cfg: SearchConfig
) -> list[SearchResult]:
    """Search every request together; one network call per round for all their leaves."""
    if not requests:
        return []
    tables: ActionTables = getattr(evaluator, "tables", SUITS108)
    first = evaluator.initial(np.stack([r.planes for r in requests]))
    searches: list[_Search] = []
    for i, r in enumerate(requests):
        root = Node(0)
        root.state = first.states[i]
        root.value = first.value[i].astype(np.float64)
        root.expand(first.policy[i], first.transition[i], r.legal, cfg.min_outcome, tables)
        if cfg.noise:
            _add_noise(root, cfg, r.rng)
        for e, a in enumerate(root.actions):
            reward = r.known.get(int(a))
            if reward is not None:
                child = Node(root.child_d(e))
                child.terminal = True
                child.reward = np.asarray(reward, dtype=np.float64)
                root.children[e] = child
        searches.append(_Search(root))
    vl = cfg.virtual_loss
    while True:
        leaves: list[tuple[_Search, list[tuple[Node, int]], Node, Node, int]] = []
        for s in searches:
            for _ in range(min(cfg.parallel, cfg.simulations - s.done)):
                picked = _select(s.root, cfg, vl)
                if picked is None:
                    break
                path, leaf = picked
                if leaf.terminal:
                    _backup(path, leaf, cfg, vl)
                    s.done += 1
                    continue
                parent, edge = path[-1]
                leaves.append((s, path, leaf, parent, edge))
        if not leaves:
            if all(s.done >= cfg.simulations for s in searches):
                break
            continue
        ev = evaluator.recurrent(
            [p.state for _s, _path, _leaf, p, _e in leaves],
            np.array([p.actions[e] for _s, _path, _leaf, p, e in leaves], dtype=np.int64),
            np.array([p.outcomes[e] for _s, _path, _leaf, p, e in leaves], dtype=np.int64),
        )
        assert ev.reward is not None
        for j, (s, path, leaf, parent, edge) in enumerate(leaves):
            leaf.state = ev.states[j]
            leaf.reward = ev.reward[j].astype(np.float64)
            if int(parent.outcomes[edge]) % STATES == END:
                leaf.terminal = True
                leaf.value = np.zeros(PLAYERS)
            else:
                leaf.value = ev.value[j].astype(np.float64)
                leaf.expand(ev.policy[j], ev.transition[j], None, cfg.min_outcome, tables)
            _backup(path, leaf, cfg, vl)
            s.done += 1
    return [_result(s.root, first.policy[i], requests[i].legal) for i, s in enumerate(searches)]


def _select(
    root: Node, cfg: SearchConfig, vl: float
) -> tuple[list[tuple[Node, int]], Node] | None:
    """Walk down by PUCT to a new (or terminal) node, putting virtual loss on the path.
    None when the walk meets a node still waiting for its evaluation (tried next round)."""
    path: list[tuple[Node, int]] = []
    node = root
    while True:
        edge = node.select(cfg.c1, cfg)
        path.append((node, edge))
        child = node.children[edge]
        if child is None:
            child = Node(node.child_d(edge))
            node.children[edge] = child
            break
        if child.terminal:
            break
        if not child.expanded:
            return None  # no virtual loss was put on this walk yet
        node = child
    for n_, e_ in path:
        n_.n[e_] += vl
        n_.w[e_] -= vl
    return path, child


def _result(root: Node, policy: np.ndarray, legal: np.ndarray) -> SearchResult:
    visits = np.zeros(len(policy))
    np.add.at(visits, root.actions, root.n)
    logits = policy[legal].astype(np.float64)
    p = np.exp(logits - logits.max())
    prior = np.zeros(len(policy))
    prior[legal] = p / p.sum()
    return SearchResult(visits=visits, prior=prior, value=root.value.copy(), root=root)

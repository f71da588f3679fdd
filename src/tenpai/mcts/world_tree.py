"""Seed 000's tree search on a sampled world: simulator transitions, a prior at every node,
playouts at the leaves, values for every seat.

One :class:`WorldTree` searches one world — a completion of the hidden tiles sampled from the
deciding seat's view (:mod:`tenpai.search.worlds`), so nothing in the tree can reach the real
table's hidden tiles.  The tree is the multiplayer search of :mod:`tenpai.mcts.search` with
three parts exchanged, those of issue 38's ``search`` agent:

* **transitions** are the rules engine's, applied to copies of the world (the simulator search
  of Fig. 7b, :mod:`tenpai.mcts.simulator`): a claim window is taken one decider at a time in
  the simulator's priority order (win, pon/kan, chi; then turn order after the discarder), and
  the engine steps once every decider of the window has answered;
* **the prior** at a node is any :class:`~tenpai.search.prior.Prior` (``pg`` in the registered
  agent) asked about the decider's observation *of the world*, its top ``top_k`` candidates kept
  and renormalised; a decision with one legal action asks nobody;
* **a leaf** is valued by one playout of the hand to its end (a
  :class:`~tenpai.search.playout.PlayoutBackend`, the compiled core when built) and the
  placement value of that end for *every* seat (:class:`~tenpai.search.playout.PlacementValue`),
  divided by the value's scale — the paper's value vector, indexed here by absolute seat since
  the simulator knows who acts (its position variable D is the seat itself).

Expansion is lazy, as in UCT with rollouts: a new edge gets one playout from its parent's table
(the parent's copy plus the edge's answer is exactly the child's state, so no copy is made);
the child's table is built and its prior asked only when a walk reaches it again.  Selection
is PUCT, ``Q + c1 · P · sqrt(N) / (1 + N(a))`` with Q scaled to [0, 1] by the least and
greatest Q seen in the tree (MuZero's normalisation); an untried edge's Q is the node's mean
value for its player (the ``parent`` reading of :mod:`tenpai.mcts.search`), so a node whose
tries went badly does not make every untried edge look good.  Backup credits each edge with the leaf
value of the seat that chose it (eqs. 7-9 with D = seat).

:func:`run_world_trees` advances many trees together, one simulation per tree per round, so
the prior evaluates the nodes of all trees in one call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.learn.state import RoundTracker
from tenpai.mcts.simulator import _next_decider
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.hand_end import HandEnd, hand_end
from tenpai.search.playout import LeafValue, PlayoutBackend
from tenpai.search.prior import Candidate, Prior

__all__ = ["SampledSeatView", "TreeNode", "WorldTree", "run_world_trees", "top_candidates"]


@dataclass(slots=True, eq=False)
class TreeNode:
    """A decision in one world: who decides, the table (``None`` until the node is expanded),
    the answers already given in the current claim window, and the edge statistics."""

    seat: int = -1
    round: RiichiRound | None = None
    answers: dict[int, Event] = field(default_factory=dict)
    actions: list[Event] = field(default_factory=list)
    prior: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n: np.ndarray = field(default_factory=lambda: np.zeros(0))
    w: np.ndarray = field(default_factory=lambda: np.zeros(0))
    children: list[TreeNode | None] = field(default_factory=list)
    #: Where the node comes from (parent, edge), kept until the node is built.
    origin: tuple[TreeNode, int] | None = None
    #: The hand ended on the way here: the exact value vector, replayed on every visit.
    terminal: np.ndarray | None = None

    @property
    def expanded(self) -> bool:
        return bool(self.actions)

    def select(self, c1: float, bounds: tuple[float, float] = (0.0, 1.0)) -> int:
        """PUCT over the edges, Q scaled to [0, 1] by ``bounds`` (ties to the earlier, more
        probable edge)."""
        total = float(self.n.sum())
        if total == 0:
            return int(np.argmax(self.prior))
        mean = float(self.w.sum()) / total
        q = np.where(self.n > 0, self.w / np.maximum(self.n, 1), mean)
        lo, hi = bounds
        if hi > lo:
            q = (q - lo) / (hi - lo)
        score = q + c1 * self.prior * math.sqrt(total) / (1.0 + self.n)
        return int(np.argmax(score))

    def set_edges(self, candidates: Sequence[Candidate]) -> None:
        self.actions = [c.action for c in candidates]
        p = np.array([max(c.prior, 0.0) for c in candidates], dtype=np.float64)
        self.prior = p / p.sum() if p.sum() > 0 else np.full(len(p), 1.0 / len(p))
        self.n = np.zeros(len(p))
        self.w = np.zeros(len(p))
        self.children = [None] * len(p)


def top_candidates(candidates: Sequence[Candidate], choice: Event, k: int) -> list[Candidate]:
    """The ``k`` most probable candidates, the prior's own choice always among them."""
    top = list(candidates[:k])
    if all(c.action != choice for c in top):
        own = next((c for c in candidates if c.action == choice), Candidate(choice, 0.0))
        top[-1] = own
    return top


class WorldTree:
    """The search tree of one sampled world (see the module docstring)."""

    def __init__(
        self,
        world: RiichiRound,
        seat: int,
        root_candidates: Sequence[Candidate],
        seed: int,
    ) -> None:
        self.world = world
        self.seed = seed
        self.root = TreeNode(seat=seat, round=world)
        self.root.set_edges(root_candidates)
        self.simulations = 0
        #: The least and greatest edge Q backed up in this tree so far (MuZero's min-max
        #: normalisation: placement values differ by hundredths between a node's edges, which
        #: unscaled would leave every choice to the prior term).
        self.bounds = (math.inf, -math.inf)

    def backup(self, path: Sequence[tuple[TreeNode, int]], value: np.ndarray) -> None:
        """Credit every edge of ``path`` with the value of the seat that chose it."""
        lo, hi = self.bounds
        for node, edge in path:
            node.n[edge] += 1
            node.w[edge] += value[node.seat]
            q = float(node.w[edge] / node.n[edge])
            lo, hi = min(lo, q), max(hi, q)
        self.bounds = (lo, hi)
        self.simulations += 1


@dataclass(slots=True)
class _Walk:
    tree: WorldTree
    path: list[tuple[TreeNode, int]]
    #: The node whose edge is played out: the last node of ``path``, or (``fresh``) a node
    #: built in this round, whose edge is chosen once its prior is known.
    node: TreeNode | None = None
    fresh: bool = False
    value: np.ndarray | None = None


def _descend(tree: WorldTree, c1: float) -> _Walk:
    """Walk down by PUCT to an edge without a child, a node not yet built, or a terminal
    node (whose value ends the walk)."""
    path: list[tuple[TreeNode, int]] = []
    node = tree.root
    while True:
        edge = node.select(c1, tree.bounds)
        path.append((node, edge))
        child = node.children[edge]
        if child is None:
            return _Walk(tree, path, node)
        if child.terminal is not None:
            return _Walk(tree, path, None, value=child.terminal)
        if not child.expanded:
            return _Walk(tree, path, child, fresh=True)
        node = child


def _build(node: TreeNode, final: Callable[[RiichiRound, tuple[int, ...]], np.ndarray]) -> bool:
    """Make the node's table from its parent's (copy, answer, step when the window is
    complete); False when the hand ended on the way (the node is then terminal)."""
    assert node.origin is not None
    parent, edge = node.origin
    assert parent.round is not None
    action = parent.actions[edge]
    rnd = clone(parent.round)
    start = tuple(rnd.scores)
    answers = {**parent.answers, parent.seat: action}
    claiming = rnd.phase in ("claim", "rob")
    if claiming and action.type != "none":
        # deciders go by priority, so a claim outranks every later answer of the window
        answers.update({d.seat: Event("none") for d in rnd.pending() if d.seat not in answers})
    nxt = _next_decider(rnd, answers) if claiming else None
    if nxt is None:
        rnd.step(answers)
        answers = {}
        if not rnd.done:
            nxt = _next_decider(rnd, answers)
    node.origin = None
    if rnd.done or nxt is None:
        node.terminal = final(rnd, start)
        return False
    node.round, node.seat, node.answers = rnd, nxt, answers
    return True


class SampledSeatView:
    """An opponent's observation of a sampled world, with its table picture made ready.

    A world's event history is the deciding seat's masked view (:mod:`tenpai.search.worlds`),
    so the other seats' deals and draws before the search are unknown in it and a prior that
    rebuilds its picture from events (``pg``) could not see the sampled hand it must play.
    The picture is built from that history and then given the seat's concealed tiles *of the
    world* — sampled ones, never the real table's.  Past-turn history of that seat stays empty
    (its hands then are not known), as for a seat whose deal was hidden.  Everything else is
    the world's own observation for that seat (a prior that reads the table directly, such as
    a rule agent, sees the world's sampled hand there)."""

    __slots__ = ("_obs", "events", "seat", "table_picture")

    def __init__(self, decision: Decision, hand: Sequence[int]) -> None:
        obs = decision.observation
        self._obs = obs
        self.seat = int(decision.seat)
        self.events = list(obs.events)
        picture = RoundTracker(watch=(self.seat,))
        for e in self.events:
            picture.apply(e)
        counts = [0] * 34
        red = [0, 0, 0]
        for t in hand:
            counts[T.kind_of(t)] += 1
            if T.is_red(t):
                red[t - 34] += 1
        picture.hands[self.seat] = counts
        picture.red[self.seat] = red
        self.table_picture = picture

    def __getattr__(self, name: str) -> Any:
        return getattr(self._obs, name)


def _decision(node: TreeNode) -> Decision:
    assert node.round is not None
    return next(d for d in node.round.pending() if d.seat == node.seat)


def run_world_trees(
    trees: Sequence[WorldTree],
    prior: Prior,
    backend: PlayoutBackend,
    value: LeafValue,
    *,
    simulations: int,
    top_k: int,
    c1: float,
    out_of_time: Callable[[], bool],
) -> int:
    """Advance every tree by up to ``simulations`` simulations, one per tree per round, the
    prior asked once per round for the nodes of all trees; ``out_of_time`` is checked before
    each round after the first.  Returns the rounds played."""
    players = trees[0].world.players if trees else 4

    def vector(end: HandEnd) -> np.ndarray:
        return np.array([value.value(end, s) / value.scale for s in range(players)])

    def final(rnd: RiichiRound, start: tuple[int, ...]) -> np.ndarray:
        return vector(hand_end(rnd, start))

    rounds = 0
    while any(t.simulations < simulations for t in trees):
        if rounds and out_of_time():
            break
        rounds += 1
        walks = [_descend(t, c1) for t in trees if t.simulations < simulations]
        # build the nodes reached again since their playout, then ask the prior about them
        built: list[tuple[WorldTree, TreeNode]] = []
        for walk in walks:
            if walk.fresh:
                assert walk.node is not None
                if _build(walk.node, final):
                    built.append((walk.tree, walk.node))
                else:
                    walk.value, walk.node = walk.node.terminal, None
        asked = [(t, n, _decision(n)) for t, n in built]
        needing = [(t, n, d) for t, n, d in asked if len(d.legal) > 1]
        answers = (prior.answer_batch([(_observation(t, n, d), tuple(d.legal))
                                       for t, n, d in needing]) if needing else [])
        for (_t, node, _d), pa in zip(needing, answers):
            node.set_edges(top_candidates(pa.candidates, pa.choice, top_k))
        for _t, node, d in asked:
            if not node.expanded:  # one legal action: nothing to ask
                node.set_edges([Candidate(d.legal[0], 1.0)])
        # one playout for the new edge of every walk that has no value yet
        for walk in walks:
            if walk.value is None:
                leaf = walk.node
                assert leaf is not None and leaf.round is not None
                if walk.fresh:
                    walk.path.append((leaf, leaf.select(c1, walk.tree.bounds)))
                edge = walk.path[-1][1]
                first = {**leaf.answers, leaf.seat: leaf.actions[edge]}
                walk.value = vector(backend.play_out(leaf.round, first, walk.tree.seed))
                leaf.children[edge] = TreeNode(origin=(leaf, edge))
            walk.tree.backup(walk.path, walk.value)
    return rounds


def _observation(tree: WorldTree, node: TreeNode, decision: Decision) -> Any:
    """What the prior is shown: the root seat's own observation of the world, or an
    opponent's with its sampled hand (:class:`SampledSeatView`)."""
    if node.seat == tree.root.seat:
        return decision.observation
    assert node.round is not None
    return SampledSeatView(decision, node.round.hands[node.seat])

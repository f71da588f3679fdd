"""``mcts_pg``: seed 000's tree search on Riichi with the parts of issue 38's ``search``.

Today's Riichi ``mcts`` searches with a weak prior (a 3 × 32 network warm-started from ``sl``)
and perfect information (it reads every hand and the wall).  This agent keeps the paper's tree
— multiplayer PUCT over simulator transitions, values for every player backed up to the player
who chose each edge, the most visited root action played — and exchanges what it is built from:

* **imperfect information**: the tree never sees the real table's hidden tiles.  Each searched
  decision samples ``worlds`` completions of the hidden tiles from the deciding seat's view
  (:class:`tenpai.search.worlds.WorldSampler`, the same worlds as ``search``: riichi players
  hold ready hands) and grows one tree per world (:mod:`tenpai.mcts.world_tree`); the root
  visits of all trees are summed — determinised search, with every world equally likely;
* **the prior** is ``pg`` (:class:`tenpai.search.prior.NetworkPrior`), asked at the root about
  the real observation and inside a tree about the decider's observation of the world;
* **leaves** are valued by a playout to the end of the hand (compiled when the core is built)
  and the placement value (:mod:`tenpai.search.placement`) for every seat.

As ``search`` does, the agent plays ``pg``'s own answer unchanged where the prior is sure (its
choice has at least ``threshold``) or has one candidate, so the two searches differ only in how
they search.  The budget is checked before every round of simulations (one per world); the
first round is always played.  Seeds: the worlds' seeds come from the agent's seed and the
decision's place in the game, so a decision is reproducible when the simulation cap binds
before the budget (tests set a large budget).

Over a protocol (mjai, the Tenhou client) there is no engine table behind the observation; as
``search`` does, the agent rebuilds one from the seat's event stream
(:func:`tenpai.search.rebuild.rebuild_table`, under the front's rules:
:func:`~tenpai.search.rebuild.rebuild_rules`), searches it, and answers with the protocol's own
event; a stream it cannot rebuild is answered by the prior and counted
(:attr:`MCTSPGAgent.rebuild_failures`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tenpai.events import Event
from tenpai.mcts.pg_settings import MCTSPGSettings, resolve_policy
from tenpai.mcts.world_tree import WorldTree, run_world_trees, top_candidates
from tenpai.rules.riichi.compiled_round import python_table
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.budget import decision_seed
from tenpai.search.playout import LeafValue, PlayoutBackend
from tenpai.search.playout_backends import make_backend
from tenpai.search.prior import Prior, PriorAnswer
from tenpai.search.prior_searcher import PriorSearcher, pg_prior, placement_value
from tenpai.search.rebuild import RebuildError, engine_twins, rebuild_rules, rebuild_table
from tenpai.search.worlds import WorldSampler

__all__ = ["MCTSPGAgent", "TreeDecision", "make_mcts_pg_agent"]


@dataclass(frozen=True, slots=True)
class TreeDecision:
    """What one decision cost and did (kept in :attr:`MCTSPGAgent.log` for measurement)."""

    searched: bool
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    worlds: int = 0
    simulations: int = 0
    changed: bool = False
    #: Root visits of every candidate, summed over the worlds (the prior's order).
    visits: tuple[float, ...] = ()


class MCTSPGAgent(PriorSearcher[MCTSPGSettings]):
    """Determinised multiplayer tree search with a ``pg`` prior (see the module docstring)."""

    def __init__(
        self,
        prior: Prior,
        *,
        settings: MCTSPGSettings | None = None,
        backend: PlayoutBackend | None = None,
        value: LeafValue | None = None,
        seed: int = 0,
        name: str = "mcts_pg",
    ) -> None:
        s = settings or MCTSPGSettings()
        backend = backend or make_backend(resolve_policy(s.policy))
        if value is None:
            value = placement_value(s.placement_model, s.utility)
        super().__init__(prior, s, backend, value, seed, name)
        self.sampler = WorldSampler(s.opponents)  # type: ignore[arg-type]
        self.log: list[TreeDecision] = []
        #: Decisions with neither an engine table nor an event stream to rebuild one from.
        self.unsearched_no_table = 0

    def _decide(self, obs: Any, legal: Sequence[Event], pa: PriorAnswer) -> Event:
        s = self.settings
        if len(pa.candidates) < 2 or pa.choice_prior >= s.threshold:
            self.log.append(TreeDecision(False))
            return pa.choice
        table = python_table(getattr(obs, "_table", None))
        back: dict[Event, Event] | None = None
        if not isinstance(table, RiichiRound) and hasattr(obs, "events"):
            # a seat's view without an engine table (mjai, the Tenhou client): rebuild one
            try:
                table = rebuild_table(obs.events, obs.seat, legal, rebuild_rules(obs))
            except RebuildError:
                self.rebuild_failures += 1
                self.log.append(TreeDecision(False))
                return pa.choice
            pa, back = engine_twins(table, int(obs.seat), pa)
            if pa.choice_prior <= 0.0 or len(pa.candidates) < 2:
                # the prior's own choice has no engine twin, or nothing is left to compare
                if pa.choice_prior <= 0.0:
                    self.rebuild_failures += 1
                self.log.append(TreeDecision(False))
                return back.get(pa.choice, pa.choice)
        if not isinstance(table, RiichiRound) or table.players != 4:
            self.unsearched_no_table += 1
            self.log.append(TreeDecision(False))
            return pa.choice
        action = self._search(table, int(obs.seat), pa)
        return back.get(action, action) if back is not None else action

    def world_seed(self, table: RiichiRound, seat: int, index: int) -> int:
        """The seed of world ``index`` of this decision (agent seed and decision place)."""
        return decision_seed(self.seed, table.hand_index, len(table.events), seat, index)

    def _search(self, table: RiichiRound, seat: int, pa: PriorAnswer) -> Event:
        s = self.settings
        wall0, cpu0 = time.perf_counter(), time.process_time()
        clock = time.process_time if s.clock == "cpu" else time.perf_counter
        deadline = clock() + s.budget_ms / 1000.0
        cands = top_candidates(pa.candidates, pa.choice, s.top_k)
        trees = []
        for w in range(s.worlds):
            seed = self.world_seed(table, seat, w)
            world = self.sampler.sample(table, seat, seed).round
            trees.append(WorldTree(world, seat, cands, seed))
        run_world_trees(trees, self.prior, self.backend, self.value, simulations=s.simulations,
                        top_k=s.top_k, c1=s.c1, out_of_time=lambda: clock() >= deadline)
        visits = [sum(float(t.root.n[i]) for t in trees) for i in range(len(cands))]
        # most visited; ties go to the more probable candidate (the prior's order)
        best = max(range(len(cands)), key=lambda i: (visits[i], cands[i].prior))
        action = cands[best].action
        self.log.append(TreeDecision(
            True, time.process_time() - cpu0, time.perf_counter() - wall0, len(trees),
            sum(t.simulations for t in trees), action != pa.choice, tuple(visits)))
        return action


def make_mcts_pg_agent(seed: int = 0, env: Mapping[str, str] | None = None) -> MCTSPGAgent:
    """The registered ``mcts_pg``: settings from ``$TENPAI_MCTS_PG_*``, the prior ``pg`` (its
    model from ``$TENPAI_PG_MODEL`` as for ``pg``).  Bad settings raise one-line ValueErrors."""
    settings = MCTSPGSettings.from_env(env)
    return MCTSPGAgent(pg_prior(seed, env), settings=settings, seed=seed)

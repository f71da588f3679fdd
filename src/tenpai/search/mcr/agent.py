"""``search_mcr``: the planner's choice reconsidered by playouts over sampled MCR worlds.

At each decision the planner (:class:`~tenpai.agents.planner.PlannerAgent`) names its choice
and the alternatives it weighed with their values (:meth:`PlannerAgent.ranking`).  The agent
plays the planner's choice outright — exactly what ``planner`` plays — unless the planner is
*not sure*: its runner-up is worth at least ``close`` of its choice by the planner's own target
value, or, where neither keeps a target, the runner-up keeps the same MCR shanten.  Then it
takes the planner's top ``top_k`` actions and, world after world until ``worlds`` worlds or the
budget is spent (:class:`~tenpai.search.budget.Budget`):

1. samples a world from the position's view (:class:`~tenpai.search.mcr.worlds.MCRWorldSampler`;
   with ``WORLDS_MODE=weighted`` or ``speed`` resampled from a larger pool by how well each
   explains the opponents' discards, :mod:`tenpai.search.mcr.reading`; with ``history`` each
   opponent's hand picked by its whole discard history, :mod:`tenpai.search.mcr.history`);
2. plays the world to the end of the hand once per candidate, same world and same policy seeds
   (common random numbers; :class:`~tenpai.search.mcr.playout.MCRPlayout`);
3. values each end by the contest's score (the hand's Botzone points by default).

With ``POLICY=c:greedy`` step 2 runs in the compiled core
(:class:`~tenpai.search.mcr.compiled.CompiledMCRPlayout`): the same worlds, the same hand
ends as the Python ``greedy`` playouts, only cheaper, so more worlds fit the budget; a table
of another preset than ``botzone`` is refused in one line.  Steps 1 and 2 then skip the
Python round: each world is drawn straight into the core's state
(:mod:`tenpai.search.mcr.exported_worlds`, the same world tuple for tuple), and only a
candidate that needs the engine's step (a call) builds the world as a round.

The choice is the Riichi search's paired rule (:func:`~tenpai.search.choice.choose_paired`):
the planner's choice stands unless another candidate beats it, world by world, by more than
``z`` standard errors of the paired difference.  World seeds come from the agent's seed and
the decision's place (:func:`~tenpai.search.budget.decision_seed`), so a decision is
reproducible whenever the worlds cap binds before the budget.

The table is read only through the sampler, which keeps what the position has seen and
overwrites everything else, so two tables that differ only in hidden tiles give the same
worlds (``tests/search/mcr``).  A table whose wall the sampler does not know is refused with
one line (:class:`~tenpai.search.mcr.worlds.MCRWorldError`).  The one exception is a
measuring instrument: ``SIGHT=hands`` or ``all`` (:mod:`tenpai.search.mcr.sight`) keeps some of
the table's hidden tiles on purpose, to bound what the search could gain, and is never the
default.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from tenpai import tiles as T
from tenpai.agents.planner import PlannerAgent, make_planner_agent
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.search.budget import Budget, decision_seed
from tenpai.search.choice import DecisionStat, choose_paired
from tenpai.search.mcr.history import HistoryWalk, draw_history_hidden, tsumogiri_known
from tenpai.search.mcr.playout import MCRPlayout, hand_value
from tenpai.search.mcr.playout_backends import make_playout
from tenpai.search.mcr.reading import ShantenReading, draw_speed_hidden, turns_taken
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.sight import world_sampler
from tenpai.search.mcr.worlds import (
    HiddenDraw,
    WorldView,
    draw_hidden,
    reshuffled_wall,
    world_view,
)
from tenpai.search.weights import effective_size, normalised, resampled

if TYPE_CHECKING:
    from tenpai.search.mcr.exported_worlds import ExportedWorldPlayouts

__all__ = ["MCRSearchAgent", "make_search_mcr_agent", "planner_unsure"]


def planner_unsure(obs: Any, ranked: Sequence[tuple[Event, float]], close: float) -> bool:
    """Whether the planner's choice (``ranked[0]``) is worth reconsidering (module docstring)."""
    if len(ranked) < 2:
        return False
    (first, v1), (second, v2) = ranked[0], ranked[1]
    if v1 > 0.0 or v2 > 0.0:
        return v2 >= close * v1
    if first.type != "dahai" or second.type != "dahai":
        return True  # a claim where the planner defers to efficiency: let the playouts weigh it
    assert first.pai is not None and second.pai is not None
    counts = obs.counts

    def after(tile: int) -> int:
        k = T.kind_of(tile)
        counts[k] -= 1
        sh = shanten_mcr(counts)
        counts[k] += 1
        return sh

    return after(second.pai) == after(first.pai)


class MCRSearchAgent:
    """Decision-time search for MCR (see the module docstring)."""

    shares_tables: ClassVar[bool] = False

    def __init__(
        self, settings: MCRSearchSettings | None = None, *, seed: int = 0,
        planner: PlannerAgent | None = None, name: str = "search_mcr",
        exported_worlds: bool = True,
    ) -> None:
        self.settings = s = settings or MCRSearchSettings()
        self.planner = planner or PlannerAgent(seed)
        self.playout = make_playout(s.policy, s.own)
        self.sampler = world_sampler(s.sight)
        #: The weighted worlds' reading of the opponents' discards (None: uniform worlds).
        self.reading = ShantenReading(s.miss) if s.worlds_mode != "uniform" else None
        #: Kish's effective size of each weighted decision's pool (weighted and speed worlds),
        #: or of each history world's hands tried, the mean over its opponents (history).
        self.effective_sizes: list[float] = []
        self.seed = seed
        self.name = name
        #: With compiled playouts, draw worlds into the core's state instead of copying the
        #: round (False: the copy for every world, the same values; kept to measure and test).
        self.exported_worlds = exported_worlds
        self.identity = self._identity()
        self.log: list[DecisionStat] = []

    def set_budget_ms(self, budget_ms: float) -> None:
        """A new think time per searched decision (checked > 0 like the variable)."""
        from dataclasses import replace

        self.settings = replace(self.settings, budget_ms=budget_ms)
        self.identity = self._identity()

    def _identity(self) -> str:
        """Who played, for the arena's record: the prior's settings where they are not the
        shipped planner's (as ``planner`` records them), the playouts, the search's settings."""
        s, prior = self.settings, self.planner.identity
        return (f"prior planner{f' ({prior})' if prior else ''}; {self.playout.name}; "
                f"value {s.value}; {s.describe()}")

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        choice, ranked = self.planner.ranking(observation, legal)
        table = getattr(observation, "_table", None)
        if not isinstance(table, MCRRound) or not planner_unsure(
                observation, ranked, self.settings.close):
            self.log.append(DecisionStat(False, 0.0, 0.0, 0, 1, False))
            return choice
        cands = [e for e, _v in ranked[: self.settings.top_k]]
        return self._search(table, observation.seat, cands, legal)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def world_seed(self, table: MCRRound, seat: int, index: int) -> int:
        """The seed of world ``index`` of this decision (agent seed and decision place)."""
        hand = table.prevalent_wind * 4 + table.hand_number
        return decision_seed(self.seed, hand, len(table.events), seat, index)

    def values(self, table: MCRRound, seat: int, cands: Sequence[Event],
               legal: Sequence[Event] | None = None, first_world: int = 0
               ) -> list[list[float]]:
        """``values[w][i]``: candidate i's leaf value in world w, as many worlds as the budget
        and the cap allow (at least one).  ``legal``: the position's legal answers (whether it
        may win tells if a pass can be played in the core; unknown counts as may).  The search
        plays worlds ``0, 1, …`` of the decision; ``first_world`` starts elsewhere (another set
        of worlds, for a measurement's reference)."""
        s = self.settings
        budget = Budget(s.budget_ms, s.clock)
        out: list[list[float]] = []
        view = world_view(table, seat)
        exported = self._exported(table, seat, cands, legal, view)
        for seed, drawn in self.hidden_draws(table, view, first_world):
            if budget.spent(len(out)):
                break
            if exported is not None:
                ends = exported.play_world(seed, drawn)
                out.append([hand_value(end, seat, s.value) for end in ends])
                continue
            world = self.sampler.sample(table, seat, seed, view, drawn).round
            out.append([hand_value(self.playout.play_out(world, {seat: c}, seed), seat, s.value)
                        for c in cands])
        return out

    def hidden_draws(self, table: MCRRound, view: WorldView, first_world: int = 0
                     ) -> Iterator[tuple[int, HiddenDraw]]:
        """The decision's worlds in the order they are played, as (seed, hidden tiles): the
        sampler's draw of each world's seed, or with ``WORLDS_MODE=weighted`` (fair draws) or
        ``speed`` (speed players' hands) the picks of a weighted pool
        (:mod:`tenpai.search.mcr.reading`), each on a wall of its own seed, or with
        ``history`` each world's hands picked seat by seat from ``pool`` speed players' hands
        by the opponent's whole discard history (:mod:`tenpai.search.mcr.history`).
        Uniform and history draws are made one by one, as the budget lets the search play
        them."""
        s, seat = self.settings, view.seat
        seeds = [self.world_seed(table, seat, first_world + w) for w in range(s.worlds)]
        if self.reading is None:
            for seed in seeds:
                yield seed, self.sampler.draw(table, view, seed)
            return
        events = table._observe(seat).events
        if s.worlds_mode == "history":
            known = tsumogiri_known(events, seat)
            walks = {o: HistoryWalk(events, o, known) for o in view.others}
            turns = turns_taken(events, view.others)
            for seed in seeds:
                sizes: list[float] = []
                drawn = draw_history_hidden(view, seed, walks, turns, self.reading, s.pool,
                                            sizes)
                if sizes:
                    self.effective_sizes.append(sum(sizes) / len(sizes))
                yield seed, drawn
            return
        pool_seeds = [self.world_seed(table, seat, 100_000 + first_world + j)
                      for j in range(s.pool * s.worlds)]
        if s.worlds_mode == "speed":
            turns = turns_taken(events, view.others)
            pool = [draw_speed_hidden(view, x, turns, self.reading) for x in pool_seeds]
        else:
            pool = [draw_hidden(view, x) for x in pool_seeds]
        evidence = self.reading.evidence(events, view.others)
        weights = normalised(self.reading.log_weights(evidence, pool))
        self.effective_sizes.append(effective_size(weights))
        u = (self.world_seed(table, seat, 99_999 - first_world) % 1_000_003) / 1_000_003
        for seed, j in zip(seeds, resampled(weights, s.worlds, u)):
            yield seed, reshuffled_wall(pool[j], seed)

    def _exported(self, table: MCRRound, seat: int, cands: Sequence[Event],
                  legal: Sequence[Event] | None, view: WorldView
                  ) -> ExportedWorldPlayouts | None:
        """The decision's worlds drawn into the compiled core's state, where that applies."""
        if not self.exported_worlds or isinstance(self.playout, MCRPlayout):
            return None  # the compiled core is imported only for a compiled policy
        from tenpai.search.mcr.exported_worlds import ExportedWorldPlayouts, exports

        if exports(table) is not None:
            return None  # the copy path, which refuses the table in one line
        may_win = legal is None or any(e.type == "hora" for e in legal)
        return ExportedWorldPlayouts(self.playout, self.sampler, table, seat, cands, may_win,
                                     view)

    def _search(self, table: MCRRound, seat: int, cands: Sequence[Event],
                legal: Sequence[Event] | None = None) -> Event:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        values = self.values(table, seat, cands, legal)
        action = cands[choose_paired(values, 0, self.settings.z)]
        self.log.append(DecisionStat(
            True, time.process_time() - cpu0, time.perf_counter() - wall0, len(values),
            len(cands), action != cands[0]))
        return action


def make_search_mcr_agent(seed: int = 0, env: Mapping[str, str] | None = None) -> MCRSearchAgent:
    """The registered ``search_mcr``: settings from ``$TENPAI_SEARCH_MCR_*`` (a bad one is a
    one-line ValueError), the prior the registered ``planner`` with its ``$TENPAI_PLANNER_*``
    settings — a variable means the same for the planner alone and for the planner under the
    search (the shipped planner when none is set)."""
    e = os.environ if env is None else env
    return MCRSearchAgent(MCRSearchSettings.from_env(e), seed=seed,
                          planner=make_planner_agent(seed, e))

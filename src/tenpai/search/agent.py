"""The ``search`` agent: the prior's choice, reconsidered by playouts over sampled worlds.

At each decision the prior (``pg``) proposes its greedy action and candidates with
probabilities.  When its own choice has probability at least ``threshold`` — or there is one
candidate — the agent plays it and nothing else happens, so ``search`` plays exactly like the
prior wherever it does not search.  With ``call_offers`` set, an offer to call (pon, chi or open
kan, which may be passed) is searched however sure the prior is, with the pass and the prior's
likeliest call among the candidates (:meth:`SearchAgent.candidates`): the threshold otherwise
leaves most call offers to the prior alone (docs/search_runs.md, "Call offers").  Otherwise the
agent takes the prior's top ``top_k`` candidates (its own choice always among them) and, world
after world until ``worlds`` worlds or the budget is spent:

1. samples a world from this seat's view (:class:`~tenpai.search.worlds.WorldSampler`; what
   the worlds of the decision share is prepared once, and each is built in the same copy of
   the table, which the backends play copies of);
2. plays the world out once per candidate with the playout backend — same world, same seed,
   so the candidates are compared with common random numbers;
3. values each hand end with the leaf value (placement utility by default).

With ``deal_in`` other than ``worlds`` each candidate discard's immediate deal-in (to the
opponents outside riichi, those in riichi or both) is then folded into its values in closed
form (:mod:`tenpai.search.deal_in`).

The playout of step 2 is by default a full one, every seat on the playout policy; with
``leaf`` = ``solo`` it is the one-player playout (the searching seat on the policy, the others
passive), and with ``auto`` the one-player playout where no opponent threatens at the decision
(:mod:`tenpai.search.leaves`; the decision's log says which leaf it used).

A world is the unit of time: the budget is checked before each world and the first is always
played, so a decision overruns the budget by at most one world's playouts.  The budget runs on
the wall clock by default, or on the process's CPU time (``clock = "cpu"``) for measurements on
a shared machine.

**Choice** — two rules (``rule`` setting):

* ``paired`` (default): the prior's choice stands unless another candidate beats it, world by
  world, by more than ``z`` standard errors of the paired difference (common random numbers
  make that difference much less noisy than either mean); among those that do, the largest
  mean gain wins.  The prior enters as the default and through the candidate list.  With
  ``call_z_scale`` below 1, a call replacing the prior's pass needs only ``z × call_z_scale``
  (:meth:`SearchAgent.bars`): the prior passes at nearly every offer, and the bar alone keeps
  out calls the worlds favour on average;
* ``puct``: with ``n`` worlds played, ``Q(a)`` the mean leaf value of candidate ``a`` divided by
  the leaf value's scale (the utility's spread between 1st and 4th, or 12,000 points), ``P(a)``
  its prior and ``K`` the number of candidates, ``argmax_a Q(a) + c_prior · P(a) · sqrt(K·n) /
  (1 + n)``: the prior's say shrinks like 1/sqrt(n) as evidence accumulates.

Three players (``tenhou_sanma``): the same search on the three-seat table — the worlds draw
from the 108-tile set with the Norths set aside counted as seen, the playouts run the same
compiled policies (which set Norths aside where their kan rule says so), and the leaf value is
the three-player placement model under Tenhou's three-player rank points.  The agent keeps
one leaf value per table size it can value (:attr:`SearchAgent.values`); a placement-model
file or a utility of one size only leaves it that size (``model_players``), and a table of
another size is refused before any game.

Seeds: the world seeds of a decision come from the agent's seed and the decision's place in
the game (hand, event count, seat), so a decision's search is reproducible when the ``worlds``
cap binds before the time budget (tests set a large budget for that reason).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from tenpai.events import Event
from tenpai.rules.riichi.compiled_round import python_table
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import can_end_game
from tenpai.search.budget import Budget, decision_seed
from tenpai.search.call_likelihood import CallLikelihood
from tenpai.search.choice import DecisionStat, choose_paired, choose_puct, paired_advantage
from tenpai.search.deal_in import DealInModel, adjusted, discard_kinds, world_hits
from tenpai.search.leaves import leaf_for
from tenpai.search.placement import PlacementError
from tenpai.search.playout import LeafValue, PlayoutBackend, PointsValue
from tenpai.search.playout_backends import make_backend
from tenpai.search.prior import Candidate, Prior, PriorAnswer
from tenpai.search.prior_searcher import PriorSearcher, pg_prior, placement_value
from tenpai.search.rebuild import (
    RebuildError,
    engine_twins,
    latest_start,
    rebuild_rules,
    rebuild_table,
)
from tenpai.search.settings import SearchSettings
from tenpai.search.sight import world_sampler
from tenpai.search.weights import (
    DiscardLikelihood,
    SummedLikelihood,
    WorldLikelihood,
    effective_size,
    normalised,
    resampled,
)
from tenpai.search.win_passes import WinPassLikelihood
from tenpai.search.worlds import Hands, Prepared, WorldError, WorldSampler

__all__ = [
    "CALL_TYPES",
    "DecisionStat",
    "SearchAgent",
    "choose_paired",
    "choose_puct",
    "is_call_offer",
    "make_search_agent",
    "paired_advantage",
]


class SearchAgent(PriorSearcher[SearchSettings]):
    """Decision-time search over sampled worlds (see the module docstring)."""

    def __init__(
        self,
        prior: Prior,
        *,
        settings: SearchSettings | None = None,
        backend: PlayoutBackend | None = None,
        value: LeafValue | None = None,
        sampler: WorldSampler | None = None,
        weigher: WorldLikelihood | None = None,
        seed: int = 0,
        name: str = "search",
        solo_backend: PlayoutBackend | None = None,
    ) -> None:
        """``solo_backend`` plays the one-player leaf (built from the settings' policy when
        first needed if not given).  ``weigher`` weights the worlds when
        ``settings.worlds_mode`` is "weighted"; by default it is built on the prior's own
        network (a prior without one is refused): the discards' likelihood, with
        ``settings.weight_calls`` the calls' too, and with ``settings.weight_win_passes`` the
        passed wins (under the rules of the table searched:
        :class:`~tenpai.search.win_passes.WinPassLikelihood`)."""
        s = settings or SearchSettings()
        backend = backend or make_backend(s.policy, s.playout_yaku)
        if value is None:
            values = _leaf_values(s)
        else:
            values = {n: value for n in _sizes_of(value)}
        primary = values.get(4) or next(iter(values.values()))
        super().__init__(prior, s, backend, primary, seed, name)
        #: The leaf value of each table size the agent can search (3 and/or 4 seats).
        self.values: dict[int, LeafValue] = values
        self.model_players = next(iter(values)) if len(values) == 1 else None
        self.sampler = sampler or world_sampler(s.sight, s.opponents, s.riichi_ready,
                                                s.read_waits)
        if s.worlds_mode == "weighted" and weigher is None:
            network = getattr(prior, "agent", None)
            if network is None or not hasattr(network, "bundle"):
                raise ValueError("TENPAI_SEARCH_WORLDS_MODE=weighted needs a network prior "
                                 f"(the prior {prior.name!r} has no discard network)")
            parts: list[WorldLikelihood] = [DiscardLikelihood(network, s.weight_temperature)]
            if s.weight_calls:
                parts.append(CallLikelihood(network, s.weight_temperature))
            if s.weight_win_passes:
                parts.append(WinPassLikelihood())
            weigher = parts[0] if len(parts) == 1 else SummedLikelihood(parts)
        self.weigher = weigher if s.worlds_mode == "weighted" else None
        #: The closed-form immediate deal-in of candidate discards (``deal_in`` not "worlds").
        self.deal_in = DealInModel(s.deal_in) if s.deal_in != "worlds" else None
        self.log: list[DecisionStat] = []
        self._from_engine: dict[Event, Event] = {}
        self._solo_backend = solo_backend

    def backend_for(self, leaf: str) -> PlayoutBackend:
        """The playout backend of a leaf: the settings' for ``playout``, its one-player twin
        (the same policy for the searching seat, passive seats around it) for ``solo``."""
        if leaf == "playout":
            return self.backend
        if leaf != "solo":
            raise ValueError(f"a searched decision's leaf is playout or solo, not {leaf!r}")
        if self._solo_backend is None:
            s = self.settings
            self._solo_backend = make_backend(s.policy, s.playout_yaku, solo=True)
        return self._solo_backend

    # ------------------------------------------------------------------ one decision
    def _decide(self, obs: Any, legal: Sequence[Event], pa: PriorAnswer) -> Event:
        s = self.settings
        offer = is_call_offer(legal)
        several = len(pa.candidates) > 1
        wanted = several and (pa.choice_prior < s.threshold or (offer and s.call_offers))
        if (several and not wanted and pa.choice_prior < s.last_threshold
                and _may_end_game(obs)):
            wanted = True  # the last hand's gate (``last_threshold``)
        # the engine's Python round (on the compiled table built on demand: only when wanted)
        table = python_table(getattr(obs, "_table", None)) if wanted else None
        rebuilt = False
        if wanted and not isinstance(table, RiichiRound) and s.sight != "fair":
            raise WorldError(f"TENPAI_SEARCH_SIGHT={s.sight} reads the engine's own table, and "
                             f"this seat's view ({type(obs).__name__}) holds no other hand")
        if wanted and not isinstance(table, RiichiRound) and hasattr(obs, "events"):
            # a seat's view without an engine table (mjai, the Tenhou client): rebuild one
            try:
                table = rebuild_table(obs.events, obs.seat, legal, rebuild_rules(obs))
                rebuilt = True
            except RebuildError:
                self.rebuild_failures += 1
        searchable = (wanted and isinstance(table, RiichiRound)
                      and table.players in self.values)
        if not searchable:
            self.log.append(DecisionStat(False, 0.0, 0.0, 0, 1, False, call_offer=offer))
            return pa.choice
        assert isinstance(table, RiichiRound)
        if rebuilt:
            pa = self._to_engine(table, obs.seat, pa)
            if pa.choice_prior <= 0.0:  # the prior's own choice has no engine twin
                self.rebuild_failures += 1
                self.log.append(DecisionStat(False, 0.0, 0.0, 0, 1, False, call_offer=offer))
                return self._from_engine.get(pa.choice, pa.choice)
        action = self._search(table, obs.seat, pa, offer)
        return self._from_engine.get(action, action) if rebuilt else action

    def _to_engine(self, table: RiichiRound, seat: int, pa: PriorAnswer) -> PriorAnswer:
        """The prior's answer in the rebuilt table's events (``_from_engine`` maps back)."""
        twin, self._from_engine = engine_twins(table, seat, pa)
        return twin

    def candidates(self, pa: PriorAnswer, call_offer: bool = False) -> list[Candidate]:
        """The prior's top ``top_k`` candidates, its own choice always included.

        With ``call_offers`` set and a call offered, the pass and the prior's likeliest call
        are included too (however unlikely the prior finds them, which is why the offer is
        searched at all), then the likeliest others up to ``top_k``: a prior sure of passing
        would otherwise leave the call among the candidates only by the luck of the cut."""
        k = self.settings.top_k
        if not (call_offer and self.settings.call_offers):
            top = list(pa.candidates[:k])
            if all(c.action != pa.choice for c in top):
                top[-1] = next(c for c in pa.candidates if c.action == pa.choice)
            return top
        passing = next((c.action for c in pa.candidates if c.action.type == "none"), None)
        call = next((c.action for c in pa.candidates if c.action.type in CALL_TYPES), None)
        must = {a for a in (pa.choice, passing, call) if a is not None}
        others = [c for c in pa.candidates if c.action not in must]
        kept = must | {c.action for c in others[: max(0, k - len(must))]}
        return [c for c in pa.candidates if c.action in kept]

    def bars(self, cands: Sequence[Candidate], base: int, call_offer: bool) -> list[float]:
        """The paired rule's bar (in standard errors) for each candidate: ``z``, except a call
        replacing the prior's pass at an offer to call, which needs ``z × call_z_scale``."""
        s = self.settings
        lower = call_offer and cands[base].action.type == "none"
        return [s.z * s.call_z_scale if lower and c.action.type in CALL_TYPES else s.z
                for c in cands]

    def world_seed(self, table: RiichiRound, seat: int, index: int) -> int:
        """The seed of world ``index`` of this decision (agent seed and decision place)."""
        return decision_seed(self.seed, table.hand_index, len(table.events), seat, index)

    def _search(self, table: RiichiRound, seat: int, pa: PriorAnswer,
                call_offer: bool = False) -> Event:
        s = self.settings
        cands = self.candidates(pa, call_offer)
        leaf = leaf_for(s.leaf, table, seat)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        model = self.deal_in
        kinds = discard_kinds(cands) if model is not None else None
        hits: list[frozenset[int]] | None = (
            [] if model is not None and model.reads_riichi and kinds is not None else None)
        # what the worlds of this decision share, once (the deal-in model reads it too)
        prep = self.sampler.prepare(table, seat, reuse_round=True)
        values, ess, weigh = self.world_values(table, seat, cands, leaf, hits=hits, prep=prep)
        if model is not None and kinds is not None:
            values = self.fold_deal_in(model, prep, cands, kinds, values, hits)
        base = next(i for i, c in enumerate(cands) if c.action == pa.choice)
        if s.rule == "puct":
            best = choose_puct(cands, values, self.values[table.players].scale, s.c_prior)
        else:
            best = choose_paired(values, base, self.bars(cands, base, call_offer))
        action = cands[best].action
        self.log.append(DecisionStat(
            True, time.process_time() - cpu0, time.perf_counter() - wall0, len(values),
            len(cands), action != pa.choice, ess, weigh, call_offer, leaf))
        return action

    def fold_deal_in(self, model: DealInModel, prep: Prepared, cands: Sequence[Candidate],
                     kinds: Sequence[int], values: list[list[float]],
                     hits: Sequence[frozenset[int]] | None) -> list[list[float]]:
        """``values`` with each candidate discard's immediate deal-in in closed form
        (:mod:`tenpai.search.deal_in`) at the decision ``prep`` (the worlds'
        :meth:`~tenpai.search.worlds.WorldSampler.prepare`); ``hits[w]``: the kinds world w's
        riichi hands win on at once (recorded by :meth:`world_values`, with a model that reads
        riichi)."""
        table, seat = prep.table, prep.seat
        riichi = (model.riichi_census(self.sampler, prep, kinds,
                                      self.world_seed(table, seat, 200_000))
                  if model.riichi_census_used else None)
        dangers = model.dangers(table, seat, cands, self.values[table.players], prep.events,
                                riichi)
        if dangers is None:
            return values
        return adjusted(values, dangers, kinds, hits)

    def world_values(self, table: RiichiRound, seat: int, cands: Sequence[Candidate],
                     leaf: str = "playout", first_world: int = 0,
                     hits: list[frozenset[int]] | None = None, prep: Prepared | None = None,
                     ) -> tuple[list[list[float]], float, float]:
        """``values[w][i]``, candidate i's leaf value in world w, for the worlds played before
        the budget ran out (the first always), each candidate played by ``leaf``'s backend;
        with weighted worlds also the pool's effective size and the CPU seconds of weighting
        it (else 0, 0).  The worlds and their seeds do not depend on ``leaf``; the search
        plays worlds ``0, 1, …`` of the decision, ``first_world`` starts elsewhere (another
        set of worlds for a measurement's noise floor, uniform worlds only).  ``hits``, when
        given, gets each played world's :func:`~tenpai.search.deal_in.world_hits`; ``prep``: the
        decision's ``prepare(table, seat, reuse_round=True)``, when the caller made it."""
        s = self.settings
        value = self.values[table.players]
        backend = self.backend_for(leaf)
        budget = Budget(s.budget_ms, s.clock)
        values: list[list[float]] = []
        plan: list[Hands] | None = None
        ess = weigh = 0.0
        # what the worlds of this decision share, once; each world is built in the same copy
        # of the table (the backend plays copies of it and leaves it as it found it)
        prep = prep or self.sampler.prepare(table, seat, reuse_round=True)
        if self.weigher is not None:
            t0 = time.process_time()
            plan, ess = self.weighted_pool(table, seat, prep)
            weigh = time.process_time() - t0
        for w in range(s.worlds):
            if budget.spent(len(values)):
                break
            seed = self.world_seed(table, seat, first_world + w)
            if plan is None:
                world = self.sampler.world(prep, seed)
            else:
                world = self.sampler.world_with(prep, plan[w], seed)
            if hits is not None:
                hits.append(world_hits(world.round, seat))
            many = getattr(backend, "play_out_many", None)
            if many is not None:  # every candidate of the world in one call
                ends = [e[0] for e in many(world.round, [{seat: c.action} for c in cands], [seed])]
            else:
                ends = [backend.play_out(world.round, {seat: c.action}, seed) for c in cands]
            values.append([value.value(end, seat) for end in ends])
        return values, ess, weigh

    def weighted_pool(self, table: RiichiRound, seat: int, prep: Prepared | None = None
                      ) -> tuple[list[Hands], float]:
        """The hand assignments of the worlds to play, in order, and the pool's effective size:
        ``pool × worlds`` assignments sampled, weighted by the opponents' discard likelihood
        (:class:`~tenpai.search.weights.DiscardLikelihood`) and resampled systematically.  A
        pick drawn twice is built on two walls (each played world has its own seed).  ``prep``
        is the decision's :meth:`~tenpai.search.worlds.WorldSampler.prepare` (made here
        without it)."""
        s = self.settings
        assert self.weigher is not None
        prep = prep or self.sampler.prepare(table, seat)
        n = s.pool * s.worlds
        pool = [self.sampler.hands(prep, self.world_seed(table, seat, 100_000 + j))
                for j in range(n)]
        evidence = self.weigher.evidence(list(prep.events), seat, table.players, table.rules)
        logw = self.weigher.log_weights(evidence, [h.hands for h in pool])
        weights = normalised(logw)
        u = (self.world_seed(table, seat, 99_999) % 1_000_003) / 1_000_003
        return [pool[j] for j in resampled(weights, s.worlds, u)], effective_size(weights)


#: The calls a claim window can offer besides a win (``call_offers`` searches these offers).
CALL_TYPES = ("pon", "chi", "daiminkan")


def is_call_offer(legal: Sequence[Event]) -> bool:
    """Whether the decision offers a pon, chi or open kan that may be passed."""
    return (any(e.type in CALL_TYPES for e in legal)
            and any(e.type == "none" for e in legal))


def _sizes_of(value: LeafValue) -> tuple[int, ...]:
    """The table sizes a leaf value can value: a placement value its model's, any other
    (points) both."""
    model = getattr(value, "model", None)
    players = getattr(model, "players", None)
    return (players,) if isinstance(players, int) else (4, 3)


def _leaf_values(s: SearchSettings) -> dict[int, LeafValue]:
    """The settings' leaf value for each table size it exists for: points for both; the
    placement value of a given file for that file's size; the shipped models for every size
    the utility fits (a custom utility of four weights is four-player only, of three weights
    three-player only).  Raises a one-line ValueError when none fits."""
    if s.value == "points":
        return {4: PointsValue(), 3: PointsValue()}
    if s.placement_model:
        v = placement_value(s.placement_model, s.utility, None)
        return {v.model.players: v}
    out: dict[int, LeafValue] = {}
    errors: list[str] = []
    for n in (4, 3):
        try:
            out[n] = placement_value("", s.utility, n)
        except (ValueError, PlacementError) as err:
            errors.append(str(err))
    if not out:
        raise ValueError(f"TENPAI_SEARCH_UTILITY: {errors[0]}")
    return out


def _may_end_game(obs: Any) -> bool:
    """Whether the observed hand may end the game (:func:`can_end_game`): from the engine's
    observation (its ``rules``, round wind and hand), else (the fronts' streams) from its
    latest ``start_kyoku`` under the rules the table rebuild uses
    (:func:`~tenpai.search.rebuild.rebuild_rules`: the front's, a tonpuu's East 4 included); a
    stream that says nothing counts as not."""
    if isinstance(obs, RiichiObservation):
        return can_end_game(obs.rules, obs.bakaze, obs.kyoku)
    start = latest_start(getattr(obs, "events", ()))
    if start is None or start.bakaze is None or start.kyoku is None:
        return False
    try:
        rules = rebuild_rules(obs)
    except RebuildError:
        return False
    return can_end_game(rules, start.bakaze, start.kyoku)


def make_search_agent(seed: int = 0, env: Mapping[str, str] | None = None) -> SearchAgent:
    """The registered ``search``: settings from ``$TENPAI_SEARCH_*``, the prior ``pg`` (its
    model from ``$TENPAI_PG_MODEL`` as for ``pg``).  Bad settings raise one-line ValueErrors."""
    settings = SearchSettings.from_env(env)
    return SearchAgent(pg_prior(seed, env), settings=settings, seed=seed)

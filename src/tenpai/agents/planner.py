"""The fan-aware MCR player: steer every discard and call toward the best 8-point target.

``efficiency`` plays the fastest hand and often ends ready with fewer than 8 fans, a hand
that can never be declared.  This agent asks the planner (:mod:`tenpai.rules.mcr.plan`) for
the complete hands worth 8 or more within reach, each with the probability of drawing what
it still needs, and plays to keep the most valuable one:

* **discard**: the tile whose discard keeps the target of highest probability × (24 + fans)
  (:func:`~tenpai.rules.mcr.plan.best_by_discard`); equal values go to the efficiency order
  (lower MCR shanten, then more live effective tiles);
* **chow / pung**: only calls that lower the MCR shanten are considered (a call that does not
  speed the hand up only gives away its concealed fans), and one is made when the best
  target after it is worth more than the best target of passing;
* **wins** are always declared (the engine offers only legal, 8-fan wins); concealed kongs
  as ``efficiency`` declares them; open kongs are never called.

Where no target is within the planner's reach, or the hand is more than
:data:`PLAN_MAX_DISTANCE` tiles from any win (too far for the search to be affordable or
its probabilities to mean much), it plays exactly as ``efficiency``.

**Defense** (``PlannerSettings.defense``; the registered ``planner_defend`` turns it on):
MCR announces no ready hand, so the danger of each discard is read from what the table shows
(:mod:`tenpai.rules.mcr.danger`: the opponents' melds and discards, tiles they let pass, the
copies in sight).  Once some opponent is likely enough to be ready (``threat``), a discard is
worth the value of the target it keeps, lost with its chance of dealing in, which also costs
``deal_in_cost`` points: a valuable hand close to a win keeps pushing, a poor one gives up
its target for the safest tile.

Two more settings serve Botzone's scoring, which pays a self-draw's fans three times:
``fan_weight`` (a fan's weight in a target's value, :class:`~tenpai.rules.mcr.plan.Valuation`)
and ``call_margin`` (what a call's best target must gain over passing's).  ``claims`` counts
the opponents' discards in a target's probability (the draws-and-claims model of
:mod:`tenpai.rules.mcr.plan.odds`; 0, the default, counts only the player's own draws).  ``race``
weighs a target's completion at each future draw by the chance no other seat has won before it
(:mod:`tenpai.rules.mcr.plan.race`; ``off``, the default, is the shipped value).  ``value``
says how a discard or call is valued: ``best`` (the default), its single best target;
``union``, the expected value of the best target the draws complete
(:mod:`tenpai.rules.mcr.plan.union`), which rewards keeping several targets open.
``tie_break`` says which of the discards keeping equally valuable targets is played (most
discards, since every tile the best target lets go keeps it): ``efficiency`` (the default),
efficiency's order; ``runner_up``, first the one whose second-best kept target is worth most
(:func:`~tenpai.rules.mcr.plan.best_and_runner_up`); ``safety``, among those of the lowest
shanten after the discard, the one least likely to deal in.  ``sight`` (``walls``, ``draws``,
``wins``) makes the agent a measuring instrument that reads hidden tiles
(:mod:`tenpai.agents.planner_sight`).
The defaults are the shipped planner; docs/mcr_strength_runs.md has their development runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tenpai import tiles as T
from tenpai.agents.efficiency import (
    EfficiencyAgent,
    best_discard_mcr,
    is_mcr_observation,
    mcr_ukeire,
)
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.agents.planner_sight import own_draws, undeclared_discards, wall_live
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr import Meld
from tenpai.rules.mcr.danger import deal_in_probability, read_opponents
from tenpai.rules.mcr.plan import (
    PlanState,
    Target,
    Valuation,
    best_and_runner_up,
    best_by_discard,
    best_target,
    decision_seed,
    union_by_discard,
    union_value,
)
from tenpai.rules.mcr.plan.foresight import foresight_best, foresight_by_discard

__all__ = [
    "PLAN_MAX_DISTANCE",
    "SAFETY_TOLERANCE",
    "PlannerAgent",
    "PlannerError",
    "defended_discard",
    "make_planner_agent",
    "make_planner_defend_agent",
    "plan_state",
    "planned_discard",
    "scored_melds",
]

#: Deal-in chances (``tenpai.rules.mcr.danger``) closer than this are equal for the ``safety``
#: tie-break: early in a hand every tile reads near 0, and efficiency's order then decides.
SAFETY_TOLERANCE = 0.005

#: Beyond this many tiles from any win (MCR shanten + 1) the agent plays efficiency's
#: discard: the search grows with the distance and its estimates get too small to rank.
PLAN_MAX_DISTANCE = 5


class PlannerError(ValueError):
    """The planner agent was given a table it does not play (it plays MCR only)."""


def scored_melds(obs: Any) -> tuple[Meld, ...]:
    """The observing position's melds as the MCR scorer reads them."""
    out: list[Meld] = []
    seat = obs.seat
    for m in obs.melds[seat]:
        kinds = tuple(T.kind_of(t) for t in m.tiles)
        offset = 1 if m.target is None else ((seat - m.target) % 4 or 1)
        if m.type == "chi":
            out.append(Meld("chow", kinds, 1))
        elif m.type == "pon":
            out.append(Meld("pung", kinds, offset))
        elif m.type == "daiminkan":
            out.append(Meld("exposed_kong", kinds, offset))
        elif m.type == "kakan":
            out.append(Meld("promoted_kong", kinds, offset))
        else:
            out.append(Meld("concealed_kong", kinds, 0))
    return tuple(out)


def plan_state(
    obs: Any, counts: Sequence[int] | None = None, melds: tuple[Meld, ...] | None = None,
    claim_rate: float = 0.0, race: tuple[float, ...] = (),
) -> PlanState:
    """The planner's view of an MCR observation (optionally with the hand and melds a call
    would leave; ``claim_rate`` > 0 counts the opponents' discards in its probabilities,
    a ``race`` survival table weighs each target's completion by the hand's survival)."""
    own = obs.counts if counts is None else counts
    visible = obs.visible_counts()
    live = tuple(max(0, 4 - c - v) for c, v in zip(obs.counts, visible))
    return PlanState(
        concealed=tuple(own),
        melds=scored_melds(obs) if melds is None else melds,
        live=live,
        draws=obs.draws_left,
        seat_wind=obs.seat_wind - 27,
        prevalent_wind=obs.prevalent_wind,
        claim_rate=claim_rate,
        race=race,
    )


class PlannerAgent:
    """Fan-aware MCR player (see the module docstring)."""

    def __init__(self, seed: int = 0, name: str = "planner",
                 settings: PlannerSettings | None = None) -> None:
        self.name = name
        self.settings = settings or PlannerSettings()
        #: What the arena stores of who played: the settings that differ from the defaults
        #: ("" for the defaults, as before there were settings, so old runs still pool).
        described = self.settings.describe()
        self.identity = "" if described == "defaults" else described
        self._efficiency = EfficiencyAgent(seed)
        self.valuation = Valuation(fan_weight=self.settings.fan_weight)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        if not is_mcr_observation(observation):
            raise PlannerError("the planner agent plays MCR only")
        types = {e.type for e in legal}
        if "dahai" in types:
            for e in legal:
                if e.type == "ankan":
                    choice = self._efficiency.act(observation, legal)
                    if choice.type == "ankan":
                        return choice
            return self.discard(observation, [e for e in legal if e.type == "dahai"])
        if types & {"chi", "pon"}:
            return self._claim(observation, legal)
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def ranking(self, obs: Any, legal: Sequence[Event]) -> tuple[Event, list[tuple[Event, float]]]:
        """What :meth:`act` plays and the alternatives it weighed, its own choice first and
        the rest best first, each with the planner's value (probability × (24 + fans) of the
        best target the action keeps; 0 where none is kept or the planner defers to
        ``efficiency``).  Discards: one per kind, ties in value broken by efficiency's order
        (lower MCR shanten after it, then more live effective tiles; ``tie_break`` orders the
        choice itself, which comes first either way).  A search reconsiders
        the choice among these; a single entry means there is nothing to weigh (a win, a
        concealed kong, a claim with no call that speeds the hand up)."""
        for e in legal:
            if e.type == "hora":
                return e, [(e, 0.0)]
        if not is_mcr_observation(obs):
            raise PlannerError("the planner agent plays MCR only")
        types = {e.type for e in legal}
        if "dahai" in types:
            if any(e.type == "ankan" for e in legal):
                choice = self.act(obs, legal)
                if choice.type == "ankan":
                    return choice, [(choice, 0.0)]
            discards = [e for e in legal if e.type == "dahai"]
            targets, runner_up = self._discard_plan(obs)
            values = self.discard_values(obs, targets)
            choice = self._choose_discard(obs, discards, targets, values, runner_up)
            return choice, _rank_discards(obs, discards, values, choice)
        if types & {"chi", "pon"}:
            choice, weighed = self._weigh_claim(obs, legal)
            rest = sorted((w for w in weighed if w[0] != choice), key=lambda w: -w[1])
            mine = next((v for e, v in weighed if e == choice), 0.0)
            return choice, [(choice, mine), *rest]
        skip = next((e for e in legal if e.type == "none"), legal[0])
        return skip, [(skip, 0.0)]

    # ------------------------------------------------------------------ discards
    def discard_targets(self, obs: Any) -> dict[int, Target]:
        """Per kind in hand, the best target its discard keeps (empty when out of reach)."""
        return self._discard_plan(obs)[0]

    def _discard_plan(self, obs: Any) -> tuple[dict[int, Target], dict[int, float]]:
        """Per kind in hand, the best target its discard keeps and, under the ``runner_up``
        tie-break, the value of the second best (empty where it plays no part)."""
        if shanten_mcr(obs.counts) + 1 > PLAN_MAX_DISTANCE:
            return {}, {}
        if self.settings.tie_break != "runner_up":
            return self._kept_targets(obs, self.state(obs)), {}
        return best_and_runner_up(self.state(obs), self.valuation)

    def _kept_targets(self, obs: Any, state: PlanState) -> dict[int, Target]:
        """Per kind, the best target its discard keeps: by the odds, or under the ``draws``
        sight by the known order of the seat's own draws."""
        if self.settings.sight == "draws":
            return foresight_by_discard(state, own_draws(obs), self.valuation)
        return best_by_discard(state, self.valuation)

    def discard_values(self, obs: Any, targets: dict[int, Target]) -> dict[int, float]:
        """Per kind in hand, the value of discarding it: its best target's (``value=best``),
        or the expected value of the best kept target the draws complete (``value=union``,
        :mod:`tenpai.rules.mcr.plan.union`; none where the best rule keeps no target)."""
        if self.settings.value == "best" or not targets:
            return {k: t.value for k, t in targets.items()}
        return union_by_discard(self.state(obs), self.valuation)

    def discard(self, obs: Any, discards: Sequence[Event]) -> Event:
        targets, runner_up = self._discard_plan(obs)
        return self._choose_discard(obs, discards, targets, self.discard_values(obs, targets),
                                    runner_up)

    def _choose_discard(self, obs: Any, discards: Sequence[Event], targets: dict[int, Target],
                        values: dict[int, float], runner_up: Mapping[int, float]) -> Event:
        if self.settings.sight == "wins":
            discards = undeclared_discards(obs, discards)
        if self.settings.defense:
            return defended_discard(obs, discards, targets, self.settings, values, runner_up)
        danger = discard_danger(obs, discards) if self.settings.tie_break == "safety" else None
        return planned_discard(obs.counts, discards, obs.visible_counts(), targets, values,
                               runner_up, danger)

    # ------------------------------------------------------------------ calls
    def _claim(self, obs: Any, legal: Sequence[Event]) -> Event:
        return self._weigh_claim(obs, legal)[0]

    def _weigh_claim(
        self, obs: Any, legal: Sequence[Event]
    ) -> tuple[Event, list[tuple[Event, float]]]:
        """The claim answer and what it weighed: passing and each call that lowers the MCR
        shanten, with the value of its best target (all 0 where the planner defers to
        ``efficiency``: out of reach, or no call keeps a target)."""
        counts = obs.counts
        before = shanten_mcr(counts)
        options: list[tuple[Event, list[int], Meld]] = []
        for e in legal:
            if e.type not in ("chi", "pon") or e.pai is None:
                continue
            after = counts.copy()
            for c in e.consumed:
                after[T.kind_of(c)] -= 1
            if min(_sh_after_discard(after, k) for k in range(34) if after[k]) >= before:
                continue
            kinds = tuple(sorted(T.kind_of(t) for t in (*e.consumed, e.pai)))
            offset = 1 if e.target is None else ((obs.seat - e.target) % 4 or 1)
            meld = Meld("chow", kinds, 1) if e.type == "chi" else Meld("pung", kinds, offset)
            options.append((e, after, meld))
        skip = next(e for e in legal if e.type == "none")
        if not options:
            return skip, [(skip, 0.0)]
        if before + 1 > PLAN_MAX_DISTANCE:
            deferred = [(skip, 0.0), *((e, 0.0) for e, _a, _m in options)]
            return self._efficiency.act(obs, legal), deferred
        pass_value = self._pass_value(obs)
        weighed = [(skip, pass_value)]
        own = scored_melds(obs)
        best_call, call_value = skip, 0.0
        seed = decision_seed(self.state(obs))  # passing and every call on the same draws
        for e, after, meld in options:
            state = self.state(obs, after, (*own, meld))
            if self.settings.value == "union":
                value = max(union_by_discard(state, self.valuation, seed=seed).values(),
                            default=0.0)
            else:
                targets = self._kept_targets(obs, state)
                value = max((t.value for t in targets.values()), default=0.0)
            weighed.append((e, value))
            if best_call is skip or value > call_value:
                best_call, call_value = e, value
        # a call gives away concealed fans and a turn's choice: it must gain (call_margin)
        if call_value > pass_value * (1.0 + self.settings.call_margin):
            best, best_value = best_call, call_value
        else:
            best, best_value = skip, pass_value
        if best_value <= 0.0:
            return self._efficiency.act(obs, legal), weighed
        return best, weighed

    def state(self, obs: Any, counts: Sequence[int] | None = None,
              melds: tuple[Meld, ...] | None = None) -> PlanState:
        """The planner's view of an observation under this agent's claim rate and race table
        (public for tools that reach the agent by name only, e.g. the calibration bench); under
        the ``walls`` sight, with the copies in the undrawn walls as its live tiles."""
        state = plan_state(obs, counts, melds, self.settings.claims, self.settings.race_table)
        if self.settings.sight == "walls":
            state = replace(state, live=wall_live(obs))
        return state

    def _pass_value(self, obs: Any) -> float:
        """The value of passing a claim: the best target of the hand as it stands (or the
        union figure), computed afresh at every claim window.  Not cached: it reads the
        unseen tiles, which every discard changes, and the winds, so a window never repeats
        a state (docs/mcr_strength_runs.md: a cache keyed on hand, melds and draws left returned
        stale values, and one keyed on the whole state never hit)."""
        state = self.state(obs)
        if self.settings.value == "union":
            return union_value(state, self.valuation)
        if self.settings.sight == "draws":
            target = foresight_best(state, own_draws(obs), self.valuation)
        else:
            target = best_target(state, self.valuation)
        return target.value if target is not None else 0.0


def discard_danger(obs: Any, discards: Sequence[Event]) -> dict[int, float]:
    """Per kind among ``discards``, the chance of dealing in by discarding it now, read from
    the table as ``tenpai.rules.mcr.danger`` reads it (empty while nobody may be ready)."""
    readings = read_opponents(obs.seat, obs.events)
    if not readings or max(r.ready for r in readings) <= 0.0:
        return {}
    unseen = [max(0, 4 - c - v) for c, v in zip(obs.counts, obs.visible_counts())]
    kinds = {T.kind_of(e.pai) for e in discards if e.pai is not None}
    return {k: deal_in_probability(k, readings, unseen) for k in kinds}


def planned_discard(
    counts: list[int], discards: Sequence[Event], visible: Sequence[int],
    targets: Mapping[int, Target], values: Mapping[int, float] | None = None,
    runner_up: Mapping[int, float] | None = None, danger: Mapping[int, float] | None = None,
) -> Event:
    """The discard keeping the most valuable target (or of highest ``values``, per kind,
    when given); among equals (and when no discard keeps any target) the one ``efficiency``
    plays — after, when ``runner_up`` is given (per kind, the value of the second-best target
    the discard keeps), those of them keeping the most valuable runner-up; when ``danger`` is
    given (per kind, the chance of dealing in), among the equals of the lowest shanten after
    the discard, the safest (within :data:`SAFETY_TOLERANCE`)."""
    value = {k: t.value for k, t in targets.items()} if values is None else values
    best_value = max((value.get(T.kind_of(e.pai), 0.0) for e in discards if e.pai is not None),
                     default=0.0)
    if best_value <= 0.0:
        return best_discard_mcr(counts, discards, visible)
    tied = [e for e in discards
            if e.pai is not None and value.get(T.kind_of(e.pai), 0.0) >= best_value]
    if runner_up:
        second = max(runner_up.get(T.kind_of(e.pai), 0.0) for e in tied if e.pai is not None)
        tied = [e for e in tied
                if e.pai is not None and runner_up.get(T.kind_of(e.pai), 0.0) >= second]
    if danger and len(tied) > 1:
        after = {T.kind_of(e.pai): _sh_after_discard(counts, T.kind_of(e.pai))
                 for e in tied if e.pai is not None}
        fastest = min(after.values())
        tied = [e for e in tied if e.pai is not None and after[T.kind_of(e.pai)] == fastest]
        safest = min(danger.get(T.kind_of(e.pai), 0.0) for e in tied if e.pai is not None)
        tied = [e for e in tied if e.pai is not None
                and danger.get(T.kind_of(e.pai), 0.0) <= safest + SAFETY_TOLERANCE]
    return best_discard_mcr(counts, tied, visible)


def defended_discard(
    obs: Any, discards: Sequence[Event], targets: Mapping[int, Target],
    settings: PlannerSettings, values: Mapping[int, float] | None = None,
    runner_up: Mapping[int, float] | None = None,
) -> Event:
    """:func:`planned_discard` with each discard's danger weighed in: while no opponent
    reaches ``settings.threat`` it is the planned discard; otherwise the discard of highest
    ``value − p × (value + deal_in_cost)``, where ``value`` is that of the target it keeps and
    ``p`` its chance of dealing in (``values`` per kind instead of the targets' when given);
    near-ties (``tie``) in efficiency's order."""
    own = {k: t.value for k, t in targets.items()} if values is None else values
    readings = read_opponents(obs.seat, obs.events)
    if not readings or max(r.ready for r in readings) < settings.threat:
        return planned_discard(obs.counts, discards, obs.visible_counts(), targets, own,
                               runner_up)
    counts = obs.counts
    visible = obs.visible_counts()
    unseen = [max(0, 4 - c - v) for c, v in zip(counts, visible)]
    weighed: dict[int, float] = {}
    for e in discards:
        if e.pai is None:
            continue
        k = T.kind_of(e.pai)
        if k not in weighed:
            value = own.get(k, 0.0)
            danger = deal_in_probability(k, readings, unseen)
            # a deal-in ends the hand: it costs the points paid and the target given up
            weighed[k] = value - danger * (value + settings.deal_in_cost)
    best = max(weighed.values())
    tied = [e for e in discards
            if e.pai is not None and weighed[T.kind_of(e.pai)] >= best - settings.tie]
    return best_discard_mcr(counts, tied, visible)


def make_planner_agent(seed: int = 0, env: Mapping[str, str] | None = None) -> PlannerAgent:
    """The registered ``planner``: settings from ``$TENPAI_PLANNER_*`` (a bad one is a
    one-line ValueError; the defaults are the shipped planner, defense off)."""
    return PlannerAgent(seed, settings=PlannerSettings.from_env(env))


def make_planner_defend_agent(seed: int = 0,
                              env: Mapping[str, str] | None = None) -> PlannerAgent:
    """The registered ``planner_defend``: the planner with defense on (the other settings
    from ``$TENPAI_PLANNER_*``)."""
    return PlannerAgent(seed, name="planner_defend",
                        settings=PlannerSettings.from_env(env, defense=True))


def _sh_after_discard(counts: list[int], k: int) -> int:
    counts[k] -= 1
    sh = shanten_mcr(counts)
    counts[k] += 1
    return sh


def _rank_discards(
    obs: Any, discards: Sequence[Event], values: Mapping[int, float], choice: Event
) -> list[tuple[Event, float]]:
    """One discard per kind with its value, ``choice`` first, the rest by value, then MCR
    shanten after the discard, then live effective tiles (efficiency's order)."""
    counts = obs.counts
    visible = obs.visible_counts()
    by_kind: dict[int, Event] = {}
    for e in discards:
        if e.pai is not None and e != choice:
            by_kind.setdefault(T.kind_of(e.pai), e)
    assert choice.pai is not None
    by_kind.pop(T.kind_of(choice.pai), None)

    def key(k: int) -> tuple[float, int, int, int]:
        value = values.get(k, 0.0)
        counts[k] -= 1
        sh = shanten_mcr(counts)
        live = mcr_ukeire(counts, visible)
        counts[k] += 1
        return (-value, sh, -live, k)

    rest = sorted(by_kind, key=key)
    mine = values.get(T.kind_of(choice.pai), 0.0)
    return [(choice, mine), *((by_kind[k], values.get(k, 0.0)) for k in rest)]

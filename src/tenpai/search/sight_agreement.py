"""How often does a search on fair worlds choose what the search that sees the hands chooses?
``python -m tenpai.search.sight_agreement --games N --seed S --models uniform,read``.

Why: the instrument ``SIGHT=hands`` (:mod:`tenpai.search.sight`) deals the opponents' real
concealed tiles into every world, and the search it drives is much stronger than the shipped
one (it deals in about half as often): it bounds what any world model could bring to this
search.  A fair world model (``OPPONENTS``, ``READ_WAITS``) can only recover that gain by
making the choices the sighted search makes, so how often it does — at the decisions the
search actually searches — screens world models offline, before an arena run of hundreds of
games says whether one is stronger.

Decisions come from seeded self-play, as in :mod:`tenpai.search.leaf_agreement`: tonpuu games
of ``pg`` in every seat, playing the prior's own choice (so the games depend on no world
model), at every decision where the registered ``search`` (settings from ``$TENPAI_SEARCH_*``)
would search.  At each, on the same table, one agent per side chooses through the agent's own
rule for a searched decision (:meth:`~tenpai.search.agent.SearchAgent._search`: candidates,
leaf, paired or PUCT rule, call bars): the reference with ``SIGHT=hands``, and one fair agent
per ``--models`` item (``uniform``, ``shaped``, ``read``, ``read-yaku``; ``+waits`` adds
``READ_WAITS=1``, e.g. ``read+waits``, ``+dealin-MODE`` sets ``DEAL_IN=MODE``, e.g.
``uniform+dealin-riichi``, and ``+NAME=VALUE`` any other setting of that side, e.g.
``uniform+Z=0.5`` or ``uniform+WORLDS=256``: with the judge below, the tool screens any fair
setting of the search, not only world models).  Every agent has the same seed, so the same
world and playout seeds, and a large budget, so the ``--worlds`` cap binds and each side plays
that many worlds (or its own ``WORLDS``).  The sides
take turns going first, decision by decision; each is timed on the process's CPU clock.

Reported (one JSON object on stdout):

* ``decisions`` — searched decisions compared;
* ``sighted.changed`` — share of them where the sighted search leaves the prior's choice
  (``changes`` of them): the changes a world model would have to recover;
* ``other_worlds`` — the noise floor (unless ``--no-floor``): the sighted search again on
  another set of as many worlds (agent seed + 1), with a model's figures: its ``agreement``
  and ``recovered_changes`` are what a model that knew the hands would reach (two searches
  that differ only by their worlds' luck), in practice the ceiling of any model's;
* per model (``models``): ``agreement`` — share of decisions where its choice equals the
  sighted choice; ``recovered_changes`` — of the decisions where the sighted search leaves the
  prior's choice, the share where the model leaves it for the same action (null without such
  decisions); ``changed`` — share of decisions where the model leaves the prior's choice at
  all (a change the sighted search does not make is a disagreement); each with its count and,
  for the first two, a 95 % Wilson interval (decisions of one game are not independent, so the
  interval is somewhat too narrow);
* ``cpu_per_decision_median_s`` — the median CPU seconds of one side's search per decision;
* ``value_gain`` (unless ``--judge-worlds 0``) — agreement counts a hedge the sighted search
  has no need of as a miss, though a fair model that cannot see the hands should hedge; so each
  side's choice is also valued by a *judge*: the sighted search's own leaf values of every
  candidate on ``--judge-worlds`` further worlds that hold the real hands (agent seed + 2, so
  no side chose on the worlds it is judged on).  A side's figure is the mean, over decisions,
  of the judge's paired value of its choice minus that of the prior's choice, in the leaf
  value's units (Tenhou rank points by default), with a 95 % normal interval; each model's
  ``value_gain_minus_first`` is its paired difference from the first model named (the
  baseline, e.g. ``uniform``): where both choose alike it is exactly 0, so it is much
  tighter than either gain; ``by_state`` splits each side's gain by the real table at the
  decision (:func:`table_state`: the prior's choice would deal in at once, a riichi is
  declared, neither, not a discard), which shows where a side makes or misses the lead.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tenpai.argtypes import non_negative_int, positive_int

if TYPE_CHECKING:
    from tenpai.events import Event
    from tenpai.rules.riichi.flow.round import RiichiRound
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior import PriorAnswer
    from tenpai.search.settings import SearchSettings

__all__ = ["DEALIN", "STATES", "WAITS", "Decision", "WorldModel", "main", "mean_interval",
           "parse_models", "summarise", "table_state", "wilson"]

#: The suffix of a model item that turns ``READ_WAITS`` on (``read+waits``).
WAITS = "+waits"
#: The suffix of a model item that values the immediate deal-in in closed form, followed by
#: the ``DEAL_IN`` mode (e.g. ``uniform+dealin-riichi``).
DEALIN = "+dealin-"
#: The reference side's name in a decision's choices and times.
SIGHTED = "sighted"
#: The noise floor's side: the sighted search on another set of worlds.
OTHER = "other_worlds"
#: The judge's seed offset from the agents' seed (the floor has + 1).
JUDGE_SEED = 2
#: Settings a model's ``NAME=VALUE`` may not set: the tool's own (the budget never binds, every
#: side is fair) and the world model's, which have their own spelling in the item.
_PREFIX = "TENPAI_SEARCH_"
_FIXED = ("BUDGET_MS", "SIGHT", "OPPONENTS", "READ_WAITS", "DEAL_IN")


@dataclasses.dataclass(frozen=True, slots=True)
class WorldModel:
    """One fair world model compared with the sighted search."""

    opponents: str
    read_waits: bool
    deal_in: str = "worlds"
    #: Any other search setting of this side, as (variable name without the prefix, value):
    #: ``uniform+Z=0.5`` compares the paired rule's bar, ``uniform+WORLDS=256`` the worlds.
    settings: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return (self.opponents + (WAITS if self.read_waits else "")
                + (DEALIN + self.deal_in if self.deal_in != "worlds" else "")
                + "".join(f"+{k}={v}" for k, v in self.settings))


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One searched decision: whether each side (the sighted search, the noise floor, every
    model by name) chose the sighted search's action, and left the prior's choice, and what
    its search cost."""

    #: Side → its choice equals the sighted search's.
    same: dict[str, bool]
    #: Side → its choice is not the prior's own.
    changed: dict[str, bool]
    #: Side → CPU seconds of its search.
    cpu: dict[str, float]
    #: Side → the judge's mean paired value of its choice minus the prior's choice (empty
    #: without a judge).
    gain: dict[str, float] = dataclasses.field(default_factory=dict)
    #: The real table at the decision (:func:`table_state`): where the lead is made.
    state: str = ""


def parse_models(text: str) -> list[WorldModel]:
    """``uniform,read+waits,uniform+Z=0.5`` → the world models; an argparse type (one-line
    errors).  A ``NAME=VALUE`` suffix sets any other search setting of that side (its value
    is checked with the others once the settings are built)."""
    from tenpai.search.deal_in import DEAL_IN_MODES
    from tenpai.search.settings import OPPONENT_MODELS, SETTING_NAMES

    allowed = ", ".join(OPPONENT_MODELS)
    models: list[WorldModel] = []
    known = {WAITS, *(DEALIN + m for m in DEAL_IN_MODES[1:])}
    for item in (part.strip() for part in text.split(",")):
        opponents, *suffixes = item.split("+")
        pairs = [tuple(x.split("=", 1)) for x in suffixes if "=" in x]
        extras = ["+" + x for x in suffixes if "=" not in x]
        modes = [x.removeprefix(DEALIN) for x in extras if x.startswith(DEALIN)]
        if (opponents not in OPPONENT_MODELS or len(set(extras)) != len(extras)
                or not set(extras) <= known or len(modes) > 1):
            raise argparse.ArgumentTypeError(
                f"unknown world model {item!r}: each is one of {allowed}, optionally with "
                f"{WAITS} (READ_WAITS=1, e.g. read{WAITS}), one {DEALIN}MODE "
                f"(DEAL_IN=MODE, one of {', '.join(DEAL_IN_MODES[1:])}; e.g. "
                f"uniform{DEALIN}riichi) and settings NAME=VALUE (e.g. uniform+Z=0.5)")
        names = [k for k, _ in pairs]
        for k in names:
            if k not in SETTING_NAMES or k in _FIXED:
                raise argparse.ArgumentTypeError(
                    f"world model {item!r}: {k} is not a setting a side may change here "
                    f"(one of {', '.join(n for n in SETTING_NAMES if n not in _FIXED)})")
        if len(set(names)) != len(names):
            raise argparse.ArgumentTypeError(f"world model {item!r} sets a setting twice")
        model = WorldModel(opponents, WAITS in extras, modes[0] if modes else "worlds",
                           tuple((k, v) for k, v in pairs))
        if model in models:
            raise argparse.ArgumentTypeError(f"world model {item!r} named twice")
        models.append(model)
    return models


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval of ``k`` successes in ``n`` (None when ``n`` is 0)."""
    if n == 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def _share(k: int, n: int) -> float | None:
    return round(k / n, 3) if n else None


def _cpu(rows: Sequence[Decision], side: str) -> float | None:
    return round(statistics.median(r.cpu[side] for r in rows), 4) if rows else None


def _side(rows: Sequence[Decision], moved: Sequence[Decision], side: str) -> dict[str, Any]:
    """One side's figures against the sighted search (module docstring)."""
    n = len(rows)
    agree = sum(r.same[side] for r in rows)
    recovered = sum(r.same[side] for r in moved)
    changes = sum(r.changed[side] for r in rows)
    return {
        "agreement": _share(agree, n), "agreement_interval": wilson(agree, n),
        "agreeing": agree,
        "recovered_changes": _share(recovered, len(moved)),
        "recovered_changes_interval": wilson(recovered, len(moved)),
        "recovered": recovered,
        "changed": _share(changes, n), "changes": changes,
        "cpu_per_decision_median_s": _cpu(rows, side),
    }


def mean_interval(xs: Sequence[float]) -> dict[str, float | None]:
    """Mean and 95 % normal interval of ``xs`` (None for the interval below two values)."""
    n = len(xs)
    if n == 0:
        return {"mean": None, "low": None, "high": None}
    mean = sum(xs) / n
    if n < 2:
        return {"mean": round(mean, 4), "low": None, "high": None}
    half = 1.96 * statistics.stdev(xs) / math.sqrt(n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4)}


#: The states of the real table a decision is grouped by (:func:`table_state`).
STATES = ("deal-in", "riichi", "quiet", "other")


def table_state(table: RiichiRound, seat: int, choice: Event) -> str:
    """Where the instrument makes its lead (read from the engine's real table, as the
    instrument itself does): ``deal-in`` if the prior's ``choice`` is a discard an opponent's
    real hand would win on at once (a wait outside its river; outside riichi, one it can win by
    ron), else ``riichi`` if an opponent has declared riichi, ``quiet`` if none has, and
    ``other`` if the choice is not a discard (a riichi declaration, a call, a pass, a kan)."""
    from tenpai import tiles as T
    from tenpai.hand import waits
    from tenpai.search.worlds import can_ron

    if choice.type != "dahai" or choice.pai is None:
        return "other"
    k = T.kind_of(choice.pai)
    for o in range(table.players):
        if o == seat or k not in waits(T.counts34(table.hands[o])):
            continue
        if k in {T.kind_of(t) for t in table.rivers[o]}:
            continue
        if table.riichi[o] or can_ron(table, o, seat, table.hands[o], [k]):
            return "deal-in"
    return "riichi" if any(table.riichi[o] for o in range(table.players) if o != seat) \
        else "quiet"


def _gains(rows: Sequence[Decision], models: Sequence[str]) -> dict[str, Any]:
    """The judge's figures (module docstring), keyed by side."""
    sides = [SIGHTED, *([OTHER] if OTHER in rows[0].gain else []), *models]
    out: dict[str, Any] = {side: mean_interval([r.gain[side] for r in rows]) for side in sides}
    for side in sides:
        out[side]["by_state"] = {
            state: {"decisions": len(xs), "mean": round(sum(xs) / len(xs), 4)}
            for state in STATES
            if (xs := [r.gain[side] for r in rows if r.state == state])}
    if models:
        first = models[0]
        for m in models[1:]:
            out[m]["minus_first"] = mean_interval([r.gain[m] - r.gain[first] for r in rows])
    return out


def summarise(rows: Sequence[Decision], models: Sequence[str]) -> dict[str, Any]:
    """The figures of the module docstring, for the decisions ``rows`` and the models named."""
    n = len(rows)
    moved = [r for r in rows if r.changed[SIGHTED]]
    out: dict[str, Any] = {
        "decisions": n,
        "sighted": {"changed": _share(len(moved), n), "changes": len(moved),
                    "cpu_per_decision_median_s": _cpu(rows, SIGHTED)},
    }
    if rows and OTHER in rows[0].same:
        out[OTHER] = _side(rows, moved, OTHER)
    out["models"] = {name: _side(rows, moved, name) for name in models}
    if rows and rows[0].gain:
        gains = _gains(rows, models)
        out["sighted"]["value_gain"] = gains[SIGHTED]
        if OTHER in out:
            out[OTHER]["value_gain"] = gains[OTHER]
        for name in models:
            out["models"][name]["value_gain"] = {
                k: v for k, v in gains[name].items() if k != "minus_first"}
            if "minus_first" in gains[name]:
                out["models"][name]["value_gain_minus_first"] = gains[name]["minus_first"]
    return out


def compare(agents: dict[str, SearchAgent], table: RiichiRound, seat: int, pa: PriorAnswer,
            order: int = 0, judge: SearchAgent | None = None) -> Decision:
    """Each agent's choice at one decision through the agent's own rule for a searched
    decision, the sides starting at ``order`` (mod their number) and taking turns; with a
    ``judge``, each choice's paired value over the prior's on the judge's worlds."""
    from tenpai.search.agent import is_call_offer
    from tenpai.search.leaves import leaf_for

    # the prior's candidates hold every call and the pass where a call is offered
    offer = is_call_offer([c.action for c in pa.candidates])
    names = list(agents)
    first = order % len(names)
    chosen: dict[str, Event] = {}
    cpu: dict[str, float] = {}
    for name in names[first:] + names[:first]:
        t0 = time.process_time()
        chosen[name] = agents[name]._search(table, seat, pa, offer)
        cpu[name] = time.process_time() - t0
    gain: dict[str, float] = {}
    if judge is not None:
        # the judge's own candidates and every side's choice (a side with a larger TOPK may
        # choose beyond them), in the prior's order
        wanted = {c.action for c in judge.candidates(pa, offer)} | set(chosen.values())
        cands = [c for c in pa.candidates if c.action in wanted]
        index = {c.action: i for i, c in enumerate(cands)}
        values, _, _ = judge.world_values(table, seat, cands,
                                          leaf_for(judge.settings.leaf, table, seat))
        base = index[pa.choice]
        for k, a in chosen.items():
            i = index[a]
            gain[k] = sum(v[i] - v[base] for v in values) / len(values)
    return Decision({k: a == chosen[SIGHTED] for k, a in chosen.items()},
                    {k: a != pa.choice for k, a in chosen.items()}, cpu, gain,
                    table_state(table, seat, pa.choice))


def _settings(ap: argparse.ArgumentParser, worlds: int, models: Sequence[WorldModel],
              ) -> tuple[SearchSettings, dict[str, SearchSettings]]:
    """The reference's settings and each model's: ``$TENPAI_SEARCH_*`` with a budget that
    never binds and ``worlds`` worlds; the reference sees the hands (and so leaves every
    setting of a world model at its default), each model is a fair sampler with its opponents,
    waits and deal-in, and its own ``NAME=VALUE`` settings over the environment's (a model
    that sets ``WORLDS`` plays that many worlds)."""
    import os

    from tenpai.search.settings import SearchSettings

    env = {k: v for k, v in os.environ.items() if k.startswith(_PREFIX)}
    try:
        base = dataclasses.replace(SearchSettings.from_env(env), budget_ms=1e9, worlds=worlds)
        sighted = dataclasses.replace(
            base, sight="hands", opponents="uniform", riichi_ready=True, read_waits=False,
            deal_in="worlds",
            worlds_mode="uniform", weight_calls=False, weight_win_passes=False)
        fair = {}
        for m in models:
            own = SearchSettings.from_env({**env, **{_PREFIX + k: v for k, v in m.settings}})
            fair[m.name] = dataclasses.replace(
                own, budget_ms=1e9, worlds=own.worlds if "WORLDS" in dict(m.settings) else worlds,
                sight="fair", opponents=m.opponents, read_waits=m.read_waits,
                deal_in=m.deal_in)
    except ValueError as err:
        ap.error(str(err))
    return sighted, fair


def main(argv: list[str] | None = None) -> None:
    from tenpai.progress import StepProgress
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior_searcher import pg_prior
    from tenpai.search.searched_decisions import searched_decisions

    ap = argparse.ArgumentParser(prog="python -m tenpai.search.sight_agreement",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=4,
                    help="tonpuu games of pg's self-play the decisions come from "
                         "(default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the agents and the games (default %(default)s)")
    ap.add_argument("--max-decisions", type=non_negative_int, default=0,
                    help="stop after this many searched decisions (0: play every game out)")
    ap.add_argument("--models", type=parse_models, default="uniform,read",
                    help="the fair world models compared with the sighted search, "
                         "comma-separated: OPPONENTS values, each optionally with +waits "
                         "(READ_WAITS=1), +dealin-MODE (DEAL_IN=MODE) and +NAME=VALUE "
                         "(any other $TENPAI_SEARCH_NAME of that side), e.g. "
                         "uniform,read,uniform+dealin-riichi,uniform+Z=0.5 "
                         "(default %(default)s)")
    ap.add_argument("--worlds", type=positive_int, default=64,
                    help="worlds every side plays per decision (default %(default)s)")
    ap.add_argument("--judge-worlds", type=non_negative_int, default=64,
                    help="worlds holding the real hands on which every side's choice is "
                         "valued against the prior's (0: no judge; default %(default)s)")
    ap.add_argument("--no-progress", action="store_true",
                    help="no progress lines on stderr")
    ap.add_argument("--no-floor", action="store_true",
                    help="skip the noise floor (the sighted search on another set of worlds), "
                         "which costs one more search per decision")
    args = ap.parse_args(argv)
    models: list[WorldModel] = args.models
    sighted, fair = _settings(ap, args.worlds, models)
    cpu0 = time.process_time()
    prior = pg_prior(args.seed)
    agents = {SIGHTED: SearchAgent(prior, settings=sighted, seed=args.seed)}
    if not args.no_floor:
        agents[OTHER] = SearchAgent(prior, settings=sighted, seed=args.seed + 1)
    agents.update({name: SearchAgent(prior, settings=s, seed=args.seed)
                   for name, s in fair.items()})
    judge = None
    if args.judge_worlds:
        judge = SearchAgent(prior, settings=dataclasses.replace(sighted, worlds=args.judge_worlds),
                            seed=args.seed + JUDGE_SEED)
    rows: list[Decision] = []
    # a screen of several models runs for minutes to most of an hour: a line on stderr every
    # 10 s (stdout carries the one JSON object)
    with StepProgress("searched decisions", args.max_decisions or None, unit="decisions",
                      enabled=not args.no_progress) as progress:
        for table, seat, pa in searched_decisions(agents[SIGHTED], args.games, args.seed,
                                                  args.max_decisions):
            rows.append(compare(agents, table, seat, pa, len(rows), judge))
            progress.advance()
    out = {
        "games": args.games, "seed": args.seed, "worlds": args.worlds,
        "agent": agents[SIGHTED].identity,
        **summarise(rows, [m.name for m in models]),
        "cpu_seconds_total": round(time.process_time() - cpu0, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

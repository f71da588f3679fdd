"""How much of the search's changes to its prior's choice is evidence, and how much luck?
``python -m tenpai.search.choice_evidence --games N --seed S``.

The paired rule (:func:`tenpai.search.choice.choose_paired`) leaves the prior's choice when
another candidate's mean gain over the worlds exceeds ``z`` standard errors of the paired
difference.  Most candidates end a hand as the prior's choice does in most worlds, and when a
candidate differs in only ``k`` worlds, all in its favour, its paired t is about ``sqrt(k)``
(1.00 for one world, 1.43 for two) whatever the number of worlds: a bar of one standard error
can be cleared by two lucky worlds.  This tool measures what that costs *under the search's own
model*: at each decision the registered ``search`` would search, the candidates are valued on
the search's worlds (the largest of ``--worlds``; each smaller size is its first worlds, which
are the worlds a search of that size plays) and on ``--reference-worlds`` other worlds (an
independent set, many times larger).  For every size and every bar in ``--z`` the paired
rule's choice is made on the search's worlds and scored by the reference: its gain over the
prior's choice in the reference's mean value (utility points), how often it changes the
choice, and how often a change is confirmed (the reference also prefers it).  The ceiling
beside them is the gain of the reference's own best candidate.

``--rules mcr`` asks the same of ``search_mcr``, whose prior is the planner (its choice the
first candidate; decisions from planner self-play under the ``botzone`` preset, where the
planner is unsure by ``CLOSE``; settings from ``$TENPAI_SEARCH_MCR_*``, the value the hand's
Botzone points by default).

What it cannot see: where the model itself is wrong.  The reference uses the same playouts and
the same leaf value, so a rule that gains here gains against the search's noise, not against
its bias; only games decide strength.  Decisions come from seeded self-play of ``pg`` in every
seat, as in :mod:`tenpai.search.leaf_agreement` (the games do not depend on the rule).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from tenpai.argtypes import non_negative_int, positive_int
from tenpai.search.choice import choose_paired

__all__ = ["REFERENCE_WORLDS", "DecisionEvidence", "evidence", "main", "summarise"]

#: The first world index of the reference worlds (the search plays 0, 1, …;
#: :data:`tenpai.search.leaf_agreement.OTHER_WORLDS` starts at 50,000, the weighted pool at
#: 99,999).
REFERENCE_WORLDS = 200_000


@dataclasses.dataclass(frozen=True, slots=True)
class DecisionEvidence:
    """One searched decision: the rules' choices and what the reference makes of them."""

    #: The prior's own choice among the candidates.
    base: int
    #: ``choices[(n, z)]``: the paired rule's choice on the first ``n`` worlds at bar ``z``.
    choices: dict[tuple[int, float], int]
    #: The reference's mean value of each candidate.
    reference: tuple[float, ...]
    #: The reference's standard error of each candidate's mean minus the prior choice's.
    reference_se: tuple[float, ...]
    #: ``differing[(n, z)]``: in how many of the first ``n`` worlds the chosen candidate's
    #: value differs from the prior choice's (0 when the choice stands).
    differing: dict[tuple[int, float], int]


def evidence(values: Sequence[Sequence[float]], reference: Sequence[Sequence[float]],
             base: int, bars: Sequence[float], sizes: Sequence[int],
             zs: Sequence[float]) -> DecisionEvidence:
    """The rules' choices on the first ``n`` rows of ``values`` for every size and bar, scored
    by the rows of ``reference`` (both ``[world][candidate]``).  ``bars`` are the search's
    per-candidate bars at ``z`` = 1 (a call at an offer may need a multiple); bar ``z`` scales
    them."""
    if not values or not reference:
        raise ValueError("no worlds to choose from or to score by")
    if max(sizes) > len(values):
        raise ValueError(f"size {max(sizes)} above the {len(values)} worlds played")
    ref = np.asarray(reference, dtype=float)
    diff = ref - ref[:, [base]]
    n_ref = len(ref)
    se = diff.std(axis=0, ddof=1) / np.sqrt(n_ref) if n_ref > 1 else np.full(ref.shape[1], np.inf)
    choices: dict[tuple[int, float], int] = {}
    differing: dict[tuple[int, float], int] = {}
    for n in sizes:
        head = [list(v) for v in values[:n]]
        for z in zs:
            c = choose_paired(head, base, [z * b for b in bars])
            choices[(n, z)] = c
            differing[(n, z)] = sum(1 for v in head if v[c] != v[base])
    return DecisionEvidence(base, choices, tuple(float(x) for x in ref.mean(axis=0)),
                            tuple(float(x) for x in se), differing)


def summarise(rows: Sequence[DecisionEvidence], sizes: Sequence[int],
              zs: Sequence[float]) -> dict[str, Any]:
    """Per size and bar: the share of decisions changed, the mean reference gain over the
    prior's choice per decision (with a 95 % interval over decisions, normal approximation:
    the search layer sits below the arena's t quantiles, and at 40 decisions t is 3 % wider),
    the share of changes the reference confirms, and the median number of worlds a change
    rests on."""
    if not rows:
        return {"decisions": 0}
    out: dict[str, Any] = {"decisions": len(rows)}
    best = [max(r.reference) - r.reference[r.base] for r in rows]
    out["ceiling_gain"] = round(float(np.mean(best)), 3)
    rules: dict[str, Any] = {}
    for n in sizes:
        for z in zs:
            gains = np.array([r.reference[r.choices[(n, z)]] - r.reference[r.base] for r in rows])
            changed = [r for r in rows if r.choices[(n, z)] != r.base]
            half = (1.96 * float(gains.std(ddof=1)) / np.sqrt(len(gains))
                    if len(gains) > 1 else float("inf"))
            rules[f"worlds={n},z={z:g}"] = {
                "changed": round(len(changed) / len(rows), 3),
                "gain_per_decision": round(float(gains.mean()), 3),
                "gain_low": round(float(gains.mean()) - half, 3),
                "gain_high": round(float(gains.mean()) + half, 3),
                "changes_confirmed": (round(float(np.mean([
                    r.reference[r.choices[(n, z)]] > r.reference[r.base] for r in changed])), 3)
                    if changed else None),
                "worlds_differing_median": (float(np.median([r.differing[(n, z)]
                                                             for r in changed]))
                                            if changed else None),
            }
    out["rules"] = rules
    out["reference_se_median"] = round(float(np.median(
        [s for r in rows for i, s in enumerate(r.reference_se) if i != r.base])), 3)
    return out


def _numbers(text: str, kind: type) -> list[Any]:
    try:
        out = [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a comma-separated list of numbers: {text!r}") from None
    if not out or any(x < 0 for x in out) or (kind is int and any(x < 1 for x in out)):
        raise argparse.ArgumentTypeError(f"needs one or more numbers above 0: {text!r}")
    return out


def _sizes(text: str) -> list[int]:
    return sorted(set(_numbers(text, int)))


def _bars(text: str) -> list[float]:
    return sorted(set(_numbers(text, float)))


def _riichi_rows(args: argparse.Namespace, ap: argparse.ArgumentParser
                 ) -> tuple[str, list[DecisionEvidence]]:
    """Riichi: ``search`` over ``pg``, decisions from ``pg`` self-play (tonpuu)."""
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior_searcher import pg_prior
    from tenpai.search.searched_decisions import searched_decisions
    from tenpai.search.settings import SearchSettings

    settings = SearchSettings.from_env()
    if settings.z <= 0:
        ap.error("TENPAI_SEARCH_Z must be above 0 here: the bars compared are its multiples")
    if settings.worlds_mode != "uniform":
        ap.error("uniform worlds only (TENPAI_SEARCH_WORLDS_MODE): the reference is another "
                 "set of uniform worlds")
    prior = pg_prior(args.seed)
    agent = SearchAgent(prior, settings=dataclasses.replace(
        settings, budget_ms=1e9, worlds=max(args.worlds)), seed=args.seed)
    referee = SearchAgent(prior, settings=dataclasses.replace(
        settings, budget_ms=1e9, worlds=args.reference_worlds), seed=args.seed)
    rows: list[DecisionEvidence] = []
    for table, seat, pa in searched_decisions(agent, args.games, args.seed, args.max_decisions):
        cands = agent.candidates(pa)
        base = next(i for i, c in enumerate(cands) if c.action == pa.choice)
        bars = [b / settings.z for b in agent.bars(cands, base, False)]
        values, _ess, _weigh = agent.world_values(table, seat, cands)
        ref, _ess, _weigh = referee.world_values(table, seat, cands, "playout", REFERENCE_WORLDS)
        rows.append(evidence(values, ref, base, bars, args.worlds, args.z))
    return agent.identity, rows


def _mcr_rows(args: argparse.Namespace, ap: argparse.ArgumentParser
              ) -> tuple[str, list[DecisionEvidence]]:
    """MCR: ``search_mcr`` over the planner, decisions from planner self-play (``botzone``,
    one hand a game); the planner's choice is the first candidate."""
    from tenpai.agents.planner import make_planner_agent
    from tenpai.search.mcr.agent import MCRSearchAgent
    from tenpai.search.mcr.searched_decisions import mcr_searched_decisions
    from tenpai.search.mcr.settings import MCRSearchSettings

    settings = MCRSearchSettings.from_env()
    planner = make_planner_agent(args.seed)
    agent = MCRSearchAgent(dataclasses.replace(settings, budget_ms=1e9, worlds=max(args.worlds)),
                           seed=args.seed, planner=planner)
    referee = MCRSearchAgent(dataclasses.replace(settings, budget_ms=1e9,
                                                 worlds=args.reference_worlds),
                             seed=args.seed, planner=planner)
    rows: list[DecisionEvidence] = []
    for table, seat, cands, legal in mcr_searched_decisions(agent, args.games, args.seed,
                                                             args.max_decisions):
        values = agent.values(table, seat, cands, legal)
        ref = referee.values(table, seat, cands, legal, REFERENCE_WORLDS)
        rows.append(evidence(values, ref, 0, [1.0] * len(cands), args.worlds, args.z))
    return agent.identity, rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tenpai.search.choice_evidence",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", choices=("riichi", "mcr"), default="riichi",
                    help="riichi: search over pg, settings from $TENPAI_SEARCH_*; mcr: "
                         "search_mcr over the planner (botzone), from $TENPAI_SEARCH_MCR_* "
                         "(default %(default)s)")
    ap.add_argument("--games", type=positive_int, default=2,
                    help="games of the prior's self-play the decisions come from: Riichi "
                         "tonpuu games, MCR one-hand games (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the agents and the games (default %(default)s)")
    ap.add_argument("--max-decisions", type=non_negative_int, default=0,
                    help="stop after this many searched decisions (0: play every game out)")
    ap.add_argument("--worlds", type=_sizes, default=[64, 256],
                    help="the search sizes compared, comma-separated; each is the first worlds "
                         "of the largest (default 64,256)")
    ap.add_argument("--reference-worlds", type=positive_int, default=1024,
                    help="independent worlds that score the choices (default %(default)s)")
    ap.add_argument("--z", type=_bars, default=[0.0, 0.5, 1.0, 1.5, 2.0],
                    help="the paired rule's bars compared, in standard errors, comma-separated "
                         "(0: any positive mean gain; default 0,0.5,1,1.5,2)")
    args = ap.parse_args(argv)
    cpu0 = time.process_time()
    identity, rows = (_riichi_rows if args.rules == "riichi" else _mcr_rows)(args, ap)
    out = {"rule_set": args.rules, "games": args.games, "seed": args.seed, "agent": identity,
           "reference_worlds": args.reference_worlds,
           **summarise(rows, args.worlds, args.z),
           "cpu_seconds_total": round(time.process_time() - cpu0, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()

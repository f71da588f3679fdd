"""Does the one-player leaf choose as the playout does, and what does it save?
``python -m tenpai.search.leaf_agreement --games N --seed S``.

Decisions come from seeded self-play: tonpuu games of ``pg`` in every seat (the prior playing
its own greedy choice, so the games do not depend on either leaf).  At every decision the
registered ``search`` would search (its prior's own choice below the threshold, more than one
candidate; settings from ``$TENPAI_SEARCH_*``), the search's worlds are valued twice on the same
worlds and seeds — every leaf a playout, and every leaf solo (:mod:`tenpai.search.leaves`) — in
an order that alternates decision by decision, each timed on the process's CPU clock (world
sampling included, as in the search).  The worlds cap must bind (a large budget is set), so
both sides play the same worlds.

Reported, split by whether ``auto`` would take the solo leaf there (nobody threatens) or not:
the share of searched decisions where ``auto`` picks solo; how often the paired rule's choice
with solo leaves equals its choice with playout leaves, and how often the two leaves' best
mean agrees; the correlation of the candidates' mean values (pooled over decisions, raw and
centred on each decision's mean: the centred one is what a choice reads); and the CPU per
searched decision and per leaf of each side (medians).  The noise floor beside them: the same
figures for the playout leaf against the playout leaf on another set of as many worlds
(``other_worlds_*``) — what two searches that differ only by their worlds' luck agree on.
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
from tenpai.search.leaves import threatened
from tenpai.search.searched_decisions import searched_decisions

__all__ = ["OTHER_WORLDS", "LeafComparison", "compare_leaves", "main", "summarise"]

#: The first world index of the noise floor's other worlds (the search plays 0, 1, …; the
#: weighted pool's seeds start at 99,999).
OTHER_WORLDS = 50_000


@dataclasses.dataclass(frozen=True, slots=True)
class LeafComparison:
    """One searched decision valued by both leaves on the same worlds."""

    auto_solo: bool
    #: The prior's own choice among the candidates.
    base: int
    worlds: int
    candidates: int
    choice_playout: int
    choice_solo: int
    means_playout: tuple[float, ...]
    means_solo: tuple[float, ...]
    cpu_playout: float
    cpu_solo: float
    #: The playout leaf on another set of worlds (the noise floor).
    choice_other: int
    means_other: tuple[float, ...]


def compare_leaves(agent: Any, table: Any, seat: int, pa: Any, order: int = 0) -> LeafComparison:
    """Value one decision's candidates with both leaves on the same worlds (``order`` odd: the
    solo side first) and choose with the agent's paired rule."""
    cands = agent.candidates(pa)
    base = next(i for i, c in enumerate(cands) if c.action == pa.choice)
    bars = agent.bars(cands, base, False)
    out: dict[str, tuple[list[list[float]], float]] = {}
    for leaf in (("solo", "playout") if order % 2 else ("playout", "solo")):
        t0 = time.process_time()
        values, _ess, _weigh = agent.world_values(table, seat, cands, leaf)
        out[leaf] = (values, time.process_time() - t0)
    (vp, cp), (vs, cs) = out["playout"], out["solo"]
    if len(vp) != len(vs):
        raise RuntimeError("the two leaves played different worlds: set a large budget")
    vo, _ess, _weigh = agent.world_values(table, seat, cands, "playout", OTHER_WORLDS)
    return LeafComparison(
        not threatened(table, seat), base, len(vp), len(cands),
        choose_paired(vp, base, bars), choose_paired(vs, base, bars),
        tuple(float(x) for x in np.mean(vp, axis=0)), tuple(float(x) for x in np.mean(vs, axis=0)),
        cp, cs, choose_paired(vo, base, bars), tuple(float(x) for x in np.mean(vo, axis=0)))


def _corr(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) < 3 or np.std(a) == 0 or np.std(b) == 0:
        return float("nan")
    return round(float(np.corrcoef(a, b)[0, 1]), 3)


def summarise(rows: Sequence[LeafComparison]) -> dict[str, object]:
    """The figures of a group of comparisons (module docstring)."""
    if not rows:
        return {"decisions": 0}
    raw_p = [v for r in rows for v in r.means_playout]
    raw_s = [v for r in rows for v in r.means_solo]
    cen_p = [v - float(np.mean(r.means_playout)) for r in rows for v in r.means_playout]
    cen_s = [v - float(np.mean(r.means_solo)) for r in rows for v in r.means_solo]
    leaves = [r.worlds * r.candidates for r in rows]
    return {
        "decisions": len(rows),
        "same_choice": round(float(np.mean([r.choice_playout == r.choice_solo for r in rows])), 3),
        "same_best_mean": round(float(np.mean([int(np.argmax(r.means_playout))
                                               == int(np.argmax(r.means_solo)) for r in rows])), 3),
        "changed_by_playout": round(float(np.mean([r.choice_playout != r.base
                                                   for r in rows])), 3),
        "changed_by_solo": round(float(np.mean([r.choice_solo != r.base for r in rows])), 3),
        "corr_means": _corr(raw_p, raw_s),
        "corr_means_centred": _corr(cen_p, cen_s),
        "other_worlds_same_choice": round(float(np.mean([r.choice_playout == r.choice_other
                                                         for r in rows])), 3),
        "other_worlds_same_best_mean": round(float(np.mean([
            int(np.argmax(r.means_playout)) == int(np.argmax(r.means_other)) for r in rows])), 3),
        "other_worlds_corr_means_centred": _corr(
            cen_p, [v - float(np.mean(r.means_other)) for r in rows for v in r.means_other]),
        "cpu_per_decision_median_s": {
            "playout": round(float(np.median([r.cpu_playout for r in rows])), 4),
            "solo": round(float(np.median([r.cpu_solo for r in rows])), 4)},
        "cpu_per_leaf_median_ms": {
            "playout": round(1000 * float(np.median([r.cpu_playout / n
                                                     for r, n in zip(rows, leaves)])), 3),
            "solo": round(1000 * float(np.median([r.cpu_solo / n
                                                  for r, n in zip(rows, leaves)])), 3)},
        "cpu_ratio_solo_to_playout": round(sum(r.cpu_solo for r in rows)
                                           / max(1e-9, sum(r.cpu_playout for r in rows)), 3),
    }


def main(argv: list[str] | None = None) -> None:
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior_searcher import pg_prior
    from tenpai.search.settings import SearchSettings

    ap = argparse.ArgumentParser(prog="python -m tenpai.search.leaf_agreement",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=2,
                    help="tonpuu games played (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the agents and the games (default %(default)s)")
    ap.add_argument("--max-decisions", type=non_negative_int, default=0,
                    help="stop after this many searched decisions (0: play every game out)")
    args = ap.parse_args(argv)
    settings = dataclasses.replace(SearchSettings.from_env(), budget_ms=1e9)
    rows: list[LeafComparison] = []
    cpu0 = time.process_time()
    agent = SearchAgent(pg_prior(args.seed), settings=settings, seed=args.seed)
    for table, seat, pa in searched_decisions(agent, args.games, args.seed, args.max_decisions):
        rows.append(compare_leaves(agent, table, seat, pa, len(rows)))
    solo = [r for r in rows if r.auto_solo]
    out = {
        "games": args.games, "seed": args.seed, "agent": agent.identity,
        "searched_decisions": len(rows),
        "auto_solo_share": round(len(solo) / max(1, len(rows)), 3),
        "where_auto_takes_solo": summarise(solo),
        "where_auto_keeps_playout": summarise([r for r in rows if not r.auto_solo]),
        "all": summarise(rows),
        "cpu_seconds_total": round(time.process_time() - cpu0, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

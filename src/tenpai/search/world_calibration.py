"""Do weighted worlds predict the hidden hands better than uniform ones?  Measured on held-out
Houou games: ``python -m tenpai.search.world_calibration DATA --games N``.

Held-out games (the supervised datasets' split) are replayed on the engine.  At every
``stride``-th own-turn decision of a seat not in riichi, ``pool`` hand assignments are sampled
from that seat's view exactly as the search samples them, and each is weighted by the prior
network's likelihood of the opponents' discards (:mod:`tenpai.search.weights`) at each
``temperature``.  From the same pool, for every opponent:

* **tenpai**: the probability the opponent is ready (share of the pool, plain or weighted,
  whose hand for it has shanten 0) against the truth of the replayed table;
* **deal-in**: for every kind in the deciding seat's hand, the probability that the kind is
  one of that opponent's waits (the prediction of dealing in with it, furiten and yaku
  aside) against the truth.

With ``--calls`` the same pool is weighted a second time by the discards *and* the
opponents' calls and passes on calls (:mod:`tenpai.search.call_likelihood`), reported as
``calls_T…`` beside ``weighted_T…``; the opponents with an open meld are also reported as their
own group (``…_open``, a part of ``…_other``), where the calls say most.

With ``--win-passes`` the worlds in which an opponent let a legal win go
(:mod:`tenpai.search.win_passes`) get the log weight ``LOG_IMPOSSIBLE`` on top of the discards'
(and the calls', with ``--calls``) tempered log weights — ``wins_T…`` — and on top of equal
weights — ``uniform_wins``: the rule alone, without the network.  Also reported: the share of
the pool's worlds made impossible, the share of decisions with any, and how often the true
hands themselves would have been judged impossible (an opponent that really did pass a win).

Scores: Brier and log-loss (predictions clipped to [``EPS``, 1 − ``EPS``]: a finite pool
predicts exact zeros) for uniform worlds (equal weights), weighted worlds, and the constant
rate of the same rows (in-sample, which flatters the constant), split by whether the opponent
is in riichi (its worlds have ready hands by construction) or not.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

import numpy as np

from tenpai import tiles as T
from tenpai.argtypes import positive_float, positive_int
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.hand import shanten, waits
from tenpai.rules.riichi.compiled_round import python_table
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.weights import DiscardLikelihood, WorldLikelihood, normalised
from tenpai.search.win_passes import LOG_IMPOSSIBLE, WinPassLikelihood
from tenpai.search.worlds import OpponentModel, WorldSampler

__all__ = ["EPS", "Rows", "collect", "main", "scores"]

#: Predictions are clipped to [EPS, 1 - EPS] for the log-loss.
EPS = 0.005


class Rows:
    """Predictions and truths of one target (tenpai or deal-in) in one group."""

    def __init__(self, temperatures: Sequence[float]) -> None:
        self.uniform: list[float] = []
        self.weighted: dict[float, list[float]] = {t: [] for t in temperatures}
        self.calls: dict[float, list[float]] = {t: [] for t in temperatures}
        self.wins: dict[float, list[float]] = {t: [] for t in temperatures}
        self.uniform_wins: list[float] = []
        self.truth: list[int] = []

    def add(self, x: np.ndarray, weights: dict[float, np.ndarray], truth: int,
            calls: dict[float, np.ndarray] | None = None,
            wins: dict[float | str, np.ndarray] | None = None) -> None:
        """One prediction row; ``wins`` holds the win-pass weightings (key "uniform": the
        rule on equal weights)."""
        self.uniform.append(float(x.mean()))
        for t, w in weights.items():
            self.weighted[t].append(float(w @ x))
        for t, w in (calls or {}).items():
            self.calls[t].append(float(w @ x))
        for key, w in (wins or {}).items():
            if isinstance(key, str):
                self.uniform_wins.append(float(w @ x))
            else:
                self.wins[key].append(float(w @ x))
        self.truth.append(truth)


def _loss(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    q = np.clip(p, EPS, 1 - EPS)
    brier = float(((p - y) ** 2).mean())
    logloss = float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())
    return round(brier, 5), round(logloss, 4)


def scores(rows: Rows) -> dict[str, Any]:
    """Brier and log-loss of each prediction against the truth, and the constant's."""
    y = np.asarray(rows.truth, dtype=np.float64)
    if not len(y):
        return {"rows": 0}
    rate = float(y.mean())
    out: dict[str, Any] = {"rows": len(y), "observed_rate": round(rate, 4)}
    b, ll = _loss(np.full_like(y, rate), y)
    out["constant"] = {"brier": b, "logloss": ll}
    u = np.asarray(rows.uniform)
    b, ll = _loss(u, y)
    out["uniform"] = {"brier": b, "logloss": ll, "mean_predicted": round(float(u.mean()), 4)}
    for t, pred in rows.weighted.items():
        p = np.asarray(pred)
        b, ll = _loss(p, y)
        out[f"weighted_T{t:g}"] = {"brier": b, "logloss": ll,
                                   "mean_predicted": round(float(p.mean()), 4)}
    named = [(f"calls_T{t:g}", pred) for t, pred in rows.calls.items()]
    named += [("uniform_wins", rows.uniform_wins)]
    named += [(f"wins_T{t:g}", pred) for t, pred in rows.wins.items()]
    for name, pred in named:
        if pred:
            p = np.asarray(pred)
            b, ll = _loss(p, y)
            out[name] = {"brier": b, "logloss": ll, "mean_predicted": round(float(p.mean()), 4)}
    return out


def collect(
    paths: list[Path], games: int, pool: int, stride: int, sampler: WorldSampler,
    weigher: DiscardLikelihood, temperatures: Sequence[float], seed: int = 0,
    calls: WorldLikelihood | None = None, win_passes: WinPassLikelihood | None = None,
) -> tuple[dict[str, Rows], dict[str, float]]:
    """Rows of every (target, group) over ``games`` held-out games, and timing figures;
    ``calls`` adds its log weights to the discards' for the ``calls`` predictions,
    ``win_passes`` its (untempered) log weights to theirs for the ``wins`` predictions."""
    from tenpai.learn.riichi import SPLIT
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import riichi_rules_for
    from tenpai.search.placement_fit import iter_houou_games

    groups = {f"{target}_{g}": Rows(temperatures)
              for target in ("tenpai", "dealin") for g in ("riichi", "other", "open")}
    stats = {"games": 0.0, "decisions": 0.0, "weigh_seconds": 0.0, "sample_seconds": 0.0,
             "effective_size_sum": 0.0, "calls_seconds": 0.0, "calls_effective_size_sum": 0.0,
             "wins_seconds": 0.0, "wins_effective_size_sum": 0.0, "wins_impossible_share": 0.0,
             "wins_decisions_with_any": 0.0, "wins_decisions_all": 0.0, "wins_truth_flagged": 0.0}
    counter = [0, seed]

    def observe(d: Decision, _answer: Event) -> None:
        table = getattr(d.observation, "_table", None)
        if table is None or table.phase != "act" or table.turn != d.seat:
            return
        if table.riichi[d.seat] or table.players != 4:
            return
        counter[0] += 1
        if counter[0] % stride:
            return
        table = python_table(table)  # the Python round, only where it is read
        if not isinstance(table, RiichiRound):
            return
        t0 = time.process_time()
        hands = []
        prep = sampler.prepare(table, d.seat)  # once per decision, as the search does
        for _ in range(pool):
            counter[1] += 1
            hands.append(sampler.hands(prep, counter[1]).hands)
        t1 = time.process_time()
        evidence = weigher.evidence(table._observe(d.seat).events, d.seat, table.players)
        logl = np.asarray(weigher.log_weights(evidence, hands))
        t2 = time.process_time()
        stats["sample_seconds"] += t1 - t0
        stats["weigh_seconds"] += t2 - t1
        stats["decisions"] += 1
        weights = {t: np.asarray(normalised(list(logl / t))) for t in temperatures}
        w1 = weights[temperatures[0]]
        stats["effective_size_sum"] += 1.0 / float((w1 * w1).sum())
        with_calls: dict[float, np.ndarray] | None = None
        if calls is not None:
            t3 = time.process_time()
            call_evidence = calls.evidence(table._observe(d.seat).events, d.seat, table.players)
            logc = logl + np.asarray(calls.log_weights(call_evidence, hands))
            stats["calls_seconds"] += time.process_time() - t3
            with_calls = {t: np.asarray(normalised(list(logc / t))) for t in temperatures}
            c1 = with_calls[temperatures[0]]
            stats["calls_effective_size_sum"] += 1.0 / float((c1 * c1).sum())
        with_wins: dict[float | str, np.ndarray] | None = None
        if win_passes is not None:
            t4 = time.process_time()
            win_evidence = win_passes.evidence(table._observe(d.seat).events, d.seat,
                                               table.players, table.rules)
            logw = np.asarray(win_passes.log_weights(win_evidence, hands))
            stats["wins_seconds"] += time.process_time() - t4
            base = logl if calls is None else logc
            with_wins = {t: np.asarray(normalised(list(base / t + logw))) for t in temperatures}
            with_wins["uniform"] = np.asarray(normalised(list(logw)))
            w1 = with_wins[temperatures[0]]
            stats["wins_effective_size_sum"] += 1.0 / float((w1 * w1).sum())
            impossible = logw <= LOG_IMPOSSIBLE
            stats["wins_impossible_share"] += float(impossible.mean())
            stats["wins_decisions_with_any"] += float(impossible.any())
            stats["wins_decisions_all"] += float(impossible.all())
            truth = {s: list(table.hands[s]) for s in range(table.players) if s != d.seat}
            stats["wins_truth_flagged"] += float(
                win_passes.log_weights(win_evidence, [truth])[0] <= LOG_IMPOSSIBLE)
        kinds = sorted({T.kind_of(t) for t in table.hands[d.seat]})
        for s in range(4):
            if s == d.seat:
                continue
            group = ["riichi" if table.riichi[s] else "other"]
            if any(m.is_open for m in table.melds[s]):
                group.append("open")
            counts = [T.counts34(h[s]) for h in hands]
            ready = np.asarray([shanten(c) == 0 for c in counts], dtype=np.float64)
            true_counts = T.counts34(table.hands[s])
            pool_waits = [set(waits(c)) for c in counts]
            true_waits = set(waits(true_counts))
            for g in group:
                groups[f"tenpai_{g}"].add(ready, weights, int(shanten(true_counts) == 0),
                                          with_calls, with_wins)
                for k in kinds:
                    x = np.asarray([k in w for w in pool_waits], dtype=np.float64)
                    groups[f"dealin_{g}"].add(x, weights, int(k in true_waits), with_calls,
                                              with_wins)

    for gid, game in iter_houou_games(paths):
        if SPLIT(gid) == "train":
            continue
        rules = riichi_rules_for(game, "tenhou")
        replay_riichi(game.events(), rules=rules, final_scores=game.final_scores, name=gid,
                      observe=observe)
        stats["games"] += 1
        if stats["games"] >= games:
            break
    return groups, stats


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tenpai.search.world_calibration",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("data", type=Path, nargs="+",
                    help="Riichi record files or folders (only the held-out Houou games are read)")
    ap.add_argument("--games", type=positive_int, default=20,
                    help="held-out games read (default %(default)s)")
    ap.add_argument("--pool", type=positive_int, default=32,
                    help="hand assignments per decision (default %(default)s)")
    ap.add_argument("--stride", type=positive_int, default=4,
                    help="every n-th eligible decision (default %(default)s)")
    ap.add_argument("--temperatures", default="1,2,4",
                    help="weight temperatures, comma-separated (the first gives the ESS)")
    ap.add_argument("--opponents", default="uniform", choices=get_args(OpponentModel),
                    help="how the opponents' hands are drawn (default %(default)s)")
    ap.add_argument("--read-waits", action="store_true",
                    help="choose each ready hand among candidates by 001's deal-in model "
                         "(the search's READ_WAITS=1)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the sampled worlds (default %(default)s)")
    ap.add_argument("--calls", action="store_true",
                    help="also weight by the opponents' calls and passes (calls_T… figures)")
    ap.add_argument("--win-passes", action="store_true",
                    help="also make the worlds impossible where an opponent passed a legal win "
                         "(wins_T… and uniform_wins figures)")
    args = ap.parse_args(argv)
    try:
        temps = [positive_float(t) for t in args.temperatures.split(",")]
    except argparse.ArgumentTypeError as exc:
        ap.error(f"argument --temperatures: {exc}")
    from tenpai.agents.pg import PGAgent

    t0 = time.process_time()
    pg = PGAgent()
    weigher = DiscardLikelihood(pg)
    calls = None
    if args.calls:
        from tenpai.search.call_likelihood import CallLikelihood

        calls = CallLikelihood(pg)
    win_passes = WinPassLikelihood() if args.win_passes else None
    sampler = WorldSampler(args.opponents, read_waits=args.read_waits)
    groups, stats = collect(args.data, args.games, args.pool, args.stride, sampler, weigher,
                            temps, args.seed, calls, win_passes)
    n = max(stats["decisions"], 1.0)
    out = {
        "games": int(stats["games"]), "decisions": int(stats["decisions"]), "pool": args.pool,
        "opponents": args.opponents, "read_waits": args.read_waits,
        "ms_per_decision_sampling": round(1000 * stats["sample_seconds"] / n, 1),
        "ms_per_decision_weighting": round(1000 * stats["weigh_seconds"] / n, 1),
        f"mean_effective_size_T{temps[0]:g}": round(stats["effective_size_sum"] / n, 2),
        **({"ms_per_decision_calls": round(1000 * stats["calls_seconds"] / n, 1),
            f"calls_mean_effective_size_T{temps[0]:g}":
                round(stats["calls_effective_size_sum"] / n, 2)} if calls is not None else {}),
        **({"ms_per_decision_win_passes": round(1000 * stats["wins_seconds"] / n, 1),
            f"wins_mean_effective_size_T{temps[0]:g}":
                round(stats["wins_effective_size_sum"] / n, 2),
            "wins_impossible_share_of_worlds": round(stats["wins_impossible_share"] / n, 4),
            "wins_decisions_with_any_impossible": int(stats["wins_decisions_with_any"]),
            "wins_decisions_all_impossible": int(stats["wins_decisions_all"]),
            "wins_decisions_true_hands_impossible": int(stats["wins_truth_flagged"])}
           if win_passes is not None else {}),
        **{name: scores(rows) for name, rows in groups.items()},
        "cpu_seconds": round(time.process_time() - t0, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

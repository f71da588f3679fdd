"""How well the sampled worlds predict a riichi player's waits on held-out Houou games:
``python -m tenpai.search.calibration DATA``.

Held-out games (the split of the supervised datasets) are replayed on the engine.  At every
own-turn decision of a seat while another seat's riichi stands, ``worlds`` worlds are sampled
from the deciding seat's view, and for each kind in its hand the predicted probability that
the kind is one of the riichi player's waits (the share of worlds where it is) is set against
the truth read from the replayed table — whether discarding it would deal in, furiten and yaku
aside.  Reported: the calibration table by decile of the prediction, the Brier score, and the
same for the constant rate (every kind predicted at the observed overall rate).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tenpai import tiles as T
from tenpai.argtypes import positive_int
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.hand import waits
from tenpai.rules.riichi.compiled_round import python_table
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.worlds import WorldSampler

__all__ = ["main", "wait_predictions"]


def wait_predictions(
    paths: list[Path], games: int, worlds: int, sampler: WorldSampler, seed: int = 0
) -> tuple[list[float], list[int], int]:
    """(predicted, actual) per (decision, kind in hand, riichi seat), and the games used."""
    from tenpai.learn.riichi import SPLIT
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import riichi_rules_for
    from tenpai.search.placement_fit import iter_houou_games

    pred: list[float] = []
    actual: list[int] = []
    used = 0
    counter = [seed]

    def observe(d: Decision, _answer: Event) -> None:
        table = getattr(d.observation, "_table", None)
        if table is None or table.phase != "act" or table.turn != d.seat:
            return
        threats = [s for s in range(4) if s != d.seat and table.riichi[s]]
        if not threats or table.riichi[d.seat]:
            return
        table = python_table(table)  # the Python round, only where it is read
        if not isinstance(table, RiichiRound):
            return
        kinds = sorted({T.kind_of(t) for t in table.hands[d.seat]})
        hits = np.zeros((len(threats), 34))
        for _ in range(worlds):
            counter[0] += 1
            w = sampler.sample(table, d.seat, counter[0]).round
            for j, s in enumerate(threats):
                for k in waits(T.counts34(w.hands[s])):
                    hits[j, k] += 1
        for j, s in enumerate(threats):
            true = set(table.waits_of(s))
            for k in kinds:
                pred.append(float(hits[j, k] / worlds))
                actual.append(int(k in true))

    for gid, game in iter_houou_games(paths):
        if SPLIT(gid) == "train":
            continue
        rules = riichi_rules_for(game, "tenhou")
        replay_riichi(game.events(), rules=rules, final_scores=game.final_scores, name=gid,
                      observe=observe)
        used += 1
        if used >= games:
            break
    return pred, actual, used


def _report(pred: list[float], actual: list[int]) -> dict[str, object]:
    p = np.asarray(pred)
    y = np.asarray(actual)
    rate = float(y.mean()) if len(y) else 0.0
    order = np.argsort(p, kind="stable")
    table = []
    for chunk in np.array_split(order, 10):
        if len(chunk):
            table.append({"n": len(chunk), "predicted": round(float(p[chunk].mean()), 4),
                          "observed": round(float(y[chunk].mean()), 4)})
    return {
        "pairs": len(y),
        "observed_rate": round(rate, 4),
        "mean_predicted": round(float(p.mean()), 4) if len(p) else 0.0,
        "brier": round(float(((p - y) ** 2).mean()), 5) if len(p) else 0.0,
        "brier_constant": round(float(((rate - y) ** 2).mean()), 5) if len(p) else 0.0,
        "deciles": table,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tenpai.search.calibration",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("data", type=Path, nargs="+",
                    help="Riichi record files or folders (only the held-out Houou games are read)")
    ap.add_argument("--games", type=positive_int, default=30,
                    help="held-out games read (default %(default)s)")
    ap.add_argument("--worlds", type=positive_int, default=8,
                    help="worlds sampled per riichi decision (default %(default)s)")
    ap.add_argument("--uniform", action="store_true",
                    help="uniform worlds (no ready hands for riichi players): the ablation")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    sampler = WorldSampler(riichi_ready=not args.uniform)
    pred, actual, used = wait_predictions(args.data, args.games, args.worlds, sampler)
    out = {"games": used, "worlds": args.worlds, "riichi_ready": not args.uniform,
           **_report(pred, actual), "cpu_seconds": round(time.process_time() - t0, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()

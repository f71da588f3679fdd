"""Could any head over the planner's candidate features beat the planner?  A one-decision probe.

Five registered runs of ``pg_planner`` (REINFORCE and the vine, docs/mcr_strength_runs.md) never
separated from the planner it starts from, and the vine's branches showed that another answer
changes the score at most decisions.  So the signal exists; the question a bigger learner (a
non-linear head) must answer first is whether the *features it sees* predict it.  This module
asks the data directly, without training a policy:

1. **Points.**  Deals of planner self-play (every seat the planner: ``pg_planner``'s start head
   plays exactly as the planner), and at ``states`` decisions with a choice per deal (reservoir
   sampling, :func:`tenpai.rl.planner_vine.play_vine_deal`) the planner's answer and up to
   ``alternatives`` others, drawn uniformly, each played to the end of the hand.  Botzone's walls
   are per seat and fixed by the deal and every agent is deterministic, so ``Q_k − Q_planner`` is
   the exact effect of that one departure on that deal (in Botzone points).
2. **Oracle gain**: the mean over points of ``max_k Q_k − Q_planner`` — what one departure could
   gain for a player who knew the walls: an upper bound, not a target.
3. **Learnable gain**: a *switcher* fitted on the other folds' deals (k-fold by deal, so no deal
   is both learned and judged) predicts each alternative's gain from the candidates' feature
   rows alone — what a head sees — and departs to the best predicted alternative when that
   prediction is above 0.  Its realized gain on the held-out points, with a 95 % interval
   clustered by deal, for two fitters: ridge regression (what a linear head can reach) and a
   one-hidden-layer network (what a non-linear head can reach).

A learnable gain whose interval holds 0 for both fitters means no head over these features has
one-decision signal to learn; the lever is then new inputs, not a new learner.  The figures are
per *decision with a choice*; a game has about ``decisions / deals`` of them per seat, and the
one-decision gains do not simply add up (later decisions change), so a per-game figure from
them is a first-order reading only.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai.agents.pg_planner import PlannerHead
from tenpai.arena.stats import Estimate, clustered_ratio
from tenpai.argtypes import positive_int
from tenpai.atomic import write_text_atomic
from tenpai.rl.planner_pg import stable_seed
from tenpai.rl.planner_vine import play_vine_deal

__all__ = [
    "PROBE_SEED_BASE",
    "ProbeError",
    "ProbePoint",
    "Switcher",
    "collect",
    "cross_validated_gains",
    "fit_network",
    "fit_ridge",
    "main",
    "probe_deal",
    "read_points",
    "report",
]

#: Probe deals live apart from the training (700 M) and evaluation (910 M) deals of
#: :mod:`tenpai.rl.planner_pg`.
PROBE_SEED_BASE: Final = 950_000_000
#: A temperature at which the start head's softmax is uniform to 1e-5: alternatives are drawn
#: uniformly among the other candidates.
_UNIFORM: Final = 1e6


class ProbeError(ValueError):
    """A points file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True, slots=True)
class ProbePoint:
    """One decision: its deal, seat and kind, the feature rows of the answers played (the
    planner's first) and each answer's final Botzone score for the seat."""

    deal: int
    seat: int
    kind: str
    rows: np.ndarray  # (answers, features)
    q: np.ndarray  # (answers,)

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "seat": self.seat, "kind": self.kind,
                "rows": self.rows.tolist(), "q": self.q.tolist()}


def probe_deal(deal: int, seed: int, states: int, alternatives: int) -> list[ProbePoint]:
    """The points of one deal (see the module docstring); deterministic in its arguments."""
    out = play_vine_deal(
        PlannerHead.start(2.0), PROBE_SEED_BASE + seed * 100_000 + deal, (0, 1, 2, 3),
        lambda s: stable_seed(seed, deal, s), states=states, alternatives=alternatives,
        temperature=_UNIFORM, scale=1.0, rng=np.random.default_rng([seed, deal]))
    return [ProbePoint(deal, p.seat, p.decision.kind,
                       np.asarray(p.decision.features[p.answers], dtype=np.float64),
                       np.asarray(p.q, dtype=np.float64))
            for p in out.points]


# ---------------------------------------------------------------------- the points file
def read_points(path: Path) -> list[ProbePoint]:
    """Every point of a JSON-lines file; a last line cut short by a kill is left out (the
    collector writes it again), any other bad line is refused naming the file and line."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as err:
        raise ProbeError(f"{path}: cannot read ({err.strerror})") from None
    points: list[ProbePoint] = []
    for n, line in enumerate(lines, 1):
        try:
            d = json.loads(line)
            points.append(ProbePoint(int(d["deal"]), int(d["seat"]), str(d["kind"]),
                                     np.asarray(d["rows"], dtype=np.float64),
                                     np.asarray(d["q"], dtype=np.float64)))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
            if n == len(lines) and isinstance(err, json.JSONDecodeError):
                break
            raise ProbeError(f"{path}, line {n}: not a probe point ({err})") from None
        p = points[-1]
        if p.kind not in ("discard", "call") or p.rows.ndim != 2 or len(p.rows) != len(p.q):
            raise ProbeError(f"{path}, line {n}: rows and scores do not match")
    return points


def collect(path: Path, deals: int, seed: int, states: int, alternatives: int,
            progress: Callable[[int, int], None] | None = None) -> list[ProbePoint]:
    """Deals ``0 … deals − 1`` of ``seed`` appended to ``path``, one line per point, each deal's
    lines written together after the deal; a second call continues after the last whole deal
    (the last deal written is played again, so a deal cut short is never half-counted)."""
    path = Path(path)
    points = read_points(path) if path.exists() else []
    done = max((p.deal for p in points), default=-1)
    points = [p for p in points if p.deal < done]  # the last deal written may be partial
    path.parent.mkdir(parents=True, exist_ok=True)
    # the kept lines replace the file in one rename, so a kill here loses nothing
    write_text_atomic(path, "".join(json.dumps(p.to_json()) + "\n" for p in points))
    with path.open("a") as f:
        for deal in range(max(done, 0), deals):
            new = probe_deal(deal, seed, states, alternatives)
            f.write("".join(json.dumps(p.to_json()) + "\n" for p in new))
            f.flush()
            points += new
            if progress is not None:
                progress(deal + 1, deals)
    return points


# ---------------------------------------------------------------------- switchers
Switcher = Callable[[np.ndarray], np.ndarray]
Fitter = Callable[[np.ndarray, np.ndarray], Switcher]


def _pairs(points: Sequence[ProbePoint]) -> tuple[np.ndarray, np.ndarray]:
    """One row per alternative: its features, the planner's and their difference (so that
    what is constant across candidates — how far the hand is, the threat — still reaches a
    non-linear fitter); the target is its gain over the planner's answer."""
    xs, ys = [], []
    for p in points:
        for k in range(1, len(p.q)):
            xs.append(np.concatenate([p.rows[k] - p.rows[0], p.rows[k], p.rows[0]]))
            ys.append(p.q[k] - p.q[0])
    width = 3 * points[0].rows.shape[1] if points else 0
    return np.asarray(xs, dtype=np.float64).reshape(-1, width), np.asarray(ys, dtype=np.float64)


def fit_ridge(x: np.ndarray, y: np.ndarray, penalty: float = 1.0) -> Switcher:
    """Least squares with an L2 penalty on standardised features (a linear head's reach)."""
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    reg = penalty * np.eye(z.shape[1])
    reg[-1, -1] = 0.0
    w = np.linalg.solve(z.T @ z + reg, z.T @ y)
    return lambda q: np.hstack([(q - mu) / sd, np.ones((len(q), 1))]) @ w


def fit_network(x: np.ndarray, y: np.ndarray, hidden: int = 16, steps: int = 1500,
                lr: float = 0.01, decay: float = 1e-3, seed: int = 0) -> Switcher:
    """One tanh hidden layer, full-batch Adam on the squared error with weight decay (a
    non-linear head's reach); features and target standardised, the output scaled back."""
    rng = np.random.default_rng(seed)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    ym, ys = float(y.mean()), float(y.std()) + 1e-9
    z, t = (x - mu) / sd, (y - ym) / ys
    params = [rng.normal(0, 1 / math.sqrt(z.shape[1]), (z.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / math.sqrt(hidden), hidden), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = len(z)
    for step in range(1, steps + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(z @ w1 + b1)
        err = (h @ w2 + b2[0] - t) / n
        dh = np.outer(err, w2) * (1 - h * h)
        grads = [z.T @ dh + decay * w1, dh.sum(axis=0), h.T @ err + decay * w2,
                 np.array([err.sum()])]
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - lr * (m[i] / (1 - 0.9 ** step)) / (
                np.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8)
    w1, b1, w2, b2 = params
    return lambda q: (np.tanh(((q - mu) / sd) @ w1 + b1) @ w2 + b2[0]) * ys + ym


def _folds(deals: Sequence[int], k: int) -> Iterator[set[int]]:
    ordered = sorted(set(deals))
    for i in range(k):
        yield set(ordered[i::k])


def cross_validated_gains(points: Sequence[ProbePoint], fitter: Fitter,
                          folds: int = 5) -> list[float]:
    """Each point's realized gain (``Q`` of the switcher's answer − the planner's) when the
    switcher was fitted on the other folds' deals only; 0 where it keeps the planner's."""
    gains = [0.0] * len(points)
    for held in _folds([p.deal for p in points], folds):
        train = [p for p in points if p.deal not in held]
        x, y = _pairs(train)
        if len(x) < 2:
            continue
        predict = fitter(x, y)
        for i, p in enumerate(points):
            if p.deal not in held or len(p.q) < 2:
                continue
            px, _ = _pairs([p])
            guess = predict(px)
            best = int(np.argmax(guess))
            if guess[best] > 0:
                gains[i] = float(p.q[best + 1] - p.q[0])
    return gains


def _by_deal(points: Sequence[ProbePoint], values: Sequence[float]) -> Estimate:
    totals: dict[int, float] = {}
    counts: dict[int, float] = {}
    for p, x in zip(points, values):
        totals[p.deal] = totals.get(p.deal, 0.0) + x
        counts[p.deal] = counts.get(p.deal, 0.0) + 1
    keys = sorted(totals)
    return clustered_ratio([totals[d] for d in keys], [counts[d] for d in keys])


def report(points: Sequence[ProbePoint], folds: int = 5) -> dict[str, Any]:
    """The probe's figures per decision kind and overall (see the module docstring)."""
    def est(e: Estimate) -> list[float]:
        return [round(e.mean, 3), round(e.low, 3), round(e.high, 3)]

    out: dict[str, Any] = {}
    for kind in ("discard", "call"):
        pts = [p for p in points if p.kind == kind and len(p.q) > 1]
        if not pts:
            continue
        oracle = [float(p.q.max() - p.q[0]) for p in pts]
        eff = [_efficiency_gain(p) for p in pts]
        out[kind] = {
            "points": len(pts),
            "deals": len({p.deal for p in pts}),
            "alternatives": sum(len(p.q) - 1 for p in pts),
            "share_changed": round(float(np.mean([p.q.max() != p.q.min() for p in pts])), 3),
            "share_better": round(float(np.mean([p.q[1:].max() > p.q[0] for p in pts])), 3),
            "oracle_gain": est(_by_deal(pts, oracle)),
            "mean_alternative_gain": est(_by_deal(pts, [float(np.mean(p.q[1:] - p.q[0]))
                                                        for p in pts])),
            "efficiency_gain": est(_by_deal(pts, eff)),
            "ridge_gain": est(_by_deal(pts, cross_validated_gains(pts, fit_ridge, folds))),
            "network_gain": est(_by_deal(pts, cross_validated_gains(pts, fit_network, folds))),
        }
    return out


def _efficiency_gain(p: ProbePoint) -> float:
    """The gain of ``efficiency``'s answer where it was among the alternatives played (a rule
    switcher for comparison; 0 elsewhere).  Discards only: feature 1 marks it."""
    if p.kind != "discard":
        return 0.0
    for k in range(1, len(p.q)):
        if p.rows[k, 1] == 1.0 and p.rows[0, 1] == 0.0:
            return float(p.q[k] - p.q[0])
    return 0.0


# ---------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tenpai.rl.planner_probe",
        description="Whether the planner's candidate features predict when another answer "
                    "beats the planner's (docs/mcr_strength.md, 'The probe').")
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play probe deals and append their points to a file")
    c.add_argument("points", type=Path, help="the JSON-lines file (continued if it exists)")
    c.add_argument("--deals", type=positive_int, required=True, help="deals to have in the file")
    c.add_argument("--seed", type=int, required=True, help="the probe's seed (its deals)")
    c.add_argument("--vine-states", type=positive_int, default=6,
                   help="decisions branched per deal (default 6)")
    c.add_argument("--vine-alternatives", type=positive_int, default=5,
                   help="answers played beside the planner's at each (default 5)")
    r = sub.add_parser("report", help="print the probe's figures as JSON")
    r.add_argument("points", type=Path, help="a file written by collect")
    r.add_argument("--folds", type=positive_int, default=5, help="cross-validation folds by deal")
    args = ap.parse_args(argv)
    if args.command == "collect":
        if args.deals < 1 or args.vine_states < 1 or args.vine_alternatives < 1:
            ap.error("--deals, --vine-states and --vine-alternatives must be at least 1")

        def show(done: int, total: int) -> None:
            print(f"\rdeal {done}/{total}", end="", flush=True)

        pts = collect(args.points, args.deals, args.seed, args.vine_states,
                      args.vine_alternatives, show)
        print(f"\n{len(pts)} points in {args.points}")
        return 0
    if args.folds < 2:
        ap.error("--folds must be at least 2")
    try:
        pts = read_points(args.points)
    except ProbeError as err:
        ap.exit(2, f"error: {err}\n")
    print(json.dumps(report(pts, args.folds), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

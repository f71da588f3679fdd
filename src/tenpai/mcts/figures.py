"""Figs. 6, 7 and 8 of seed 000, from our runs: the search model's strength over training for
several simulation counts, search strength over simulations, and the normal agent's rating
during dropout learning.

Fig. 6 (:func:`read_gate_curve`, ``tenpai eval fig6``): a gated ``tenpai train mcts`` run
(``--gate-deals N``) measures, after every version's training, the new weights against the best
version so far — the start, until a version is accepted — in pairs over fixed deals.  Runs that
differ in ``--simulations`` then give one curve each: strength against SGD steps.

Fig. 7 (:func:`sweep_simulations`, ``tenpai eval search``): the search agent with each model
and each kind of transition, at several simulation counts, rated on the same deals against
three baseline seats (:func:`tenpai.selfplay.rating.rate_against`).

Fig. 8 (:func:`read_rating_curve`, ``tenpai eval dropout``): ``tenpai train dropout
--eval-every N`` keeps, in the model card, the agent's stable dan
against three baseline seats at every N steps.  Runs are grouped the way the figure is: with
the Bernoulli matrix (p falling from 1 to 0) and without it (p = 0 throughout), and each group
is drawn as the median over its runs (seeds) with the 25th-75th percentile band.  The curve is
read from the model files, so it travels with the weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.selfplay.rating import Rating

__all__ = ["GateCurve", "RatingCurve", "SweepPoint", "group_curves", "plot_fig6", "plot_fig7",
           "plot_fig8", "read_gate_curve", "read_rating_curve", "sweep_simulations"]

GROUPS = {False: "Bernoulli matrix (p 1 → 0)", True: "no matrix (p = 0)"}


@dataclass(frozen=True, slots=True)
class RatingCurve:
    """One dropout run: (step, stable dan, mean rank) at each rating, and its settings."""

    label: str
    baseline: bool
    opponent: str
    games_per_point: int
    steps: tuple[int, ...]
    stable_dan: tuple[float, ...]
    mean_rank: tuple[float, ...]


def read_rating_curve(path: Path) -> RatingCurve:
    """The ratings a ``train dropout`` model card holds; ``ValueError`` naming the file if the
    model is not a dropout model or was trained without ``--eval-every``."""
    from tenpai.mcts.dropout import DropoutModel

    card: dict[str, Any] = DropoutModel.load(path).card
    rows = [h for h in card.get("history", []) if "stable_dan" in h]
    if not rows:
        raise ValueError(f"{path}: no rating in the model card (train with --eval-every N)")
    return RatingCurve(
        label=str(path), baseline=bool(card.get("baseline")),
        opponent=str(card.get("eval_opponent", "?")),
        games_per_point=int(rows[-1].get("eval_games", 0)),
        steps=tuple(int(h["step"]) for h in rows),
        stable_dan=tuple(float(h["stable_dan"]) for h in rows),
        mean_rank=tuple(float(h["mean_rank"]) for h in rows),
    )


def group_curves(curves: Sequence[RatingCurve]) -> dict[str, dict[str, Any]]:
    """Per group: the steps every run of it was rated at, and the median, 25th and 75th
    percentile of the stable dan over the runs there (an infinite dan — no last place — is
    kept: it sorts above every finite one)."""
    out: dict[str, dict[str, Any]] = {}
    for flag, name in GROUPS.items():
        runs = [c for c in curves if c.baseline == flag]
        if not runs:
            continue
        steps = sorted(set.intersection(*(set(c.steps) for c in runs)))
        table = np.array([[c.stable_dan[c.steps.index(s)] for s in steps] for c in runs])
        q = np.percentile(table, [25, 50, 75], axis=0, method="inverted_cdf") \
            if len(runs) > 1 else np.repeat(table, 3, axis=0)
        out[name] = {"runs": len(runs), "steps": steps,
                     "q25": q[0].tolist(), "median": q[1].tolist(), "q75": q[2].tolist(),
                     "final_mean_rank": [c.mean_rank[-1] for c in runs]}
    return out


@dataclass(frozen=True, slots=True)
class GateCurve:
    """One gated search-training run: its simulation counts and, per version, the SGD steps so
    far, the pair win rate against the best version (95 % interval) and whether it was
    accepted."""

    label: str
    simulations: int
    gate_simulations: int
    gate_deals: int
    cpu_minutes: float
    steps: tuple[int, ...]
    win_rate: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    accepted: tuple[bool, ...]
    #: The run's ``--bn-stats`` (runs from before the setting: "update").
    bn_stats: str = "update"

    @property
    def legend(self) -> str:
        frozen = ", batch norm frozen" if self.bn_stats == "frozen" else ""
        return f"{self.simulations} simulations{frozen} ({self.cpu_minutes:.0f} CPU min)"

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "simulations": self.simulations,
                "bn_stats": self.bn_stats,
                "gate_simulations": self.gate_simulations, "gate_deals": self.gate_deals,
                "cpu_minutes": self.cpu_minutes,
                "points": [{"steps": s, "win_rate": w, "low": lo, "high": hi, "accepted": a}
                           for s, w, lo, hi, a in zip(self.steps, self.win_rate, self.low,
                                                      self.high, self.accepted)]}


def read_gate_curve(path: Path) -> GateCurve:
    """The gate results of a ``train mcts --gate-deals N`` model file (its card; for files
    written before the card kept them, the checkpoint beside it); ``ValueError`` naming the
    file if the run was not gated."""
    import json

    from tenpai.mcts.checkpoint import load_checkpoint
    from tenpai.mcts.model import MCTSModel
    from tenpai.mcts.train import checkpoint_path, gate_points

    training = MCTSModel.load(path).card.training
    rows = training.get("gates")
    settings = training.get("settings", {})
    cpu = float(training.get("cpu_minutes", 0.0))
    if rows is None and checkpoint_path(path).exists():
        payload = load_checkpoint(checkpoint_path(path))
        rows = gate_points(json.loads(payload["progress_json"]).get("history", []))
        settings = json.loads(payload["settings_json"])
    if not rows or not settings.get("gate_deals"):
        raise ValueError(f"{path}: no gate results (train with --gate-deals N)")
    sims = int(settings.get("simulations", 0))
    try:
        return GateCurve(
            label=str(path), simulations=sims,
            gate_simulations=int(settings.get("gate_simulations") or sims),
            gate_deals=int(settings["gate_deals"]), cpu_minutes=cpu,
            steps=tuple(int(r["steps"]) for r in rows),
            win_rate=tuple(float(r["gate_win_rate"]) for r in rows),
            low=tuple(float(r["gate_low"]) for r in rows),
            high=tuple(float(r["gate_high"]) for r in rows),
            accepted=tuple(bool(r["gate_accepted"]) for r in rows),
            bn_stats=str(settings.get("bn_stats", "update")))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: gate results garbled ({exc!r})") from None


def plot_fig6(curves: Sequence[GateCurve], out: Path, *, title: str = "") -> Path:
    """Pair win rate against the best version (95 % band) over SGD steps, one line per run
    labelled by its training simulations; accepted versions are drawn as filled stars."""
    from tenpai.plots import pyplot, save_png

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for c in sorted(curves, key=lambda c: (c.simulations, c.bn_stats)):
        line = ax.plot(c.steps, c.win_rate, marker="o", label=c.legend)
        color = line[0].get_color()
        ax.fill_between(c.steps, c.low, c.high, alpha=0.15, color=color)
        took = [(s, w) for s, w, a in zip(c.steps, c.win_rate, c.accepted) if a]
        if took:
            ax.scatter(*zip(*took), marker="*", s=160, color=color, zorder=3)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    gate = "/".join(sorted({f"{c.gate_deals} deals × 2 at {c.gate_simulations} simulations"
                            for c in curves}))
    ax.set_xlabel("SGD steps")
    ax.set_ylabel("pair win rate vs best version (95% CI)")
    ax.set_title(title or f"Search self-play: new weights vs the best so far ({gate})",
                 fontsize="medium")
    ax.legend(loc="best", fontsize="small")
    save_png(fig, out)
    return out


def plot_fig8(curves: Sequence[RatingCurve], out: Path, *, title: str = "") -> Path:
    """Median stable dan with the quartile band per group over training steps, as PNG."""
    from tenpai.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, g in group_curves(curves).items():
        med = [v if math.isfinite(v) else np.nan for v in g["median"]]
        lo = [v if math.isfinite(v) else np.nan for v in g["q25"]]
        hi = [v if math.isfinite(v) else np.nan for v in g["q75"]]
        line = ax.plot(g["steps"], med, marker="o", label=f"{name}, {g['runs']} runs")
        ax.fill_between(g["steps"], lo, hi, alpha=0.2, color=line[0].get_color())
    return _finish(fig, ax, out, "training steps", "stable dan",
                   {c.opponent for c in curves}, {c.games_per_point for c in curves},
                   title or "Dropout learning: rating during training (median, quartiles)")


def _finish(fig: Any, ax: Any, out: Path, xlabel: str, measure: str, opponents: set[str],
            games: set[int], title: str) -> Path:
    """Labels naming the opponent and the games per point, legend, atomic PNG."""
    from tenpai.plots import save_png

    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{measure} vs 3 × {'/'.join(sorted(opponents))} "
                  f"({'/'.join(map(str, sorted(games)))} games)")
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    save_png(fig, out)
    return out


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """One search setting's rating: a model, its transitions, simulations per move."""

    model: str
    transitions: str
    simulations: int
    rating: Rating
    cpu_seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {"model": self.model, "transitions": self.transitions,
                "simulations": self.simulations, "cpu_seconds": round(self.cpu_seconds, 1),
                **self.rating.as_dict()}


def sweep_simulations(
    models: Sequence[str],
    transitions: Sequence[str],
    simulations: Sequence[int],
    *,
    opponent: str = "defensive",
    seeds: Sequence[int],
    on_point: Callable[[SweepPoint], None] | None = None,
) -> list[SweepPoint]:
    """Rate the search agent at every (model, transitions, simulations) against three
    ``opponent`` seats on the same deals — Fig. 7a (models trained with different feature
    access) and Fig. 7b (learned model against true transitions) over evaluation simulations.
    One simulation is the prior's choice, the same for both transitions."""
    import time

    from tenpai.mcts.agent import SEARCH_DEFAULTS, MCTSAgent
    from tenpai.selfplay.rating import rate_against

    points: list[SweepPoint] = []
    for model in models:
        for trans in transitions:
            for sims in simulations:
                agent = MCTSAgent(model, simulations=sims, transitions=trans,
                                  **SEARCH_DEFAULTS)  # type: ignore[arg-type]
                cpu0 = time.process_time()
                rating = rate_against(agent, opponent, "suits108", seeds)
                point = SweepPoint(model, trans, sims, rating, time.process_time() - cpu0)
                points.append(point)
                if on_point is not None:
                    on_point(point)
    return points


def plot_fig7(points: Sequence[SweepPoint], out: Path, *, title: str = "") -> Path:
    """Mean place (95 % interval over deals) against evaluation simulations, one line per
    (model, transitions), as PNG; lower is better."""
    from tenpai.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    lines: dict[tuple[str, str], list[SweepPoint]] = {}
    for p in points:
        lines.setdefault((p.model, p.transitions), []).append(p)
    for (model, trans), pts in lines.items():
        pts = sorted(pts, key=lambda p: p.simulations)
        xs = [p.simulations for p in pts]
        line = ax.plot(xs, [p.rating.rank.mean for p in pts], marker="o",
                       label=f"{Path(model).stem if model != 'default' else model}, {trans}")
        ax.fill_between(xs, [p.rating.rank.low for p in pts], [p.rating.rank.high for p in pts],
                        alpha=0.15, color=line[0].get_color())
    ax.axhline(2.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.invert_yaxis()
    return _finish(fig, ax, out, "simulations per move", "mean place",
                   {p.rating.baseline for p in points}, {p.rating.games for p in points},
                   title or "Search strength over evaluation simulations")

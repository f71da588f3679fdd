"""Learning curves of policy-gradient runs: read them from model cards, draw them.

``tenpai train pg --eval-every N`` plays the greedy learner against its frozen start every N
self-play games (:mod:`tenpai.selfplay.pairs`) and keeps each point in the model card.  A curve
is read back from the model file, not from TensorBoard logs, so it travels with the weights
and is the same curve whichever machine trained them.  The point at game 0 is added, not
measured: the learner *is* its start then and the seat-swapped pair game scores exactly 1/2.
A run measured against another agent (``--eval-opponent defensive``) has no such free point:
its curve starts at its first measurement.  Model files are supervised bundles or, for the
108-tile rules, dropout models.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CurveError", "CurvePoint", "LearningCurve", "plot_curves", "read_curve"]


class CurveError(ValueError):
    """A model file holds no learning curve (not a policy-gradient model, or a broken card)."""


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The learner pair's win rate against the start after ``games`` self-play games."""

    games: int
    win_rate: float
    low: float
    high: float
    learner_rank: float
    start_rank: float
    deals: int


@dataclass(frozen=True, slots=True)
class LearningCurve:
    """One run's curve, with what it cost (CPU minutes of the whole run, games played)."""

    label: str
    points: tuple[CurvePoint, ...]
    games: int
    cpu_minutes: float
    #: Whom the points measure the learner against: ``start`` or an agent's name.
    opponent: str = "start"

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "opponent": self.opponent,
            "games": self.games,
            "cpu_minutes": self.cpu_minutes,
            "points": [
                {
                    "games": p.games,
                    "win_rate": p.win_rate,
                    "low": p.low,
                    "high": p.high,
                    "learner_rank": p.learner_rank,
                    "start_rank": p.start_rank,
                    "deals": p.deals,
                }
                for p in self.points
            ],
        }


def curve_from_card(card: dict[str, Any], label: str) -> LearningCurve:
    """The curve a ``train pg`` model card holds; :class:`CurveError` naming ``label`` if none."""
    raw = card.get("curve")
    if not isinstance(raw, list) or "games" not in card:
        raise CurveError(f"{label}: not a policy-gradient model (its card has no learning curve)")
    points = []
    for i, p in enumerate(raw):
        try:
            points.append(CurvePoint(
                games=int(p["games"]), win_rate=float(p["win_rate"]), low=float(p["low"]),
                high=float(p["high"]), learner_rank=float(p["learner_rank"]),
                start_rank=float(p["start_rank"]), deals=int(p["deals"]),
            ))
        except (KeyError, TypeError, ValueError) as exc:
            raise CurveError(f"{label}: curve point {i + 1} is malformed ({exc!r})") from None
    points.sort(key=lambda p: p.games)
    settings = card.get("settings")
    opponent = settings.get("eval_opponent", "start") if isinstance(settings, dict) else "start"
    return LearningCurve(label, tuple(points), int(card["games"]),
                         float(card.get("cpu_minutes", 0.0)), str(opponent))


def read_curve(path: str | Path, head: str = "discard") -> LearningCurve:
    """Load ``path`` (a model file written by ``tenpai train pg``) and return its curve."""
    from tenpai.mcts.dropout import DropoutModel
    from tenpai.mcts.model import MCTSModelError
    from tenpai.models.bundle import ModelBundle, ModelError

    try:
        bundle = ModelBundle.load(path)
    except ModelError as exc:
        try:  # a 108-tile run: the normal agent's own file format
            return curve_from_card(DropoutModel.load(Path(path)).card, str(path))
        except MCTSModelError:
            raise CurveError(str(exc)) from None
    if head not in bundle.heads:
        raise CurveError(f"{path}: the model has no {head!r} network")
    return curve_from_card(bundle.heads[head].card, str(path))


def plot_curves(curves: Sequence[LearningCurve], out: Path, *, title: str = "") -> Path:
    """Pair win rate against the start or the run's opponent (95 % interval band) over
    self-play games, one line per run, written to ``out`` as PNG; the 1/2 line is "no change
    from the start" (or "level with the opponent")."""
    from tenpai.plots import pyplot, save_png

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for c in curves:
        first = [0] if c.opponent == "start" else []
        xs = first + [p.games for p in c.points]
        ys = [0.5] * len(first) + [p.win_rate for p in c.points]
        lo = [0.5] * len(first) + [p.low for p in c.points]
        hi = [0.5] * len(first) + [p.high for p in c.points]
        against = "" if c.opponent == "start" else f", vs {c.opponent}"
        line = ax.plot(xs, ys, marker="o",
                       label=f"{c.label} ({c.cpu_minutes:.0f} CPU min{against})")
        ax.fill_between(xs, lo, hi, alpha=0.2, color=line[0].get_color())
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("self-play games")
    opponents = {c.opponent for c in curves}
    whom = "the start" if opponents == {"start"} else (
        next(iter(opponents)) if len(opponents) == 1 else "the start / opponent")
    ax.set_ylabel(f"pair win rate against {whom} (95% CI)")
    ax.set_title(title or "Policy gradient: learner against its supervised start")
    ax.legend(loc="best", fontsize="small")
    save_png(fig, out)
    return out

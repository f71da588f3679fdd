"""Learning curves of ``pg_planner`` runs: read them from the run's JSON files, draw them.

``tenpai train pg-planner`` (:mod:`tenpai.rl.planner_pg`) keeps its curve in the weights
file's ``info`` (and, while it runs, in the checkpoint ``<out>.ckpt``), not in a model card:
the head is a numpy/JSON policy, so the policy-gradient curves of :mod:`tenpai.rl.curve`
(a pair *win rate* read from a torch bundle) cannot hold it.  Its points measure something
else too — the greedy head's place and Botzone-point *differences* against an opponent pair
(``planner``, ``efficiency``, or the planner in the same seat among the greedy bots) on fixed
development deals, 0 meaning "level" — so they are read and drawn here, with the writer's own
:class:`~tenpai.rl.planner_pg.CurvePoint`, and never mixed with a win-rate curve.

No point at game 0 is added: against the planner the start's difference is 0 by
construction, against ``efficiency`` it is not, and a curve shows only what was measured.
Points written before a point knew its opponent and its departures (November 2026) read as
``planner`` with no decisions counted.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from tenpai.agents.pg_planner import FORMAT
from tenpai.rl.planner_pg import CHECKPOINT_FORMAT, CurvePoint

__all__ = [
    "PlannerCurve",
    "PlannerCurveError",
    "curve_from_json",
    "is_json_file",
    "plot_planner_curves",
    "read_planner_curve",
    "versus",
]

#: How the table and the plot name each curve opponent (``greedy-bots`` points compare the
#: head with the planner in the same seat, the other three seats the greedy bots).
_VERSUS: Final = {"greedy-bots": "planner among greedy bots"}


class PlannerCurveError(ValueError):
    """A file holds no usable ``pg_planner`` curve; the message names the file."""


def versus(opponent: str) -> str:
    """The curve opponent as a reader should see it."""
    return _VERSUS.get(opponent, opponent)


@dataclass(frozen=True, slots=True)
class PlannerCurve:
    """One run's curve: every point (all opponents, in the order the run measured them) and
    what the run cost so far."""

    label: str
    #: ``weights`` (the run's final file) or ``checkpoint`` (a run still going or stopped).
    source: str
    games: int
    updates: int
    cpu_minutes: float
    #: Whom the learner trained against (``planner`` or ``greedy-bots``).
    trained_against: str
    points: tuple[CurvePoint, ...]

    def opponents(self) -> tuple[str, ...]:
        """The curve opponents, the training opponent first (as the run measures them)."""
        return tuple(dict.fromkeys(p.opponent for p in self.points))

    def series(self, opponent: str) -> tuple[CurvePoint, ...]:
        """The points against ``opponent``, by training games."""
        return tuple(sorted((p for p in self.points if p.opponent == opponent),
                            key=lambda p: p.games))

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "pg_planner",
            "label": self.label,
            "source": self.source,
            "games": self.games,
            "updates": self.updates,
            "cpu_minutes": self.cpu_minutes,
            "trained_against": self.trained_against,
            "points": [asdict(p) for p in self.points],
        }


def is_json_file(path: Path) -> bool:
    """Whether ``path`` looks like a JSON object (its first non-blank byte is ``{``).

    ``train pg`` writes zip archives (torch) and ``train pg-planner`` JSON text, so the first
    byte tells the two kinds apart whatever the files are called."""
    try:
        with path.open("rb") as f:
            head = f.read(256)
    except OSError:
        return False
    return head.lstrip().startswith(b"{")


def _point(raw: Any, i: int, label: str) -> CurvePoint:
    try:
        return CurvePoint(
            games=int(raw["games"]), deals=int(raw["deals"]),
            place_diff=float(raw["place_diff"]), place_half=float(raw["place_half"]),
            score_diff=float(raw["score_diff"]), score_half=float(raw["score_half"]),
            changed_games=int(raw["changed_games"]), cpu_seconds=float(raw["cpu_seconds"]),
            opponent=str(raw.get("opponent", "planner")),
            decisions=int(raw.get("decisions", 0)), departures=int(raw.get("departures", 0)),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PlannerCurveError(f"{label}: curve point {i + 1} is malformed ({exc!r})") from None


def curve_from_json(data: Any, label: str) -> PlannerCurve:
    """The curve of a parsed weights file or checkpoint; :class:`PlannerCurveError` naming
    ``label`` if it is neither, has no curve, or the curve has no point."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == FORMAT:
        source = "weights"
        info = data.get("info")
        progress = info if isinstance(info, dict) else {}
        settings = progress.get("settings")
    elif fmt == CHECKPOINT_FORMAT:
        source = "checkpoint"
        raw_progress = data.get("progress")
        progress = raw_progress if isinstance(raw_progress, dict) else {}
        settings = data.get("settings")
    else:
        raise PlannerCurveError(
            f"{label}: JSON, but neither pg_planner weights ({FORMAT}) nor a pg_planner "
            f"checkpoint ({CHECKPOINT_FORMAT}); policy-gradient models are 'train pg' .pt files")
    raw = progress.get("curve")
    if not isinstance(raw, list):
        raise PlannerCurveError(
            f"{label}: pg_planner {source} without a learning curve (not written by "
            f"'tenpai train pg-planner')")
    if not raw:
        raise PlannerCurveError(
            f"{label}: pg_planner {source} whose curve has no point (train with "
            f"--eval-every N and --eval-deals N > 0)")
    points = tuple(_point(p, i, label) for i, p in enumerate(raw))
    against = settings.get("opponents", "planner") if isinstance(settings, dict) else "planner"
    try:
        games = int(progress.get("games", max(p.games for p in points)))
        updates = int(progress.get("updates", 0))
        cpu = float(progress.get("cpu_seconds", 0.0))
    except (TypeError, ValueError) as exc:
        raise PlannerCurveError(f"{label}: the run's progress is malformed ({exc!r})") from None
    if not math.isfinite(cpu):
        raise PlannerCurveError(f"{label}: the run's CPU seconds are not a number")
    return PlannerCurve(label, source, games, updates, cpu / 60.0, str(against), points)


def read_planner_curve(path: str | Path) -> PlannerCurve:
    """Load ``path`` (``pg_planner`` weights or their checkpoint) and return its curve."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PlannerCurveError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise PlannerCurveError(f"{path}: not a text (JSON) file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlannerCurveError(
            f"{path}: not JSON ({exc.msg}, line {exc.lineno}; a run still writing it?)") from None
    return curve_from_json(data, str(path))


def _cost(c: PlannerCurve) -> str:
    return f"{c.cpu_minutes:.1f} CPU min" + (", checkpoint" if c.source == "checkpoint" else "")


def plot_planner_curves(curves: Sequence[PlannerCurve], out: Path, *, title: str = "") -> Path:
    """Two panels over training games — the paired place difference and the Botzone points
    per seat-game, learner minus opponent, each with its 95 % band — one line per run and
    opponent, a 0 line ("level with the opponent"), and on a second axis of the place panel
    the share of the greedy head's decisions that left the planner's choice (dotted): the
    curve can only move where the head departs.  Written to ``out`` as PNG."""
    from tenpai.plots import pyplot, save_png

    plt = pyplot()
    fig, (ax_place, ax_score) = plt.subplots(2, 1, figsize=(7.5, 7), sharex=True)
    ax_dep = ax_place.twinx()
    several = len(curves) > 1
    for c in curves:
        for opponent in c.opponents():
            pts = c.series(opponent)
            xs = [p.games for p in pts]
            name = f"{c.label} vs {versus(opponent)}" if several else f"vs {versus(opponent)}"
            cost = f" ({_cost(c)})" if several and opponent == c.opponents()[0] else ""
            line = ax_place.plot(xs, [p.place_diff for p in pts], marker="o", label=name + cost)
            color = line[0].get_color()
            ax_score.plot(xs, [p.score_diff for p in pts], marker="o", color=color, label=name)
            for ax, mids, halves in (
                (ax_place, [p.place_diff for p in pts], [p.place_half for p in pts]),
                (ax_score, [p.score_diff for p in pts], [p.score_half for p in pts]),
            ):
                ax.fill_between(xs, [m - h for m, h in zip(mids, halves)],
                                [m + h for m, h in zip(mids, halves)], alpha=0.2, color=color)
                # caps too: a band of one point (a run's first) has no width to show
                ax.errorbar(xs, mids, yerr=halves, fmt="none", ecolor=color, alpha=0.6,
                            capsize=3)
            counted = [p for p in pts if p.decisions]
            if counted:
                ax_dep.plot([p.games for p in counted],
                            [100.0 * p.departures / p.decisions for p in counted],
                            linestyle=":", marker="x", color=color,
                            label=f"{name}: departures")
    for ax in (ax_place, ax_score):
        ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    ax_place.set_ylabel("place, learner − opponent\n(95% CI; below 0 is better)")
    ax_score.set_ylabel("Botzone points per seat-game,\nlearner − opponent (95% CI)")
    ax_dep.set_ylabel("greedy decisions off the planner's (%)", color="dimgrey")
    ax_dep.set_ylim(bottom=0.0)
    ax_score.set_xlabel("training games")
    whole = "" if several or not curves else f" ({_cost(curves[0])})"
    ax_place.set_title(title or f"pg_planner: greedy head against opponent pairs{whole}")
    handles, labels = ax_place.get_legend_handles_labels()
    dep_handles, dep_labels = ax_dep.get_legend_handles_labels()
    # below the panels: inside, the second axis would draw over it
    fig.legend(handles + dep_handles, labels + dep_labels, loc="upper center", ncol=2,
               fontsize="small", bbox_to_anchor=(0.5, 0.02))
    save_png(fig, out)
    return out

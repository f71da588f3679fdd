"""Every registered figure against an issue's target, in one picture.

Issue 38 (`search` against three mjai-manue, average rank ≤ 2.25) and issue 43 (+25 points a
game above three greedy Botzone bots) each have a dozen registered runs spread over long
tables and prose in the docs; whether any interval ever came near the target is easier seen
than read.  ``python -m tenpai.bench.target_plot SPEC.json --out PLOT.png`` draws one row per
run — its estimate and 95 % interval — beside a line at the target, players, controls and
measuring instruments (which see hidden tiles and so are bounds, not players) told apart.

The spec is a small JSON file kept with the docs (``docs/data/*.json``), not the runs'
databases, which stay outside the repository; ``tests/bench/test_target_plot.py`` checks that
each row's figures are written, as the spec formats them, in the page the row names, so the
picture cannot drift from the record.  The spec::

    {"title": str, "xlabel": str, "target": float, "better": "lower" | "higher",
     "decimals": int, "signed": bool,
     "rows": [{"label": str, "seed": int, "estimate": float, "low": float, "high": float,
               "kind": "player" | "control" | "instrument", "doc": "docs/….md"}, …]}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

__all__ = ["KINDS", "PlotSpec", "Row", "TargetPlotError", "draw", "load_spec", "main"]

#: How a row is drawn: a player as a filled dot, a control hollow, an instrument as a diamond.
KINDS: Final = ("player", "control", "instrument")
_STYLE: Final = {"player": ("o", "#1f5fa8", "full"), "control": ("o", "#6b6b6b", "none"),
                 "instrument": ("D", "#b5651d", "full")}


class TargetPlotError(ValueError):
    """A spec that cannot be drawn: the message names the file and the place in it."""


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    seed: int
    estimate: float
    low: float
    high: float
    kind: str
    doc: str

    def figures(self, decimals: int, signed: bool) -> str:
        """The row's figures as the docs write them: ``2.430 [2.267, 2.592]`` or, signed,
        ``+16.08 [+12.26, +19.89]`` (a minus sign is the typographic one the docs use)."""
        def one(x: float) -> str:
            text = f"{x:+.{decimals}f}" if signed else f"{x:.{decimals}f}"
            return text.replace("-", "−")
        return f"{one(self.estimate)} [{one(self.low)}, {one(self.high)}]"


@dataclass(frozen=True, slots=True)
class PlotSpec:
    title: str
    xlabel: str
    target: float
    better: str
    decimals: int
    signed: bool
    rows: tuple[Row, ...]


def _field(where: str, obj: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise TargetPlotError(f"{where}: '{key}' is missing")
    value = obj[key]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise TargetPlotError(f"{where}: '{key}' must be {getattr(kind, '__name__', 'a number')}, "
                              f"got {value!r}")
    return value


def load_spec(path: Path) -> PlotSpec:
    """The spec at ``path``, checked; every fault is a :class:`TargetPlotError` naming the file
    and the place (``rows[3]: 'low' …``)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TargetPlotError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise TargetPlotError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(raw, dict):
        raise TargetPlotError(f"{path}: the spec must be a JSON object")
    num = (int, float)
    where = str(path)
    better = _field(where, raw, "better", str)
    if better not in ("lower", "higher"):
        raise TargetPlotError(f"{where}: 'better' must be lower or higher, got {better!r}")
    decimals = _field(where, raw, "decimals", int)
    if not 0 <= decimals <= 6:
        raise TargetPlotError(f"{where}: 'decimals' must be 0 to 6, got {decimals}")
    rows_raw = _field(where, raw, "rows", list)
    if not rows_raw:
        raise TargetPlotError(f"{where}: 'rows' is empty: nothing to draw")
    rows = []
    for i, r in enumerate(rows_raw):
        at = f"{path}: rows[{i}]"
        if not isinstance(r, dict):
            raise TargetPlotError(f"{at}: a row must be a JSON object")
        row = Row(_field(at, r, "label", str), _field(at, r, "seed", int),
                  float(_field(at, r, "estimate", num)), float(_field(at, r, "low", num)),
                  float(_field(at, r, "high", num)), _field(at, r, "kind", str),
                  _field(at, r, "doc", str))
        if not row.low <= row.estimate <= row.high:
            raise TargetPlotError(f"{at}: the interval [{row.low}, {row.high}] must hold the "
                                  f"estimate {row.estimate}")
        if row.kind not in KINDS:
            raise TargetPlotError(f"{at}: 'kind' must be one of {', '.join(KINDS)}, "
                                  f"got {row.kind!r}")
        rows.append(row)
    return PlotSpec(_field(where, raw, "title", str), _field(where, raw, "xlabel", str),
                    float(_field(where, raw, "target", num)), better, decimals,
                    _field(where, raw, "signed", bool), tuple(rows))


def draw(spec: PlotSpec, out: Path) -> None:
    """One row per run, top to bottom in the spec's order, the target as a dashed line and the
    side that meets it shaded; written atomically (:func:`tenpai.plots.save_png`)."""
    from tenpai.plots import pyplot, save_png

    plt = pyplot()
    n = len(spec.rows)
    fig, ax = plt.subplots(figsize=(8.0, 0.9 + 0.36 * n))
    ys = list(range(n))[::-1]
    for y, row in zip(ys, spec.rows):
        marker, colour, fill = _STYLE[row.kind]
        ax.errorbar([row.estimate], [y], xerr=[[row.estimate - row.low], [row.high - row.estimate]],
                    fmt=marker, color=colour, fillstyle=fill, capsize=3, markersize=5, lw=1.2)
    lo = min(min(r.low for r in spec.rows), spec.target)
    hi = max(max(r.high for r in spec.rows), spec.target)
    pad = 0.06 * (hi - lo or 1.0)
    ax.set_xlim(lo - pad, hi + pad)
    edge = lo - pad if spec.better == "lower" else hi + pad
    ax.axvspan(min(edge, spec.target), max(edge, spec.target), color="#2e8b57", alpha=0.08)
    ax.axvline(spec.target, color="#2e8b57", ls="--", lw=1.2)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r.label} ({r.seed})" for r in spec.rows], fontsize=8)
    ax.set_ylim(-0.7, n - 0.1)
    ax.set_xlabel(spec.xlabel, fontsize=9)
    ax.set_title(spec.title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    handles = [plt.Line2D([], [], color="#2e8b57", ls="--", label=f"target {spec.target:g}")]
    handles += [plt.Line2D([], [], marker=_STYLE[k][0], color=_STYLE[k][1],
                           fillstyle=_STYLE[k][2], ls="", label=label)
                for k, label in (("player", "player"),
                                 ("control", "control (same deals or walls)"),
                                 ("instrument", "instrument (sees hidden tiles)"))
                if any(r.kind == k for r in spec.rows)]
    # below the axis, where it never hides a row
    fig.legend(handles=handles, fontsize=7, loc="lower center", ncol=len(handles),
               frameon=False)
    fig.tight_layout(rect=(0, 0.045 * 12 / (12 + n), 1, 1))
    save_png(fig, out)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tenpai.bench.target_plot",
        description="Draw every registered run's estimate and 95 %% interval against an issue's "
                    "target, from a spec kept with the docs (docs/data/*.json).")
    parser.add_argument("spec", type=Path, help="the plot's JSON spec (rows, target, labels)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    args = parser.parse_args(argv)
    try:
        draw(load_spec(args.spec), args.out)
    except (TargetPlotError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

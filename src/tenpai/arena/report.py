"""A run's report: ``report.md`` with the tables and PNG plots beside it.

matplotlib is imported (through :mod:`tenpai.plots`) only when a report is asked for (extras
``plot`` and ``dev``), so the arena itself needs nothing beyond the core dependencies.  Files
are written to temporary names and renamed, so a failed report never leaves a half-written
file.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from tenpai.arena.stats import (
    MIN_INTERVAL_DEALS,
    TOO_FEW,
    Estimate,
    PairedTest,
    interval_shown,
)
from tenpai.arena.summary import Summary
from tenpai.atomic import write_text_atomic
from tenpai.plots import PlotError, pyplot, save_png

__all__ = ["ReportError", "check_report_target", "write_report"]


class ReportError(PlotError):
    """The report cannot be written (matplotlib missing, or the folder is not writable)."""


def _err(e: Estimate) -> tuple[float, float]:
    if math.isnan(e.low):
        return (0.0, 0.0)
    return (e.mean - e.low, e.high - e.mean)


def _plot_ranks(plt: Any, summary: Summary, path: Path) -> None:
    agents = summary.agents
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(len(agents), 1)
    for i, a in enumerate(agents):
        xs = [r + (i - (len(agents) - 1) / 2) * width for r in range(4)]
        means = [e.mean for e in a.rank_rates]
        errs = list(zip(*(_err(e) for e in a.rank_rates)))
        ax.bar(xs, means, width, yerr=errs, capsize=3, label=a.agent)
    ax.axhline(0.25, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(4), ["1st", "2nd", "3rd", "4th"])
    ax.set_ylabel("share of games (95% CI, clustered by deal)")
    ax.set_title(f"Rank distribution, {summary.games} games")
    ax.legend()
    save_png(fig, path)


def _plot_avg_rank(plt: Any, summary: Summary, path: Path) -> None:
    agents = summary.agents
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(agents) + 1.5))
    ys = range(len(agents))
    means = [a.avg_rank.mean for a in agents]
    errs = list(zip(*(_err(a.avg_rank) for a in agents)))
    ax.errorbar(means, ys, xerr=errs, fmt="o", capsize=4)
    ax.axvline(2.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(list(ys), [a.agent for a in agents])
    ax.invert_yaxis()
    ax.set_xlabel("average rank (lower is better; 95% CI clustered by deal)")
    ax.set_title("Average rank")
    save_png(fig, path)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _ci(e: Estimate, fmt: str, pct: bool = False) -> str:
    scale = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    m = format(e.mean * scale, fmt) + unit
    if not interval_shown(e.low, e.high, e.clusters):
        return m
    return f"{m} [{format(e.low * scale, fmt)}, {format(e.high * scale, fmt)}]"


def _score_diff(p: PairedTest) -> str:
    if p.score_diff is None or p.score_low is None or p.score_high is None:
        return "n/a"
    return f"{p.score_diff:+,.2f} [{p.score_low:+,.2f}, {p.score_high:+,.2f}]"


def _dan(v: float) -> str:
    if math.isinf(v):
        return "∞"
    return "n/a" if math.isnan(v) else f"{v:.2f}"


def _forfeit_lines(summary: Summary) -> list[str]:
    """A run with ``--seat-errors forfeit``: the setting and the games each Botzone seat's
    error ended (their scores are Botzone's −30 / +10, in the tables below)."""
    if summary.config.get("seat_errors") != "forfeit":
        return []
    ended = ", ".join(f"`{agent}` {info.get('forfeits', 0)}"
                      for agent, info in summary.protocol_dict().items())
    return ["A Botzone seat's first protocol error ends its game as on Botzone "
            "(`--seat-errors forfeit`: the offender −30, each other seat +10); games ended so: "
            f"{ended or 'none'}.", ""]


def _markdown(summary: Summary) -> str:
    c = summary.config
    lines = [
        "# Arena report",
        "",
        f"Rules `{c.get('rules')}` with options `{c.get('options')}`; lineup "
        f"`{','.join(c.get('agents', []))}`; seed {c.get('seed')}; "
        f"{summary.games} of {c.get('games')} games stored, in {summary.deals} deal sets "
        "(each deal played in 4 seat rotations).",
        "",
        *_forfeit_lines(summary),
        "Intervals are 95 % Student-t intervals clustered by deal: the four rotations of one deal",
        "share the walls and are not independent.  Rates are per hand played.",
        "",
        *([f"With {summary.deals} deal sets there are {TOO_FEW}: fewer than "
           f"{MIN_INTERVAL_DEALS} deals give intervals wider than the possible range or of zero "
           "width, so only the means are shown.", ""]
          if summary.deals < MIN_INTERVAL_DEALS else []),
        "![average rank](avg_rank.png)",
        "",
        "![rank distribution](rank_distribution.png)",
        "",
        "## Per agent",
        "",
        _row(["agent", "games", "avg rank", "1st", "2nd", "3rd", "4th", "avg points"]),
        _row(["---"] + ["---:"] * 7),
    ]
    for a in summary.agents:
        lines.append(
            _row(
                [a.agent, str(a.games), _ci(a.avg_rank, ".3f")]
                + [_ci(e, ".1f", pct=True) for e in a.rank_rates]
                + [_ci(a.avg_score, ",.0f")]
            )
        )
    lines += [
        "",
        _row(["agent", "hands", "win", "deal-in", "riichi", "call"]),
        _row(["---"] + ["---:"] * 5),
    ]
    for a in summary.agents:
        lines.append(
            _row(
                [a.agent, str(a.hands)]
                + [
                    _ci(e, ".1f", pct=True)
                    for e in (a.win_rate, a.deal_in_rate, a.riichi_rate, a.call_rate)
                ]
            )
        )
    lines += [
        "",
        "## Stable rank",
        "",
        "*Pooled*: Tenhou's stable dan (5·n1 + 2·n2)/n4 − 2 from all games (n_k = games",
        "finished k-th); the phoenix-lobby weights (6·n1 + 3·n2)/n4 − 2 for comparison.",
        "*Blocked*: the same 5:2 formula per block of games, averaged over whole blocks, the way",
        "seed 000's paper measures strength (ten experiments of 100 games, its section 4.3);",
        "median and quartiles as in its Figure 8.",
        "",
        _row(["agent", "pooled 5:2", "pooled 6:3", "blocks", "blocked mean", "median", "25–75 %"]),
        _row(["---"] + ["---:"] * 6),
    ]
    for a in summary.agents:
        b = a.stable_dan_blocks
        blocks = f"{len(b.values)} × {b.block_size}" + (
            f" (+{b.skipped} without a 4th)" if b.skipped else ""
        )
        lines.append(
            _row(
                [
                    a.agent,
                    _dan(a.stable_dan),
                    _dan(a.stable_dan_houou),
                    blocks,
                    _dan(b.mean),
                    _dan(b.median),
                    f"{_dan(b.q25)} – {_dan(b.q75)}",
                ]
            )
        )
    if summary.pairs:
        lines += [
            "",
            "## Paired comparisons",
            "",
            "Mean rank of A minus mean rank of B per deal (negative: A ranks better), over the",
            'deals both played; one-sided p for "A ranks better" (Student t, and the normal',
            "approximation of the standard error of the mean), two-sided p for any difference;",
            "score diff: A's mean final score per game minus B's, deal by deal (positive: A",
            "scores more), the measure of a contest that ranks by score.",
            "",
            _row(
                [
                    "A",
                    "B",
                    "deals",
                    "mean diff [95% CI]",
                    "t",
                    "p (A better)",
                    "p normal",
                    "p two-sided",
                    "score diff [95% CI]",
                ]
            ),
            _row(["---", "---"] + ["---:"] * 7),
        ]
        for p in summary.pairs:
            if p.deals < 2:
                continue
            lines.append(
                _row(
                    [
                        p.a,
                        p.b,
                        str(p.deals),
                        f"{p.mean_diff:+.3f} [{p.low:+.3f}, {p.high:+.3f}]"
                        if interval_shown(p.low, p.high, p.deals)
                        else f"{p.mean_diff:+.3f} ({TOO_FEW})",
                        f"{p.t:.2f}",
                        f"{p.p_a_better:.3g}",
                        f"{p.p_a_better_normal:.3g}",
                        f"{p.p_two_sided:.3g}",
                        _score_diff(p),
                    ]
                )
            )
    lines += _under_riichi_lines(summary)
    lines += _highlight_lines(summary)
    return "\n".join(lines) + "\n"


def _under_riichi_lines(summary: Summary) -> list[str]:
    """Each agent's discards under another seat's riichi: how often it broke its hand to
    fold, and how often it dealt in (docs/arena.md, "Play under riichi")."""
    rows = [u for u in summary.under_riichi if u.threatened]
    if not rows:
        return []
    lines = ["", "## Play under riichi", "",
             "Discards made while another seat had declared riichi (and the discarder had not);",
             "a break leaves the closed hand further from winning, the visible part of folding.",
             "", _row(["agent", "discards", "under riichi", "breaks", "deal-ins"]),
             _row(["---"] + ["---:"] * 4)]
    for u in rows:
        lines.append(_row([u.agent, f"{u.discards:,}", f"{u.threatened:,}",
                           f"{u.breaks / u.threatened:.1%}",
                           f"{u.deal_ins / u.threatened:.2%}"]))
    return lines


def _highlight_lines(summary: Summary) -> list[str]:
    """The biggest wins and worst deal-ins, each hand with its ``tenpai view`` command."""
    h = summary.highlights
    if h is None or not (h.biggest_wins or h.worst_deal_ins):
        return []
    lines = ["", "## Biggest wins and worst deal-ins", ""]
    # a table cell ends at "|": the pipe in each view command is written as "\|" (GFM)
    if summary.records is None:
        lines += ["Run the arena command again with `--save-records DIR` to write the games and",
                  "get a `tenpai view` command for each hand.", ""]
    else:
        lines += [f"Records in `{summary.records[0]}` ({summary.records[1]}); each command",
                  "prints the hand's tenhou.net/6 viewer link.", ""]
    for title, rows, other in (("Biggest wins", h.biggest_wins, "from"),
                               ("Worst deal-ins", h.worst_deal_ins, "to")):
        if not rows:
            continue
        lines += [f"{title}:", "",
                  _row(["agent", "points", "round", "game (deal/rotation)", "han/fu", other,
                        "view"]),
                  _row(["---", "---:", "---", "---", "---", "---", "---"])]
        for x in rows:
            view = summary.view(x)
            hanfu = "" if x.han is None else f"{x.han}/{x.fu}" if x.fu else str(x.han)
            lines.append(_row([x.agent, f"{x.points:,}", x.label,
                               f"{x.key.deal}/{x.key.rotation}", hanfu,
                               (x.other or "(self-draw)") if other == "from" else (x.other or ""),
                               f"`{view}`".replace("|", "\\|") if view else ""]))
        lines.append("")
    return lines


def check_report_target(out: Path) -> None:
    """Refuse, before any game is played, a report folder the report could not be written to
    afterwards (a file in the way, no permission, no matplotlib): finding out only after
    every game was played wastes the run's time.  Creates the folder."""
    if out.exists() and not out.is_dir():
        raise ReportError(f"--report {out} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create report folder {out}: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK):
        raise ReportError(f"cannot write into report folder {out}")
    try:
        pyplot()
    except PlotError as exc:
        raise ReportError(str(exc)) from None


def write_report(summary: Summary, out: Path) -> Path:
    """Write ``report.md``, ``avg_rank.png`` and ``rank_distribution.png`` into ``out``."""
    if not summary.agents:
        raise ReportError("the run has no stored games yet")
    try:
        plt = pyplot()
        out.mkdir(parents=True, exist_ok=True)
        _plot_avg_rank(plt, summary, out / "avg_rank.png")
        _plot_ranks(plt, summary, out / "rank_distribution.png")
    except OSError as exc:
        raise ReportError(f"cannot create report folder {out}: {exc}") from None
    except PlotError as exc:
        raise ReportError(str(exc)) from None
    index = out / "report.md"
    write_text_atomic(index, _markdown(summary))
    return index

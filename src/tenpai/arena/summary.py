"""A run's results as a dictionary (for ``--json``) and as a rich table (for people)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from tenpai.arena.highlights import Highlight, Highlights, find_highlights, view_command
from tenpai.arena.record import FORFEIT_ROW
from tenpai.arena.saved import record_path
from tenpai.arena.stats import (
    MIN_INTERVAL_DEALS,
    TOO_FEW,
    AgentStats,
    PairedTest,
    agent_stats,
    interval_shown,
    paired_test,
)
from tenpai.arena.store import ResultsStore, SeatRow
from tenpai.arena.under_riichi import UnderRiichi

__all__ = ["Summary", "render_summary", "summarize_store"]


class Summary:
    """Per-agent statistics and the paired tests between every two distinct agents."""

    def __init__(
        self,
        config: dict[str, Any],
        rows: Sequence[SeatRow],
        block_size: int = 100,
        protocol: dict[str, dict[str, int]] | None = None,
        highlights: Highlights | None = None,
    ):
        self.config = config
        #: External seats: agent -> {"decisions": n, error kind: n, ...}.
        self.protocol = protocol or {}
        #: The biggest wins and worst deal-ins (hands of stored games).
        self.highlights = highlights
        #: Where the run's records were saved (folder, format), for ``tenpai view`` commands.
        self.records: tuple[Path, str] | None = None
        #: Play under another seat's riichi, per agent (asked for: it replays every game).
        self.under_riichi: list[UnderRiichi] = []
        #: Stored games without events, left out of ``under_riichi``.
        self.under_riichi_skipped = 0
        self.games = len({(r.deal, r.rotation) for r in rows})
        self.deals = len({r.deal for r in rows})
        self.agents: list[AgentStats] = agent_stats(rows, block_size)
        names = [a.agent for a in self.agents]
        self.pairs: list[PairedTest] = [
            paired_test(rows, a, b) for a, b in itertools.combinations(names, 2)
        ]

    def as_dict(self) -> dict[str, Any]:
        return {
            "config": self.config,
            "games": self.games,
            "deals": self.deals,
            "agents": [a.as_dict() for a in self.agents],
            "paired_tests": [p.as_dict() for p in self.pairs],
            **({"protocol": self.protocol_dict()} if self.protocol else {}),
            **({"highlights": self.highlights_dict()} if self.highlights else {}),
            **({"under_riichi": [u.as_dict() for u in self.under_riichi],
                "under_riichi_skipped_games": self.under_riichi_skipped}
               if self.under_riichi else {}),
        }

    def view(self, h: Highlight) -> str | None:
        """The ``tenpai view`` command of a highlighted hand, when Riichi records were saved
        (the viewer shows Riichi games only)."""
        if self.records is None or self.config.get("rules") != "riichi":
            return None
        folder, fmt = self.records
        return view_command(h, record_path(folder, h.key, fmt))

    def highlights_dict(self) -> dict[str, Any]:
        h = self.highlights
        if h is None:
            return {}
        return {
            "biggest_wins": [x.as_dict(self.view(x)) for x in h.biggest_wins],
            "worst_deal_ins": [x.as_dict(self.view(x)) for x in h.worst_deal_ins],
        }

    def protocol_dict(self) -> dict[str, Any]:
        """Per external agent: decisions asked, errors by kind and their total, and (in a run
        with ``--seat-errors forfeit``) the games its error ended, ``forfeits``."""
        out: dict[str, Any] = {}
        for agent, counts in self.protocol.items():
            errors = {k: n for k, n in counts.items() if k not in ("decisions", FORFEIT_ROW)}
            out[agent] = {
                "decisions": counts.get("decisions", 0),
                "errors": errors,
                "error_total": sum(errors.values()),
            }
            if FORFEIT_ROW in counts:
                out[agent]["forfeits"] = counts[FORFEIT_ROW]
        return out


def summarize_store(store: ResultsStore, block_size: int = 100) -> Summary:
    import json

    cfg = store.config()
    store.check_columns()
    config = json.loads(cfg.to_json()) if cfg is not None else {}
    return Summary(config, store.seat_rows(), block_size, store.protocol_counts(),
                   find_highlights(store))


def _ci(e: Any, fmt: str) -> str:
    """``mean ± half-width`` (the t interval is symmetric); the mean alone when there are too
    few deals for a meaningful interval (the footnote says so)."""
    if not interval_shown(e.low, e.high, e.clusters):
        return format(e.mean, fmt)
    return f"{format(e.mean, fmt)}±{format((e.high - e.low) / 2, fmt)}"


def _points(mean: float) -> str:
    """Riichi scores read well in thousands; MCR's small base-8 totals do not."""
    return f"{mean / 1000:.1f}k" if abs(mean) >= 1000 else f"{mean:+.1f}"


def _dan(v: float) -> str:
    # The formula divides by the number of fourth places: none yet means "not measurable".
    return "n/a" if v == float("inf") else f"{v:.2f}"


def render_summary(summary: Summary, console: Console, title: str = "") -> None:
    """Print the per-agent table and the paired tests."""
    table = Table(
        title=title or f"{summary.games} games in {summary.deals} deal sets",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for col in (
        "agent",
        "games",
        "rank",
        "1/2/3/4",
        "points",
        "win",
        "deal-in",
        "riichi",
        "call",
        "dan",
    ):
        table.add_column(col, justify="left" if col == "agent" else "right", no_wrap=True)
    mcr = summary.config.get("rules") == "mcr"
    for a in summary.agents:
        table.add_row(
            a.agent,
            str(a.games),
            _ci(a.avg_rank, ".2f"),
            "/".join(str(n) for n in a.rank_counts),
            _ci(a.avg_score, "+.1f") if mcr else _points(a.avg_score.mean),
            f"{a.win_rate.mean:.1%}",
            f"{a.deal_in_rate.mean:.1%}",
            f"{a.riichi_rate.mean:.1%}",
            f"{a.call_rate.mean:.1%}",
            _dan(a.stable_dan),
        )
    console.print(table)
    console.print(
        "rank: average rank ± 95% interval clustered by deal (Student t); points: average final "
        + ("score per game ± 95% interval (the contest's measure)" if mcr else "score")
        + "; win, deal-in, riichi and call rates are per hand; dan: Tenhou's stable dan "
        "(5·n1 + 2·n2)/n4 − 2 over all games."
    )
    for agent, info in summary.protocol_dict().items():
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(info["errors"].items()))
        console.print(
            f"{agent}: {info['decisions']} decisions, {info['error_total']} protocol errors"
            + (f" ({kinds})" if kinds else "")
            + (f"; {info['forfeits']} games ended by its error (forfeit: it -30, each other "
               "seat +10)" if "forfeits" in info else ""),
            soft_wrap=True,
            markup=False,
        )
    for u in summary.under_riichi:
        if u.threatened:
            console.print(
                f"{u.agent} under another's riichi: {u.threatened:,} discards, "
                f"{u.breaks / u.threatened:.1%} break the hand (folding), "
                f"{u.deal_ins / u.threatened:.2%} dealt in", soft_wrap=True, markup=False,
            )
    if summary.under_riichi_skipped:
        console.print(f"(under riichi: {summary.under_riichi_skipped} games stored without "
                      "their events are not counted)")
    if any(not interval_shown(a.avg_rank.low, a.avg_rank.high, a.avg_rank.clusters)
           for a in summary.agents):
        console.print(f"rank: {TOO_FEW} (fewer than {MIN_INTERVAL_DEALS} deals, or they all "
                      "agree); the mean alone is shown.")
    for p in summary.pairs:
        if p.deals < 2:
            continue
        if not interval_shown(p.low, p.high, p.deals):
            console.print(f"{p.a} − {p.b}: mean rank difference {p.mean_diff:+.3f} over "
                          f"{p.deals} deals; {TOO_FEW} or a p-value")
            continue
        console.print(
            f"{p.a} − {p.b}: mean rank difference {p.mean_diff:+.3f} "
            f"[{p.low:+.3f}, {p.high:+.3f}] over {p.deals} deals; "
            f"one-sided p ({p.a} better) = {p.p_a_better:.2g}, two-sided p = "
            f"{p.p_two_sided:.2g}"
            + (f"; {p.a}'s pair win rate (share of deals where {p.a}'s pair scored more "
               f"than {p.b}'s) {p.pair_win_rate:.3f} "
               f"[{p.pair_win_low:.3f}, {p.pair_win_high:.3f}]"
               if p.pair_win_rate is not None else "")
            + (f"; score per game difference {p.score_diff:+.2f} "
               f"[{p.score_low:+.2f}, {p.score_high:+.2f}]"
               if mcr and p.score_diff is not None and p.score_low is not None
               and p.score_high is not None else "")
        )
    _render_highlights(summary, console)


def _render_highlights(summary: Summary, console: Console, n: int = 3) -> None:
    """The top few wins and deal-ins, each with its ``tenpai view`` command when records were
    saved."""
    h = summary.highlights
    if h is None:
        return
    for title, rows, verb in (("biggest wins", h.biggest_wins, "won"),
                              ("worst deal-ins", h.worst_deal_ins, "lost")):
        if not rows:
            continue
        console.print(f"{title}:")
        for x in rows[:n]:
            console.print(f"  {x.agent} {verb} {x.points:,} in {x.label} of game "
                          f"{x.key.deal}/{x.key.rotation}", markup=False, soft_wrap=True)
            view = summary.view(x)
            if view is not None:
                console.print(f"    {view}", markup=False, soft_wrap=True)

"""The command-line frame shared by the bench tools that read one arena results file and print a
report (``mcr_race_survival``, ``mcr_score_breakdown``).

Both take the file and ``--seat-agent`` the same way and answer bad input the same way: the
tool's own error (a file that is missing or not one-hand games, an agent with no seat) becomes
one line ``<tool>: <message>`` on stderr and exit status 2, with nothing printed on stdout, so
a report is either whole or absent.  Kept here once so the two cannot drift apart.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

__all__ = ["print_report", "run_report_parser"]


def run_report_parser(doc: str | None, seat_agent_help: str) -> argparse.ArgumentParser:
    """A parser with the results file ``db`` and ``--seat-agent`` (default ``planner``), described
    by the first line of the tool's docstring ``doc``; the tool adds its own options."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    ap.add_argument("db", help="results file of tenpai arena --rules mcr --preset botzone")
    ap.add_argument("--seat-agent", default="planner", help=seat_agent_help)
    return ap


def print_report(tool: str, error: type[Exception], make_lines: Callable[[], list[str]]) -> None:
    """Print the lines ``make_lines`` builds, or, if it raises ``error``, one line
    ``<tool>: <message>`` on stderr and exit 2 (nothing on stdout)."""
    try:
        lines = make_lines()
    except error as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print("\n".join(lines))

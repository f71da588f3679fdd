"""The command-line frame shared by the bench tools that read arena results files and print a
report (``mcr_race_survival``, ``mcr_score_breakdown``, ``riichi_point_flow``).

They take the file(s) and ``--seat-agent`` the same way and answer bad input the same way: the
tool's own error (a file that is missing or not of the kind it reads, an agent with no seat)
becomes one line ``<tool>: <message>`` on stderr and exit status 2, with nothing printed on
stdout, so a report is either whole or absent.  The tools that pair a run with a base run
refuse two runs of other walls the same way (:func:`refuse_other_walls`).  Kept here once so
the tools cannot drift apart.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable

from tenpai.arena.store import open_read_only

__all__ = ["print_report", "refuse_other_walls", "run_report_parser"]


def run_report_parser(doc: str | None, seat_agent_help: str, *,
                      results: str = "results file of tenpai arena --rules mcr --preset botzone",
                      default_agent: str = "planner",
                      several: bool = False) -> argparse.ArgumentParser:
    """A parser with the results file ``db`` (a list of one or more with ``several``) and
    ``--seat-agent`` (default ``default_agent``), described by the first line of the tool's
    docstring ``doc``; the tool adds its own options."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    ap.add_argument("db", nargs="+" if several else None, help=results)
    ap.add_argument("--seat-agent", default=default_agent, help=seat_agent_help)
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


def refuse_other_walls(path: str, base: str, error: Callable[[str], Exception]) -> None:
    """Raise ``error`` if a game both results files hold was dealt from different walls in
    them (another seed): pairing such runs game by game would compare different deals.  Read
    through read-only connections."""
    walls = []
    for p in (path, base):
        try:
            con = open_read_only(p)
            try:
                walls.append({(d, r): w for d, r, w in con.execute(
                    "SELECT deal, rotation, wall_seed FROM games")})
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise error(f"{p}: not a results file of tenpai arena ({exc})") from None
    for key in sorted(set(walls[0]) & set(walls[1])):
        if walls[0][key] != walls[1][key]:
            raise error(f"{path} and {base} deal game (deal {key[0]}, rotation {key[1]}) "
                        "from different walls: not the same seed")

"""``tenpai bench all``: every benchmark against its peer library in one go, ratios in one table.

Each benchmark times ours and the peer in the same process on the same inputs, so the ratios
are the figures to compare across machines; absolute rates move with the load of a shared
machine, which is printed with them.  Each runs as its own ``tenpai bench …`` process (one
benchmark's imports and caches never help the next).  ``quick`` uses smaller inputs (a smoke
run, not figures to quote).

The output ends with one table of the ratios the issues track (ours / peer; above 1 = faster
than the peer) and the whole-process times, then the JSON of everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["RATIOS", "Tracked", "ratio_table", "run_suite", "suite_commands"]


class Tracked(NamedTuple):
    """One row of the table: where its value is in a bench's JSON, and its goal.

    ``spread`` names the range of the value over the bench's interleaved rounds: a key whose
    value is a list ending in (low, high), or two keys (low, high); None when the bench gives
    none."""

    label: str
    bench: str
    key: str
    goal: float | None
    spread: str | tuple[str, str] | None = None


#: The rows issues 18, 20 and 37 track: peer ratios (ours / peer, above 1 = faster than the
#: peer) with issue 37's targets as goals, and the rollout rates (complete hands per CPU
#: second, absolute), Riichi and MCR.  The three-player engine row has no goal: riichienv's
#: three-player mode does not play tenhou_sanma's rules, so it compares the same work, not the
#: same games.
RATIOS: list[Tracked] = [
    Tracked("engine hanchan / riichienv", "engine", "ratio", 2.0, "ratio_range"),
    Tracked("engine hanchan, three players / riichienv", "engine-3p", "ratio", None,
            "ratio_range"),
    Tracked("engine hanchan, Python round / riichienv", "engine", "python_ratio", None),
    Tracked("Riichi scoring / riichienv", "scoring", "ratio_vs_riichienv", 1.0,
            "ratio_vs_riichienv_per_pass"),
    Tracked("Riichi scoring / mahjong", "scoring", "ratio_vs_mahjong", None,
            "ratio_vs_mahjong_per_pass"),
    Tracked("MCR fans (evaluate, compiled if built), cold / PyMahjongGB", "fan", "ratio", 1.0,
            ("ratio_min", "ratio_max")),
    Tracked("MCR fans, Python specification, cold / PyMahjongGB", "fan", "ratio_python_cold",
            None, ("ratio_python_cold_min", "ratio_python_cold_max")),
    Tracked("MCR fans, Python specification, warm / PyMahjongGB", "fan", "ratio_python_warm",
            None, ("ratio_python_warm_min", "ratio_python_warm_max")),
    Tracked("Riichi shanten / riichienv", "hand", "shanten_ratio_vs_riichienv", 1.0,
            "shanten_ratio_vs_riichienv_range"),
    Tracked("MCR shanten / PyMahjongGB", "hand", "mcr_shanten_ratio_vs_pymahjonggb", 1.0),
    Tracked("standard shanten + useful tiles / PyMahjongGB", "hand",
            "standard_useful_ratio_vs_pymahjonggb", None),
    Tracked("is_complete (50 % complete) / mahjong", "hand", "is_complete_ratio_vs_mahjong",
            None),
    # issue 37 step 2: absolute rates (complete hands per CPU second), not peer ratios
    Tracked("rollout c:greedy, hands per CPU second", "rollout", "c:greedy hands/cpu_s median",
            20_000.0, ("c:greedy hands/cpu_s min", "c:greedy hands/cpu_s max")),
    Tracked("rollout c:efficiency, hands per CPU second", "rollout",
            "c:efficiency hands/cpu_s median", 2_000.0,
            ("c:efficiency hands/cpu_s min", "c:efficiency hands/cpu_s max")),
    Tracked("rollout c:greedy / the Python engine", "rollout", "greedy speed-up", None),
    Tracked("rollout c:fast (chi and pon), hands per CPU second", "rollout",
            "c:fast hands/cpu_s median", None,
            ("c:fast hands/cpu_s min", "c:fast hands/cpu_s max")),
    Tracked("rollout c:fast / the Python engine", "rollout", "fast speed-up", None),
    # issue 43's compiled MCR playouts (botzone): no goal was set; the ratio is per pass on
    # the worlds both sides play
    Tracked("MCR rollout c:greedy, hands per CPU second", "rollout-mcr",
            "c:greedy hands/cpu_s median", None,
            ("c:greedy hands/cpu_s min", "c:greedy hands/cpu_s max")),
    Tracked("MCR rollout c:greedy / the Python engine", "rollout-mcr", "greedy speed-up", None,
            ("greedy speed-up min", "greedy speed-up max")),
]


def suite_commands(quick: bool, python: str = sys.executable) -> dict[str, list[str]]:
    """The ``tenpai bench`` commands of the suite by name, through ``python`` (so an
    unactivated virtual environment works too)."""
    bench = [python, "-m", "tenpai", "bench"]
    return {
        "hand": [*bench, "hand", "--json", "--hands", "4000" if quick else "20000",
                 "--shanten-hands", "20000" if quick else "100000",
                 "--rounds", "5" if quick else "9"],
        "fan": [*bench, "fan", "--json", "--hands", "1000" if quick else "5000"],
        "scoring": [*bench, "scoring", "--json", "--hands", "2000" if quick else "30000",
                    "--slow-hands", "500" if quick else "6000"],
        # 60 hanchan: 15 blocks of 4, long enough that a loaded machine's block ratios do not
        # straddle the 2.0x goal as 20 did (5 blocks, 1.37-2.16 in one run)
        "engine": [*bench, "engine", "--json", "--games", "3" if quick else "60"],
        "engine-3p": [*bench, "engine", "--json", "--players", "3",
                      "--games", "3" if quick else "20"],
        "rollout": [*bench, "rollout", "--json", "--worlds", "40" if quick else "200",
                    "--playouts", "2" if quick else "10", "--python-worlds", "2" if quick else "10",
                    "--repeat", "2" if quick else "9"],
        "rollout-mcr": [*bench, "rollout", "--rules", "mcr", "--json",
                        "--worlds", "40" if quick else "200",
                        "--playouts", "2" if quick else "10",
                        "--python-worlds", "2" if quick else "40",
                        "--repeat", "2" if quick else "9"],
        "agent": [*bench, "agent", "--json", "--games", "1" if quick else "2"],
        "process": [*bench, "process", "--json", "--games", "1,10" if quick else "1,10,100",
                    "--arena-games", "8" if quick else "16"],
    }


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _spread(result: dict[str, Any], spread: str | tuple[str, str] | None
            ) -> tuple[float, float] | None:
    """The (low, high) of a row's value over its bench's rounds, if the bench gave one."""
    try:
        if isinstance(spread, str):
            low, high = result[spread][-2:]
        elif spread is not None:
            low, high = result[spread[0]], result[spread[1]]
        else:
            return None
        return float(low), float(high)
    except (KeyError, TypeError, ValueError):
        return None


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3f}"


def ratio_table(results: dict[str, Any]) -> str:
    """The tracked rows against their goals (median, and its range over the bench's rounds),
    then the whole-process seconds and speed-ups."""
    width = max(len(row.label) for row in RATIOS)
    head = "ratio (ours / peer), or rate"
    lines = [f"{head:{width}} {'median':>8} {'range':>17} {'goal':>7}  met"]
    for row in RATIOS:
        result = results.get(row.bench, {})
        value = result.get(row.key)
        shown = "-" if value is None else _number(value)
        spread = _spread(result, row.spread)
        span = "" if spread is None else f"{_number(spread[0])}-{_number(spread[1])}"
        goal = "" if row.goal is None else _number(row.goal)
        met = "" if row.goal is None or value is None else ("yes" if value >= row.goal else "NO")
        lines.append(f"{row.label:{width}} {shown:>8} {span:>17} {goal:>7}  {met}")
    process = results.get("process", {})
    for key in sorted(process):
        if key.endswith("_s") or key.endswith("_speedup"):
            lines.append(f"{key:{width}} {process[key]:>8}")
    return "\n".join(lines)


def run_suite(quick: bool = False, out: Path | None = None,
              echo: Callable[[str], None] = print) -> dict[str, Any]:
    """Run every benchmark of :func:`suite_commands` in turn and return their JSON summaries.

    A benchmark that fails (a peer library missing, say) is reported with its error and the
    others still run: one missing peer must not cost the whole run's figures."""
    results: dict[str, Any] = {"load_before": _load()}
    started = time.perf_counter()
    for name, cmd in suite_commands(quick).items():
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        echo(proc.stdout.rstrip("\n"))
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not lines:
            why = proc.stderr.strip()[-500:]
            print(f"bench {name} failed: {why}", file=sys.stderr)
            results[name] = {"error": why}
            continue
        results[name] = json.loads(lines[-1])
    results["load_after"] = _load()
    results["seconds"] = round(time.perf_counter() - started, 1)
    echo(f"\nload average before {results['load_before']}, after {results['load_after']} "
         f"({os.cpu_count()} CPUs)")
    echo(ratio_table(results))
    if out is not None:
        out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    echo(json.dumps(results))
    return results

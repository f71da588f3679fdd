"""Run every benchmark against its peer library in one go, print the peer ratios, save the JSON.

Usage: ``python bench/run_all.py [OUT.json] [--quick]``.  Each benchmark times ours and the
peer in the same process on the same inputs, so the ratios are the figures to compare across
machines; absolute rates move with the load of a shared machine, which is printed with them.
``--quick`` uses smaller inputs (a smoke run, not figures to quote).

The last lines are one table of the ratios the issues track (ours / peer; above 1 = faster
than the peer) and the whole-process times, then the JSON of everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# Run through the same interpreter, so an unactivated virtual environment works too.
TENPAI = [sys.executable, "-m", "tenpai", "bench"]


def _benches(quick: bool) -> dict[str, list[str]]:
    small = quick
    return {
        "hand": [*TENPAI, "hand", "--json", "--n", "4000" if small else "20000",
                 "--shanten-n", "20000" if small else "100000", "--rounds", "5" if small else "9"],
        "fan": [*TENPAI, "fan", "--json", "--n", "1000" if small else "5000"],
        "scoring": [*TENPAI, "scoring", "--json", "--n", "2000" if small else "30000",
                    "--n-slow", "500" if small else "6000"],
        "engine": [*TENPAI, "engine", "--json", "--games", "3" if small else "20"],
        "rollout": [*TENPAI, "rollout", "--json", "--worlds", "40" if small else "200",
                    "--seeds", "2" if small else "10", "--python-worlds", "2" if small else "10",
                    "--repeat", "2" if small else "5"],
        "agent": [*TENPAI, "agent", "--json", "--games", "1" if small else "2"],
        "process": [*TENPAI, "process", "--json", "--games", "1,10" if small else "1,10,100",
                    "--arena-games", "8" if small else "16"],
    }


#: (label, bench, key, goal): the ratios issues 18, 20 and 37 track (and the rollout rate).
RATIOS: list[tuple[str, str, str, float | None]] = [
    ("Riichi shanten / riichienv", "hand", "shanten_ratio_vs_riichienv", 1.0),
    ("MCR shanten / PyMahjongGB", "hand", "mcr_shanten_ratio_vs_pymahjonggb", 1.0),
    ("standard shanten + useful tiles / PyMahjongGB", "hand",
     "standard_useful_ratio_vs_pymahjonggb", None),
    ("is_complete (50 % complete) / mahjong", "hand", "is_complete_ratio_vs_mahjong", None),
    ("MCR fans (evaluate, compiled if built), cold / PyMahjongGB", "fan", "ratio", 1.0),
    ("MCR fans, Python specification, cold / PyMahjongGB", "fan", "ratio_python_cold", None),
    ("Riichi scoring / riichienv", "scoring", "ratio_vs_riichienv", 1.0),
    ("Riichi scoring / mahjong", "scoring", "ratio_vs_mahjong", None),
    ("engine hanchan / riichienv", "engine", "ratio", 1.0),
    # issue 37 step 2: absolute rates (complete hands per CPU second), not peer ratios
    ("rollout c:greedy, hands per CPU second", "rollout", "c:greedy hands/cpu_s median",
     20_000.0),
    ("rollout c:greedy / the Python engine", "rollout", "greedy speed-up", None),
]


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _table(results: dict[str, Any]) -> str:
    lines = [f"{'ratio (ours / peer)':48} {'value':>8} {'goal':>6}  met"]
    for label, bench, key, goal in RATIOS:
        value = results.get(bench, {}).get(key)
        shown = "-" if value is None else f"{value:.3f}"
        met = "" if goal is None or value is None else ("yes" if value >= goal else "NO")
        lines.append(f"{label:48} {shown:>8} {'' if goal is None else goal:>6}  {met}")
    process = results.get("process", {})
    for key in sorted(process):
        if key.endswith("_s") or key.endswith("_speedup"):
            lines.append(f"{key:48} {process[key]:>8}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    args = [a for a in argv if a != "--quick"]
    out = Path(args[0]) if args else None
    results: dict[str, Any] = {"load_before": _load()}
    started = time.perf_counter()
    for name, cmd in _benches(quick).items():
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        print(proc.stdout, end="")
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not lines:
            print(f"bench {name} failed: {proc.stderr.strip()[-500:]}", file=sys.stderr)
            results[name] = {"error": proc.stderr.strip()[-500:]}
            continue
        results[name] = json.loads(lines[-1])
    results["load_after"] = _load()
    results["seconds"] = round(time.perf_counter() - started, 1)
    print(f"\nload average before {results['load_before']}, after {results['load_after']} "
          f"({os.cpu_count()} CPUs)")
    print(_table(results))
    if out is not None:
        out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

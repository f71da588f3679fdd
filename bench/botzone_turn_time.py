"""Per-turn answer time of ``tenpai botzone-bot`` on a real Botzone match, both run modes.

Per turn (Botzone's default): for ``--turns`` requests spread over one seat's requests of a
real match, the bot is started afresh with the whole history (simple interaction), as Botzone
runs it; wall and CPU seconds of each run (the CPU of the child process, from the OS).
Keep running: one process gets every request of the seat in turn; the time from writing a
request to reading its answer.

    PYTHONPATH=src python bench/botzone_turn_time.py --agent pg_mcr \
        --match ../shared/data/mcr/botzone_json/SuuTTT_IJCAI-mahjong/botzone_logs/X_lite.json

Prints one summary line per mode: mean, median and max seconds per turn.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _seat_log(path: Path, seat: int) -> tuple[list[str], list[str]]:
    d = json.loads(path.read_text(encoding="utf-8"))
    outs = [e["output"] for e in d["logs"] if "output" in e]
    answers = [e for e in d["logs"] if "output" not in e]
    reqs = [o["content"][str(seat)] for o in outs if o["command"] == "request"]
    resps = [a[str(seat)]["response"] for a in answers][: len(reqs)]
    return reqs, resps


def _cmd(agent: str, keep: bool) -> list[str]:
    out = [sys.executable, "-m", "tenpai", "botzone-bot", "--agent", agent]
    return out + (["--keep-running"] if keep else [])


def _stats(name: str, xs: list[float]) -> str:
    return (f"mean {statistics.mean(xs):.3f} s, median {statistics.median(xs):.3f} s, "
            f"max {max(xs):.3f} s over {len(xs)} turns ({name})")


def per_turn(agent: str, reqs: list[str], resps: list[str], turns: int) -> None:
    picks = sorted({round(i * (len(reqs) - 1) / max(turns - 1, 1)) for i in range(turns)})
    walls, cpus = [], []
    for i in picks:
        lines = [str(i + 1)]
        for j in range(i + 1):
            lines.append(reqs[j])
            if j < i:
                lines.append(resps[j])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(_cmd(agent, False), input="\n".join(lines) + "\n",
                           capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if p.returncode != 0 or not p.stdout.strip():
            raise SystemExit(f"turn {i}: exit {p.returncode}: {p.stderr.strip()[:200]}")
    print(f"{agent} per turn, wall: " + _stats("full history", walls))
    print(f"{agent} per turn, CPU:  " + _stats("full history", cpus))


def keep_running(agent: str, reqs: list[str]) -> None:
    p = subprocess.Popen(_cmd(agent, True), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)
    assert p.stdin is not None and p.stdout is not None
    times = []
    draws = []
    try:
        for i, r in enumerate(reqs):
            t = time.perf_counter()
            p.stdin.write(("1\n" if i == 0 else "") + r + "\n")
            p.stdin.flush()
            p.stdout.readline()
            p.stdout.readline()  # the keep-running line
            times.append(time.perf_counter() - t)
            if r.startswith("2 ") and i > 0:
                draws.append(times[-1])
    finally:
        p.stdin.close()
        p.wait(30)
    print(f"{agent} keep running, wall: first turn (start) {times[0]:.3f} s; then "
          + _stats("one request each", times[1:]))
    print(f"{agent} keep running, wall, own draws only: " + _stats("2 t requests", draws))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", required=True)
    ap.add_argument("--match", type=Path, required=True, help="a Botzone *_lite.json export")
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--turns", type=int, default=12, help="per-turn runs (spread evenly)")
    ap.add_argument("--modes", default="per-turn,keep-running")
    a = ap.parse_args()
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    reqs, resps = _seat_log(a.match, a.seat)
    modes = a.modes.split(",")
    if "per-turn" in modes:
        per_turn(a.agent, reqs, resps, a.turns)
    if "keep-running" in modes:
        keep_running(a.agent, reqs)


if __name__ == "__main__":
    main()

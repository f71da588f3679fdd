"""``tenpai bench botzone-turn``: answer time of ``tenpai botzone-bot`` on a real match.

Per turn (Botzone's default): for ``--turns`` requests spread over one seat's requests of a
real match, the bot is started afresh with the whole history (simple interaction), as Botzone
runs it; wall and CPU seconds of each run (the CPU of the child process, from the OS).
Keep running: one process gets every request of the seat in turn; the time from writing a
request to reading its answer.

    tenpai bench botzone-turn --agent pg_mcr \
        --match ../shared/data/mcr/botzone_json/SuuTTT_IJCAI-mahjong/botzone_logs/X_lite.json

Prints one summary line per mode: mean, median and max seconds per turn.  The bot runs through
the interpreter of this process (``python -m tenpai``), with this process's environment.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["keep_running", "per_turn", "seat_log"]


def seat_log(path: Path, seat: int) -> tuple[list[str], list[str]]:
    """The requests one seat of a Botzone ``*_lite.json`` export received, and its responses.

    Raises ``ValueError`` (naming the file) when the file is not such an export."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
        outs = [e["output"] for e in d["logs"] if "output" in e]
        answers = [e for e in d["logs"] if "output" not in e]
        reqs = [o["content"][str(seat)] for o in outs if o["command"] == "request"]
        resps = [a[str(seat)]["response"] for a in answers][: len(reqs)]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a Botzone match export with seat {seat} "
                         f"({type(exc).__name__}: {exc})") from None
    if not reqs:
        raise ValueError(f"{path}: seat {seat} received no request")
    return reqs, resps


def _cmd(agent: str, keep: bool) -> list[str]:
    out = [sys.executable, "-m", "tenpai", "botzone-bot", "--agent", agent]
    return out + (["--keep-running"] if keep else [])


def _stats(name: str, xs: list[float]) -> str:
    return (f"mean {statistics.mean(xs):.3f} s, median {statistics.median(xs):.3f} s, "
            f"max {max(xs):.3f} s over {len(xs)} turns ({name})")


def per_turn(agent: str, reqs: list[str], resps: list[str], turns: int) -> list[str]:
    """Start the bot afresh for ``turns`` requests spread over the seat's, each with the whole
    history before it; the report lines (wall, CPU of the child).  ``RuntimeError`` when a run
    fails or answers nothing."""
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
            raise RuntimeError(f"turn {i}: exit {p.returncode}: {p.stderr.strip()[:200]}")
    return [f"{agent} per turn, wall: " + _stats("full history", walls),
            f"{agent} per turn, CPU:  " + _stats("full history", cpus)]


def keep_running(agent: str, reqs: list[str]) -> list[str]:
    """One bot process answers every request of the seat in turn; the report lines (the time
    from writing a request to reading its answer, its own draws apart)."""
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
    lines = [f"{agent} keep running, wall: first turn (start) {times[0]:.3f} s; then "
             + _stats("one request each", times[1:])]
    if draws:
        lines.append(f"{agent} keep running, wall, own draws only: "
                     + _stats("2 t requests", draws))
    return lines

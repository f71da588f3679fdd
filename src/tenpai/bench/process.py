"""``tenpai bench process``: what a user waits for, whole processes included.

In-process rates (``bench engine``) leave out everything a command pays before its first game:
starting Python, importing tenpai, loading the shanten tables, and, with ``--workers``, the same
again in every spawned worker.  This bench times the real commands as subprocesses:

* ``tenpai demo --games N --fast`` for N = 1, 10, 100 (the demo plays whole duplicate deal
  sets, so 1 and 10 become 4 and 12 games; the count played is reported; ``--fast`` skips
  showing the first game, which is presentation, not play), beside the same match played in
  this process after a warm-up, so the fixed cost per command is visible;
* ``tenpai arena`` with one worker and with two on the same games (a throw-away database).

Wall-clock seconds are what a user waits; on a shared machine they move with the load, so the
CPU seconds of each command (its process and every worker it waited for, from ``getrusage``)
are reported too: they show a fixed cost, or the extra cost of a worker, whatever the load.
"""

from __future__ import annotations

import contextlib
import io
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DEMO_AGENTS", "ProcessBench", "run_process_bench"]

#: The demo's default seats: two efficiency agents (shanten tables in use) and two random.
DEMO_AGENTS = "efficiency,random,efficiency,random"


def _played(games: int) -> int:
    """Games the demo / arena really play for a request (whole deal sets of four)."""
    return -(-games // 4) * 4


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(cmd: Sequence[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and the workers it waited for)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start, _children_cpu() - cpu


@dataclass
class ProcessBench:
    """Wall seconds per command; ``in_process_s`` maps a game count to the same match played
    inside this (warm) process."""

    demo_s: dict[int, float] = field(default_factory=dict)
    demo_cpu_s: dict[int, float] = field(default_factory=dict)
    in_process_s: dict[int, float] = field(default_factory=dict)
    in_process_cpu_s: dict[int, float] = field(default_factory=dict)
    import_s: float = 0.0
    import_cpu_s: float = 0.0
    arena_games: int = 0
    arena_s: dict[int, float] = field(default_factory=dict)
    arena_cpu_s: dict[int, float] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"import_tenpai_cli_s": round(self.import_s, 3),
                               "import_tenpai_cli_cpu_s": round(self.import_cpu_s, 3)}
        for n, s in self.demo_s.items():
            played = _played(n)
            out[f"demo_{n}_games_played"] = played
            out[f"demo_{n}_process_s"] = round(s, 3)
            out[f"demo_{n}_process_cpu_s"] = round(self.demo_cpu_s[n], 3)
            inside = self.in_process_s.get(n)
            if inside is not None:
                out[f"demo_{n}_in_process_s"] = round(inside, 3)
                out[f"demo_{n}_fixed_cost_s"] = round(s - inside, 3)
                out[f"demo_{n}_in_process_cpu_s"] = round(self.in_process_cpu_s[n], 3)
                out[f"demo_{n}_fixed_cost_cpu_s"] = round(
                    self.demo_cpu_s[n] - self.in_process_cpu_s[n], 3
                )
                out[f"demo_{n}_process_games_per_s"] = round(played / s, 2)
                out[f"demo_{n}_in_process_games_per_s"] = round(played / inside, 2)
        if self.arena_s:
            out["arena_games"] = self.arena_games
            for w, s in self.arena_s.items():
                out[f"arena_workers_{w}_s"] = round(s, 3)
                out[f"arena_workers_{w}_cpu_s"] = round(self.arena_cpu_s[w], 3)
            if 1 in self.arena_s and 2 in self.arena_s:
                out["arena_two_workers_speedup"] = round(self.arena_s[1] / self.arena_s[2], 3)
        return out


def _in_process(games: int, seed: int) -> tuple[float, float]:
    from rich.console import Console

    from tenpai.arena.quick import run_quick_match

    quiet = Console(file=io.StringIO(), width=120)
    start, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stderr(io.StringIO()):  # the arena's progress lines
        run_quick_match(DEMO_AGENTS.split(","), games=games, seed=seed, console=quiet)
    return time.perf_counter() - start, time.process_time() - cpu


def run_process_bench(
    games: Sequence[int] = (1, 10, 100),
    seed: int = 1,
    arena_games: int = 16,
    workers: Sequence[int] = (1, 2),
) -> ProcessBench:
    """Time the commands as subprocesses (see the module docstring); ``arena_games`` 0 skips
    the arena rows."""
    py = sys.executable
    result = ProcessBench(arena_games=_played(arena_games) if arena_games else 0)
    result.import_s, result.import_cpu_s = _run([py, "-c", "import tenpai.cli.main"])
    _in_process(1, seed + 1)  # warm-up: imports, tables, agents
    for n in games:
        result.demo_s[n], result.demo_cpu_s[n] = _run([
            py, "-m", "tenpai", "demo", "--games", str(n), "--seed", str(seed), "--agents",
            DEMO_AGENTS, "--fast",
        ])
        result.in_process_s[n], result.in_process_cpu_s[n] = _in_process(n, seed)
    if arena_games:
        with tempfile.TemporaryDirectory() as tmp:
            for w in workers:
                db = Path(tmp) / f"w{w}.db"
                result.arena_s[w], result.arena_cpu_s[w] = _run([
                    py, "-m", "tenpai", "arena", "--agents", DEMO_AGENTS, "--games",
                    str(arena_games), "--seed", str(seed), "--db", str(db), "--workers", str(w),
                ])
    return result


def render(result: ProcessBench) -> None:
    """Print the readable table (rich)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Whole processes ({DEMO_AGENTS}, tonpuu)")
    table.add_column("command")
    table.add_column("games", justify="right")
    table.add_column("process s", justify="right")
    table.add_column("in-process s", justify="right")
    table.add_column("fixed cost s", justify="right")
    table.add_column("process CPU s", justify="right")
    table.add_row("python -c 'import tenpai.cli.main'", "0", f"{result.import_s:.2f}", "", "",
                  f"{result.import_cpu_s:.2f}")
    for n, s in result.demo_s.items():
        inside = result.in_process_s.get(n)
        table.add_row(f"tenpai demo --games {n}", str(_played(n)), f"{s:.2f}",
                      "" if inside is None else f"{inside:.2f}",
                      "" if inside is None else f"{s - inside:.2f}",
                      f"{result.demo_cpu_s[n]:.2f}")
    for w, s in result.arena_s.items():
        table.add_row(f"tenpai arena --workers {w}", str(result.arena_games), f"{s:.2f}", "", "",
                      f"{result.arena_cpu_s[w]:.2f}")
    Console().print(table)

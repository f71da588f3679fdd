"""Start-up of whole processes: how long a command takes before it does anything.

A command's fixed cost is Python starting plus every module imported on the way; it is paid by
each invocation, each spawned arena worker and each test subprocess, so it is measured from the
outside, on real processes.  The commands are run in turn (A B C A B C …) rather than each
``repeats`` times in a row, so a machine that slows down during the run slows every command
alike; medians are reported, with the min and max to show the spread (on a shared machine one
slow run must not move the figure).  The CPU seconds of each run (user + system, from
``getrusage``) are reported beside the wall seconds: on a loaded machine they stay close to
what a quiet one would show while the wall time does not.

Python compiles a module from source unless its byte-code cache exists; an installed package
has one, but under ``PYTHONDONTWRITEBYTECODE`` a source tree never gets it and every run pays
the compiling.  The table says so when that is the case (``python -m compileall src`` first).

``tenpai replay FILE`` and ``tenpai view FILE`` need a record: unless one is given, the bench
has ``tenpai arena`` save a seeded game of random agents as tenhou.net/6 into a temporary
folder first, so it needs no data beside the checkout.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["STARTUP_COMMANDS", "StartupBench", "run_startup_bench", "startup_commands"]

#: The commands timed, by label; ``{python}`` and ``{record}`` are filled in.
STARTUP_COMMANDS: dict[str, tuple[str, ...]] = {
    "python -c pass": ("{python}", "-c", "pass"),
    "import tenpai.engine": ("{python}", "-c", "import tenpai.engine"),
    "tenpai --help": ("{python}", "-m", "tenpai", "--help"),
    "tenpai replay FILE": ("{python}", "-m", "tenpai", "replay", "{record}"),
    "tenpai view FILE": ("{python}", "-m", "tenpai", "view", "{record}"),
    "arena worker imports": ("{python}", "-c", "import tenpai.arena.runner"),
}


def startup_commands(record: Path, python: str = sys.executable) -> dict[str, list[str]]:
    """The commands of :data:`STARTUP_COMMANDS` with the interpreter and record filled in."""
    return {
        label: [part.format(python=python, record=record) for part in cmd]
        for label, cmd in STARTUP_COMMANDS.items()
    }


@dataclass
class StartupBench:
    """Wall and CPU seconds of every run, by command label (in the order they were made)."""

    runs: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for label, times in self.runs.items():
            key = label.replace(" ", "_").replace(".", "_").replace("-", "")
            out[f"{key}_median_s"] = round(statistics.median(times), 3)
            out[f"{key}_min_s"] = round(min(times), 3)
            out[f"{key}_max_s"] = round(max(times), 3)
            out[f"{key}_cpu_median_s"] = round(statistics.median(self.cpu[label]), 3)
        for label, why in self.failed.items():
            out[f"{label.replace(' ', '_')}_failed"] = why
        return out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(cmd: Sequence[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, '' or the last line of stderr when the command failed)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "COLUMNS": "100"}, check=False)
    wall = time.perf_counter() - start
    error = "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]
    return wall, _children_cpu() - cpu, error


def _played_record(folder: Path) -> Path:
    """One tenhou.net/6 game of four random agents, saved by the arena into ``folder``."""
    games = folder / "games"
    subprocess.run(
        [sys.executable, "-m", "tenpai", "arena", "--agents", "random,random,random,random",
         "--games", "1", "--seed", "1", "--workers", "1", "--no-progress", "--db",
         str(folder / "arena.db"), "--save-records", str(games), "--format", "tenhou6"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    return min(games.glob("*.json"))


def run_startup_bench(repeats: int = 10, warmup: int = 1, labels: Sequence[str] | None = None,
                      record: Path | None = None) -> StartupBench:
    """Time each command ``repeats`` times, interleaved, after ``warmup`` uncounted rounds
    (which fill the file cache and write the byte-code caches)."""
    result = StartupBench()
    with tempfile.TemporaryDirectory() as tmp:
        commands = startup_commands(record or _played_record(Path(tmp)))
        if labels is not None:
            unknown = sorted(set(labels) - set(commands))
            if unknown:
                raise ValueError(f"unknown start-up command {', '.join(unknown)}; "
                                 f"known: {', '.join(commands)}")
            commands = {label: commands[label] for label in labels}
        for round_no in range(warmup + repeats):
            for label, cmd in commands.items():
                if label in result.failed:
                    continue
                wall, cpu, error = _time(cmd)
                if error:
                    result.failed[label] = error
                    result.runs.pop(label, None)
                    result.cpu.pop(label, None)
                elif round_no >= warmup:
                    result.runs.setdefault(label, []).append(wall)
                    result.cpu.setdefault(label, []).append(cpu)
    return result


def render(result: StartupBench) -> None:
    """Print the readable table (rich)."""
    from rich.console import Console
    from rich.table import Table

    repeats = max((len(t) for t in result.runs.values()), default=0)
    table = Table(title=f"Start-up: whole processes, {repeats} interleaved runs each")
    table.add_column("command")
    table.add_column("median s", justify="right")
    table.add_column("min s", justify="right")
    table.add_column("max s", justify="right")
    table.add_column("CPU median s", justify="right")
    for label, times in result.runs.items():
        table.add_row(label, f"{statistics.median(times):.3f}", f"{min(times):.3f}",
                      f"{max(times):.3f}", f"{statistics.median(result.cpu[label]):.3f}")
    for label, why in result.failed.items():
        table.add_row(label, "failed", why, "", "")
    console = Console()
    console.print(table)
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not _has_bytecode():
        console.print("PYTHONDONTWRITEBYTECODE is set and tenpai has no byte-code cache: every "
                      "run compiled tenpai from source (python -m compileall on the source "
                      "tree first to time what an installed package does)")


def _has_bytecode() -> bool:
    """Whether tenpai's command-line modules have byte-code caches beside them."""
    import importlib.util

    spec = importlib.util.find_spec("tenpai.cli.main")
    if spec is None or spec.origin is None:
        return False
    cached = importlib.util.cache_from_source(spec.origin)
    return Path(cached).exists()

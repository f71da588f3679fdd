"""Self-play speed with the ``sl`` network in all four seats: one table vs batched tables.

Issue 13 asks for batched self-play at least five times faster than one table at a time and
2,000 tonpuu games per hour per core.  Both are measured here in one run on the same agent:

* **one table**: ``unbatched_games`` whole games, every decision its own ``act_batch`` call;
* **batched**: for each table count, the runner is stepped until ``window`` decisions have
  been answered (a window, not whole games: 256 games would take far too long for a bench).

"Per core" is process CPU time (one torch thread, one process): on a shared machine the wall
clock also counts the time spent waiting for a core, so wall-clock rates are reported beside.
Games per hour are decisions per CPU second divided by the mean decisions of a game, taken from
the whole games of the one-table phase (the same deterministic agent plays the same seeds
batched, so a game's length does not depend on the table count).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai.agents.registry import make_agent
from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

__all__ = ["Phase", "SelfPlayBenchResult", "run_selfplay_bench"]


@dataclass(frozen=True, slots=True)
class Phase:
    """One measured configuration."""

    tables: int
    decisions: int
    calls: int
    cpu_s: float
    wall_s: float
    games: int

    @property
    def decisions_per_cpu_s(self) -> float:
        return self.decisions / max(self.cpu_s, 1e-9)

    @property
    def decisions_per_wall_s(self) -> float:
        return self.decisions / max(self.wall_s, 1e-9)


@dataclass(frozen=True, slots=True)
class SelfPlayBenchResult:
    agent: str
    decisions_per_game: float
    single: Phase
    batched: list[Phase]
    profile: str = ""
    notes: list[str] = field(default_factory=list)

    def games_per_hour(self, phase: Phase) -> float:
        return 3600 * phase.decisions_per_cpu_s / max(self.decisions_per_game, 1e-9)

    def summary(self) -> dict[str, Any]:
        best = max(self.batched, key=lambda p: p.decisions_per_cpu_s)
        rows = [self.single, *self.batched]
        return {
            "agent": self.agent,
            "rules": "riichi tonpuu (tenhou preset)",
            "decisions_per_game": round(self.decisions_per_game, 1),
            "phases": [
                {
                    "tables": p.tables,
                    "decisions": p.decisions,
                    "agent_calls": p.calls,
                    "cpu_s": round(p.cpu_s, 2),
                    "wall_s": round(p.wall_s, 2),
                    "decisions_per_cpu_s": round(p.decisions_per_cpu_s, 1),
                    "decisions_per_wall_s": round(p.decisions_per_wall_s, 1),
                    "games_per_hour_per_core": round(self.games_per_hour(p), 1),
                }
                for p in rows
            ],
            "best_tables": best.tables,
            "batched_speedup": round(
                best.decisions_per_cpu_s / max(self.single.decisions_per_cpu_s, 1e-9), 3
            ),
            "games_per_hour_per_core": round(self.games_per_hour(best), 1),
            "unbatched_games_per_hour_per_core": round(self.games_per_hour(self.single), 1),
        }


def _spec(agent: str, seed: int, games: int) -> SelfPlaySpec:
    return SelfPlaySpec.series(
        "riichi",
        [SeatSpec(agent, shared=True, record=False)] * 4,
        first_seed=seed,
        games=games,
        options={"length": "tonpuu"},
    )


def _timed(runner: VectorRunner, window: int | None) -> Phase:
    """Step ``runner`` until it is done (``window=None``) or has answered ``window`` decisions."""
    t, c = time.perf_counter(), time.process_time()
    games = 0
    while not runner.done and (window is None or runner.answered < window):
        games += len(runner.step())
    return Phase(
        runner.tables,
        runner.answered,
        runner.calls,
        time.process_time() - c,
        time.perf_counter() - t,
        games,
    )


def run_selfplay_bench(
    agent: str = "sl",
    tables: Sequence[int] = (16, 64, 256),
    unbatched_games: int = 3,
    window: int = 3000,
    seed: int = 0,
    profile: int = 0,
) -> SelfPlayBenchResult:
    """Measure one table against each of ``tables`` (see the module docstring).

    ``profile`` > 0 adds a run at the largest table count under cProfile (after the measured
    phases, so its overhead changes no figure) and keeps that many lines of its table, sorted
    by time spent inside each function.
    """
    if unbatched_games < 1 or window < 1 or not tables or min(tables) < 1:
        raise ValueError("unbatched_games, window and every table count must be positive")
    shared = make_agent(agent, 0)  # loaded once, outside the timings
    single_spec = _spec(agent, seed, unbatched_games)
    single_runner = VectorRunner(_with_agent(single_spec, shared), tables=1)
    single = _timed(single_runner, None)
    per_game = single.decisions / max(single.games, 1)
    phases = []
    for n in sorted(tables):
        spec = _with_agent(_spec(agent, seed + 10_000, 2 * n), shared)
        phases.append(_timed(VectorRunner(spec, tables=n), max(window, n)))
    text = ""
    if profile:
        # A separate run: the profiler's overhead must not touch the measured phases.
        n = max(tables)
        spec = _with_agent(_spec(agent, seed + 20_000, 2 * n), shared)
        runner = VectorRunner(spec, tables=n)
        prof = cProfile.Profile()
        prof.enable()
        _timed(runner, max(window // 2, n))
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(profile)
        text = out.getvalue()
    return SelfPlayBenchResult(agent, per_game, single, phases, text)


def _with_agent(spec: SelfPlaySpec, agent: Any) -> SelfPlaySpec:
    """The spec with the already loaded agent object in every seat (no reload per phase)."""
    seats = tuple(SeatSpec(agent, record=False, name=s.label) for s in spec.seats)
    return SelfPlaySpec(spec.rules, seats, spec.seeds, spec.options)

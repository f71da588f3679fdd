"""Arena speed: the same games played one at a time and on batched tables (``--tables``).

Both phases play the same keys of one run (same deals, seatings and agent seeds) in this
process, so the ratio of their CPU seconds is the figure to quote on a shared machine; the
bench also counts how many of the batched games differ from their one-at-a-time twins (a
network's batched forward is not bit-identical, docs/arena.md), which should be zero.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tenpai.arena.record import GameRecord, play_scheduled, play_scheduled_batch
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import all_keys

__all__ = ["ArenaBenchResult", "run_arena_bench"]


@dataclass(frozen=True, slots=True)
class ArenaBenchResult:
    rules: str
    agents: tuple[str, ...]
    games: int
    tables: int
    single_cpu_s: float
    batched_cpu_s: float
    single_wall_s: float
    batched_wall_s: float
    differing_games: int

    def summary(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "agents": list(self.agents),
            "games": self.games,
            "tables": self.tables,
            "single_cpu_s_per_game": round(self.single_cpu_s / self.games, 4),
            "batched_cpu_s_per_game": round(self.batched_cpu_s / self.games, 4),
            "single_wall_s": round(self.single_wall_s, 2),
            "batched_wall_s": round(self.batched_wall_s, 2),
            "tables_speedup": round(self.single_cpu_s / max(self.batched_cpu_s, 1e-9), 3),
            "differing_games": self.differing_games,
        }


def _same(a: GameRecord, b: GameRecord) -> bool:
    return a.events == b.events and a.seats == b.seats


def run_arena_bench(
    rules: str,
    agents: Sequence[str],
    games: int,
    tables: int,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
) -> ArenaBenchResult:
    """Play ``games`` games of the line-up both ways (ArenaConfigError for a bad line-up)."""
    config, _ = make_config(rules, agents, games, seed, options)
    keys = all_keys(config.games, len(config.agents))
    args = (config.rules, dict(config.options), config.agents, config.seed)
    cpu, wall = time.process_time(), time.perf_counter()
    single = {k: play_scheduled(*args, k) for k in keys}
    single_cpu, single_wall = time.process_time() - cpu, time.perf_counter() - wall
    cpu, wall = time.process_time(), time.perf_counter()
    batched = {r.key: r for r in play_scheduled_batch(*args, keys, tables)}
    batched_cpu, batched_wall = time.process_time() - cpu, time.perf_counter() - wall
    differing = sum(1 for k in keys if not _same(single[k], batched[k]))
    return ArenaBenchResult(config.rules, config.agents, len(keys), tables, single_cpu,
                            batched_cpu, single_wall, batched_wall, differing)

"""Which games each worker plays: a disjoint, deterministic slice of the run's seeds."""

from __future__ import annotations

from tenpai.selfplay.spec import SelfPlaySpec

__all__ = ["check_workers", "worker_slices"]


def check_workers(workers: int) -> int:
    """``workers`` if it is a usable worker count, else a ValueError saying why not."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive whole number, got {workers!r}")
    return workers


def worker_slices(spec: SelfPlaySpec, workers: int) -> list[list[tuple[int, int]]]:
    """Game ``i`` goes to worker ``i % workers``; empty slices are dropped.

    Interleaving (rather than blocks) spreads long and short games evenly; the slice a game
    lands in changes nothing about the game itself.
    """
    check_workers(workers)
    games = list(enumerate(spec.seeds))
    slices = [games[w::workers] for w in range(workers)]
    return [s for s in slices if s]

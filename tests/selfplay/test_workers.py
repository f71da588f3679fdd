"""Worker processes play disjoint slices and give exactly the games of one process."""

from __future__ import annotations

from tenpai.selfplay import SeatSpec, SelfPlaySpec, iter_selfplay, run_selfplay
from tenpai.selfplay.slices import worker_slices

from .helpers import counting_factory, fingerprint

SEATS = (SeatSpec(counting_factory), "random", "efficiency", SeatSpec("random", record=False))


def _spec(games: int) -> SelfPlaySpec:
    return SelfPlaySpec.series(
        "riichi", SEATS, first_seed=21, games=games, options={"length": "tonpuu"}
    )


def test_slices_are_disjoint_deterministic_and_cover_every_game() -> None:
    spec = _spec(7)
    slices = worker_slices(spec, 3)
    flat = sorted(i for s in slices for i, _seed in s)
    assert flat == list(range(7))
    assert slices == worker_slices(spec, 3)
    assert len(worker_slices(spec, 10)) == 7  # no idle workers


def test_two_worker_processes_equal_one_process() -> None:
    spec = _spec(4)
    local = run_selfplay(spec, tables=2)
    seen: list[int] = []
    parallel = run_selfplay(spec, tables=1, workers=2, on_game=lambda g: seen.append(g.index))
    assert sorted(seen) == [0, 1, 2, 3]
    assert fingerprint(parallel) == fingerprint(local)
    assert [[s.info for s in g.steps_of(0)] for g in parallel] == [
        [s.info for s in g.steps_of(0)] for g in local
    ]


def test_a_consumer_may_stop_early_and_the_workers_end() -> None:
    it = iter_selfplay(_spec(6), tables=1, workers=2)
    first = next(it)
    assert first.index in range(6)
    it.close()  # terminates the worker processes (the generator's finally)

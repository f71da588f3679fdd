"""Self-play on Ray actors (a real local Ray, 2 CPUs) gives exactly the games of local workers."""

from __future__ import annotations

import ray

from tenpai.selfplay import SeatSpec, SelfPlaySpec, run_selfplay

from .helpers import fingerprint


def test_ray_actors_equal_local_workers(local_ray: None) -> None:
    seats = (SeatSpec("efficiency"), "random", SeatSpec("efficiency", record=False), "random")
    spec = SelfPlaySpec.series(
        "riichi", seats, first_seed=40, games=4, options={"length": "tonpuu"}
    )
    seen: list[int] = []
    on_ray = run_selfplay(
        spec, tables=2, workers=2, backend="ray", on_game=lambda g: seen.append(g.index)
    )
    assert sorted(seen) == [0, 1, 2, 3]
    assert ray.is_initialized()
    local = run_selfplay(spec, tables=2, workers=2)
    assert fingerprint(on_ray) == fingerprint(local)
    assert fingerprint(on_ray) == fingerprint(run_selfplay(spec, tables=3))

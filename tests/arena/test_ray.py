"""The arena's ``--backend ray`` on a real local Ray (2 CPUs) stores what the local backend does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenpai.arena.runner import make_config, run_tournament
from tenpai.arena.store import ResultsStore


def _stored(path: Path, backend: str, workers: int) -> tuple[list[Any], list[tuple[Any, ...]]]:
    config, _ = make_config("riichi", ["efficiency", "random", "random", "efficiency"], 4, 17)
    with ResultsStore(path) as store:
        outcome = run_tournament(config, store, workers=workers, backend=backend, progress=False)
        assert outcome.played == outcome.stored == 4
        seats = sorted(store.seat_rows(), key=lambda r: (r.deal, r.rotation, r.seat))
        hands = sorted(store.query("SELECT * FROM rounds"))
        hands += sorted(store.query("SELECT * FROM wins"))
    return seats, hands


def test_ray_backend_stores_the_same_results_as_local(local_ray: None, tmp_path: Path) -> None:
    ray_seats, ray_hands = _stored(tmp_path / "ray.sqlite", "ray", 2)
    local_seats, local_hands = _stored(tmp_path / "local.sqlite", "local", 1)
    assert ray_seats == local_seats
    assert ray_hands == local_hands and ray_hands

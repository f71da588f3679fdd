"""Search self-play spread over worker processes or Ray actors (a real local Ray, 2 CPUs)
gives exactly the strategy data of one process."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import ray

from tenpai.mcts.checkpoint import load_checkpoint
from tenpai.mcts.replay import Trajectory
from tenpai.mcts.train import MCTSTrainConfig, train_mcts


def _buffer(tmp: Path, name: str, *, workers: int = 1, backend: str = "local"
            ) -> list[Trajectory]:
    out = tmp / f"{name}.pt"
    _out, progress = train_mcts(MCTSTrainConfig(
        out=str(out), size="tiny", simulations=2, tables=2, games_per_version=3,
        steps_per_version=1, batch_size=4, unroll=1, max_versions=1, seed=4, workers=workers,
        backend=backend))
    assert progress.games == 3 and progress.cpu_seconds > 0
    return [Trajectory.from_tensors(t)
            for t in load_checkpoint(out.with_name(out.name + ".ckpt"))["buffer"]]


def _same(a: list[Trajectory], b: list[Trajectory]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(x.planes, y.planes) and np.array_equal(x.actions, y.actions)
        and np.allclose(x.policy, y.policy) and np.array_equal(x.values, y.values)
        and x.safe is not None and y.safe is not None and np.array_equal(x.safe, y.safe)
        for x, y in zip(a, b))


def test_workers_and_ray_actors_play_the_same_games(local_ray: None, tmp_path: Path) -> None:
    one = _buffer(tmp_path, "one")
    assert sum(len(t) for t in one) > 100
    assert _same(one, _buffer(tmp_path, "procs", workers=2))
    assert _same(one, _buffer(tmp_path, "ray", workers=2, backend="ray"))
    assert ray.is_initialized()


@pytest.mark.parametrize("bad, message", [
    ({"workers": 0}, "workers must be a positive whole number"),
    ({"backend": "dask"}, "unknown backend 'dask'"),
])
def test_bad_worker_settings_are_refused(bad: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSTrainConfig(**bad)  # type: ignore[arg-type]

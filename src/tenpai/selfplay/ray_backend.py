"""The same worker slices on Ray actors (the ``scale`` extra; Ray is imported only here).

Each actor holds one :class:`VectorRunner` over its slice and hands back finished games in small
lists; the driver keeps one request in flight per actor and yields games as they arrive.  When
Ray is not running yet, a local instance is started with one CPU per worker and no dashboard.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import Checker, VectorRunner

__all__ = ["RayUnavailableError", "SelfPlayActor", "ray_games"]


class RayUnavailableError(RuntimeError):
    """``backend="ray"`` was asked for but Ray is not installed."""


class SelfPlayActor:
    """A Ray actor's body: one vectorised runner over one slice, drained a few games at a time."""

    def __init__(
        self,
        spec: SelfPlaySpec,
        games: Sequence[tuple[int, int]],
        tables: int,
        check: Checker | None = None,
    ) -> None:
        self._games = VectorRunner(spec, tables=tables, games=games, check=check).games()

    def take(self, n: int = 1) -> list[PlayedGame]:
        """Up to ``n`` more finished games; an empty list once the slice is played."""
        out: list[PlayedGame] = []
        for g in self._games:
            out.append(g)
            if len(out) >= n:
                break
        return out


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            "the ray backend needs Ray, which is not installed: "
            "pip install 'tenpai[scale]' (or use backend='local')"
        ) from None
    return ray


def ray_games(
    spec: SelfPlaySpec,
    slices: Sequence[Sequence[tuple[int, int]]],
    tables: int,
    check: Checker | None = None,
) -> Iterator[PlayedGame]:
    """Yield the games of every slice, one Ray actor per slice, as they finish."""
    ray = _import_ray()
    if not ray.is_initialized():
        ray.init(num_cpus=max(len(slices), 1), include_dashboard=False, log_to_driver=False)
    actor_cls = ray.remote(num_cpus=1)(SelfPlayActor)
    actors = [actor_cls.remote(spec, list(s), tables, check) for s in slices]
    inflight = {a.take.remote(): a for a in actors}
    try:
        while inflight:
            done, _ = ray.wait(list(inflight), num_returns=1)
            ref = done[0]
            actor = inflight.pop(ref)
            batch: list[PlayedGame] = ray.get(ref)
            if batch:
                inflight[actor.take.remote()] = actor
            yield from batch
    finally:
        for a in actors:
            ray.kill(a)

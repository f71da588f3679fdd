"""The entry points: play a :class:`SelfPlaySpec` in this process, in workers, or on Ray.

``iter_selfplay`` streams games as they finish (a trainer consumes them while the rest play);
``run_selfplay`` returns them all in run order.  Backends:

* ``local`` with ``workers=1``: one :class:`VectorRunner` in this process (shared agent objects
  are used as given — a trainer's live policy);
* ``local`` with ``workers>1``: that many processes, each over its slice of the seeds
  (:func:`tenpai.selfplay.slices.worker_slices`), agents re-created from the pickled spec;
* ``ray``: the same slices on Ray actors.

The same spec gives the same games (scores, events, decisions) on every backend and for every
``tables`` and ``workers``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from tenpai.selfplay.slices import check_workers, worker_slices
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import Checker, GameCallback, VectorRunner, check_tables

__all__ = ["BACKENDS", "iter_selfplay", "run_selfplay"]

BACKENDS = ("local", "ray")


def iter_selfplay(
    spec: SelfPlaySpec,
    *,
    tables: int = 16,
    workers: int = 1,
    backend: str = "local",
    on_game: GameCallback | None = None,
    check: Checker | None = None,
) -> Generator[PlayedGame, None, None]:
    """Yield every game of ``spec`` as it finishes (any order; ``PlayedGame.index`` says which).

    ``tables`` is the number of tables each process steps together; ``on_game`` is called with
    each game before it is yielded (progress bars); ``check`` runs after every step of every
    table.  Bad arguments raise ``ValueError`` before anything starts.
    """
    if not isinstance(spec, SelfPlaySpec):
        raise ValueError(f"spec must be a SelfPlaySpec, not {type(spec).__name__}")
    check_tables(tables)
    check_workers(workers)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose {', '.join(BACKENDS)}")
    games = _games(spec, tables, workers, backend, check)
    for g in games:
        if on_game is not None:
            on_game(g)
        yield g


def _games(
    spec: SelfPlaySpec, tables: int, workers: int, backend: str, check: Checker | None
) -> Iterator[PlayedGame]:
    if backend == "ray":
        from tenpai.selfplay.ray_backend import ray_games

        return ray_games(spec, worker_slices(spec, workers), tables, check)
    if workers == 1:
        return VectorRunner(spec, tables=tables, check=check).games()
    from tenpai.selfplay.processes import process_games

    return process_games(spec, worker_slices(spec, workers), tables, check)


def run_selfplay(
    spec: SelfPlaySpec,
    *,
    tables: int = 16,
    workers: int = 1,
    backend: str = "local",
    on_game: GameCallback | None = None,
    check: Checker | None = None,
) -> list[PlayedGame]:
    """Every game of ``spec``, sorted by run index (see :func:`iter_selfplay`)."""
    games = iter_selfplay(
        spec, tables=tables, workers=workers, backend=backend, on_game=on_game, check=check
    )
    return sorted(games, key=lambda g: g.index)

"""Local worker processes, each running its own :class:`VectorRunner` over its slice.

Workers are started with ``spawn`` (torch and forked parents do not mix) and send every game
back through one queue as it ends, so the parent can stream games to a trainer.  Each worker
watches its parent and exits when the parent dies; the parent ends its workers when the
consumer stops iterating early or a worker fails (the worker's traceback is re-raised).
"""

from __future__ import annotations

import os
import queue as queue_mod
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import Checker, VectorRunner

__all__ = ["WorkerError", "process_games"]


class WorkerError(RuntimeError):
    """A self-play worker failed; the message carries its traceback."""


def _watch_parent(parent: int) -> None:
    def loop() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=loop, daemon=True, name="tenpai-selfplay-parent").start()


def _worker(
    wid: int,
    spec: SelfPlaySpec,
    games: Sequence[tuple[int, int]],
    tables: int,
    check: Checker | None,
    out: Any,
    parent: int,
) -> None:
    _watch_parent(parent)
    try:
        runner = VectorRunner(spec, tables=tables, games=games, check=check)
        for g in runner.games():
            out.put(("game", wid, g))
        out.put(("done", wid, None))
    except BaseException:  # report everything, including KeyboardInterrupt, then stop
        out.put(("error", wid, traceback.format_exc()))


def process_games(
    spec: SelfPlaySpec,
    slices: Sequence[Sequence[tuple[int, int]]],
    tables: int,
    check: Checker | None = None,
) -> Iterator[PlayedGame]:
    """Yield the games of every slice, one worker process per slice, as they finish."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [
        ctx.Process(
            target=_worker,
            args=(w, spec, list(s), tables, check, out, os.getpid()),
            name=f"tenpai-selfplay-{w}",
            daemon=True,
        )
        for w, s in enumerate(slices)
    ]
    for p in procs:
        p.start()
    running = set(range(len(procs)))
    try:
        while running:
            try:
                kind, wid, payload = out.get(timeout=1.0)
            except queue_mod.Empty:
                dead = [w for w in running if procs[w].exitcode not in (None, 0)]
                if dead:
                    code = procs[dead[0]].exitcode
                    raise WorkerError(
                        f"self-play worker {dead[0]} died (exit code {code})"
                    ) from None
                continue
            if kind == "game":
                yield payload
            elif kind == "done":
                running.discard(wid)
            else:
                raise WorkerError(f"self-play worker {wid} failed:\n{payload}")
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
        out.close()

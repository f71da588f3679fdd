"""Run a tournament into a results store: resumable, parallel, with a progress bar.

The run is defined by a :class:`~tenpai.arena.store.RunConfig`.  Its games are the fixed keys
``(deal, rotation)``; a (re)started run asks the store which keys are done and plays only the
others, so killing it at any moment and starting it again with the same arguments ends with
exactly ``games`` games.  Workers only play; the parent process alone writes to SQLite, one
transaction per game.

Backends: ``local`` (the current process for one worker, else a ``multiprocessing`` pool) and
``ray`` (optional ``scale`` extra, imported only when asked for).

Ctrl-C: pool workers ignore SIGINT (a terminal sends it to the whole process group, and each
worker used to print its own traceback); the parent alone gets ``KeyboardInterrupt``, never in
the middle of writing a game (the signal is held back for that transaction), ends the pool and
lets it propagate for the command to report in one line.  The store stays resumable.  A run
stops on SIGINT whoever sends it: a process that inherited SIGINT ignored (a script's
background job, ``cmd &``) gets Python's handler back for the run, as ``kill -INT`` to such a
run used to be ignored and the run played on to its last game (issue 41).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, islice
from types import FrameType
from typing import TYPE_CHECKING

from tenpai.agents.registry import AGENTS, external_seats, is_known_agent, make_agent
from tenpai.agents.rulesets import UnsupportedRulesError, check_agent_rules, check_built_agent
from tenpai.agents.spec import AgentSpecError, parse_agent_spec
from tenpai.arena.games import ArenaConfigError, rules_entry
from tenpai.arena.record import SEAT_ERRORS, GameRecord, play_scheduled, play_scheduled_batch
from tenpai.arena.schedule import SEATINGS, GameKey, iter_keys, rounded_games, seatings_per_deal
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.progress import StepProgress

if TYPE_CHECKING:
    # imported where the run starts: a spawned worker unpickles _play_task from this module
    # and never shows anything, so it need not load rich
    from rich.console import Console

__all__ = [
    "BACKENDS",
    "MAX_GAMES",
    "BackendUnavailableError",
    "RunOutcome",
    "WorkerDiedError",
    "make_config",
    "run_tournament",
    "seat_warnings",
]

BACKENDS = ("local", "ray")

#: (rules, options, lineup, run seed, the games' keys, tables, seating, seat errors): one unit
#: of a worker's work.
Task = tuple[str, Mapping[str, str], tuple[str, ...], int, tuple[GameKey, ...], int, str, str]

#: Games per task when tables are batched, in tables: a task's last games run on ever fewer
#: tables, so it should hold several rounds of them; a killed run loses at most one task per
#: worker (its finished games are stored only when the task returns).
_TASK_ROUNDS = 4


#: The largest run (games), worker count and tables per worker accepted: far beyond any real
#: run, and small enough that an absurd number (a typo, 1e23) is refused before any game.
MAX_GAMES = 100_000_000
MAX_WORKERS = 512
MAX_TABLES = 4096

#: Pools broken by a dead worker that a run survives (their tasks run again); one more stops it.
_WORKER_DEATHS = 2


class BackendUnavailableError(RuntimeError):
    """The chosen backend cannot run here (for Ray: the package is not installed)."""


class WorkerDiedError(RuntimeError):
    """Worker processes kept dying; the games stored so far are kept and the run resumes."""


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What one invocation did: games played now, games stored in all, wall time."""

    config: RunConfig
    played: int
    stored: int
    seconds: float


def make_config(
    rules: str,
    agents: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    seating: str = "rotations",
    seat_errors: str = "substitute",
) -> tuple[RunConfig, bool]:
    """A checked run configuration; the flag says whether ``games`` was rounded up to whole
    deal sets (one game per seating: 4k rotations, or 3k for three players; up to 24k
    permutations, see :mod:`tenpai.arena.schedule`).  ``seat_errors`` ``forfeit`` needs a
    Botzone seat under the ``botzone`` preset, whose one hand is Botzone's whole match."""
    if seating not in SEATINGS:
        raise ArenaConfigError(f"unknown seating {seating!r}; choose {', '.join(SEATINGS)}")
    if seat_errors not in SEAT_ERRORS:
        raise ArenaConfigError(f"unknown seat errors {seat_errors!r}; choose "
                               f"{', '.join(SEAT_ERRORS)}")
    entry = rules_entry(rules)
    lineup = tuple(a.strip() for a in agents)
    full = entry.options(dict(options or {}))
    seats = entry.seat_count(full)
    if len(lineup) != seats:
        preset = f" (preset {full['preset']})" if "preset" in full else ""
        raise ArenaConfigError(
            f"rules {rules!r}{preset} seat {seats} agents, got {len(lineup)}: "
            f"{', '.join(lineup)}"
        )
    if rules != "riichi" and any(a.startswith("mjai:") for a in lineup):
        raise ArenaConfigError(f"mjai: seats play Riichi only, not rules {rules!r}")
    if any(a.startswith(_BOTZONE) for a in lineup) and (
        rules != "mcr" or full.get("preset") != "botzone"
    ):
        raise ArenaConfigError("botzone: seats play rules mcr with --option preset=botzone only")
    if seat_errors == "forfeit" and not (
        rules == "mcr" and full.get("preset") == "botzone"
        and any(a.startswith(_BOTZONE) for a in lineup)
    ):
        raise ArenaConfigError("--seat-errors forfeit applies to botzone: seats under rules mcr "
                               "with --preset botzone only (Botzone's judge ends the match)")
    lineup = tuple(_external_seat(a) if a.startswith(("mjai:", *_BOTZONE)) else a
                   for a in lineup)
    try:  # each seat under its spec's canonical text, so one agent is one name in the store
        lineup = tuple(a if a.startswith(("mjai:", *_BOTZONE)) else str(parse_agent_spec(a))
                       for a in lineup)
    except AgentSpecError as exc:
        raise ArenaConfigError(str(exc)) from None
    unknown = [a for a in lineup
               if not is_known_agent(a) and not a.startswith(("mjai:", *_BOTZONE))]
    if unknown:
        raise ArenaConfigError(
            f"unknown agent {', '.join(unknown)}; known: {', '.join(sorted(AGENTS))}"
        )
    players: dict[str, str] = {}
    for a in dict.fromkeys(lineup):  # an agent built for other rules: refuse before playing
        try:
            check_agent_rules(a, rules)
        except UnsupportedRulesError as exc:
            raise ArenaConfigError(str(exc)) from None
        if not a.startswith(("mjai:", *_BOTZONE)):
            identity = _check_buildable(a, rules, seats)
            if identity:
                players[a] = identity
    if games < 1:
        raise ArenaConfigError(f"games must be at least 1, got {games}")
    if games > MAX_GAMES:
        raise ArenaConfigError(f"games must be at most {MAX_GAMES:,}, got {games:,}")
    total = rounded_games(games, seatings_per_deal(lineup, seating))
    if total > MAX_GAMES:
        raise ArenaConfigError(f"games must be at most {MAX_GAMES:,}, got {total:,}")
    return (RunConfig(rules, lineup, total, seed, full, players, seating, seat_errors),
            total != games)


def _check_buildable(name: str, rules: str, seats: int | None = None) -> str:
    """Build agent ``name`` once before any game: a missing or broken model file (or a
    missing extra), or a model made for another rule set (an agent's ``model_rules``), is
    then one line here, not a traceback from inside a worker.  Returns the agent's
    ``identity`` (which weights and settings its name stands for now; "" for none), which the
    run stores so that resuming or pooling it with other weights is refused."""
    try:
        agent = make_agent(name, 0)
    except ImportError as exc:
        raise ArenaConfigError(f"agent {name!r} needs a package that is not installed: {exc}"
                               ) from None
    except (ValueError, OSError) as exc:  # model errors are ValueErrors naming the file
        raise ArenaConfigError(f"agent {name!r} cannot be built: {exc}") from None
    try:
        check_built_agent(name, agent, rules, seats)
    except UnsupportedRulesError as exc:
        raise ArenaConfigError(str(exc)) from None
    return str(getattr(agent, "identity", ""))


_BOTZONE = ("botzone:", "botzone-json:")


def _external_seat(name: str) -> str:
    """``mjai:PATH`` or ``botzone:PATH`` with the program resolved and checked (an external
    bot's seat); the serve layer's module is found through the agent registry, imported only
    when such a seat is asked for."""
    prefix = next(p for p in ("mjai:", *_BOTZONE) if name.startswith(p))
    try:
        module = external_seats(prefix)
        if prefix == "mjai:":
            module.default_timeout()  # a bad $TENPAI_MJAI_TIMEOUT: one line now, not per worker
        resolved: str = module.resolve_spec(name)
        return resolved
    except ValueError as exc:
        raise ArenaConfigError(str(exc)) from None


def seat_warnings(config: RunConfig) -> list[str]:
    """One line per distinct ``mjai:`` seat that runs our own bot (``tenpai mjai-bot``)
    assuming another game length than the Riichi run's: mjai never tells a bot the length, so
    such a seat would value the game's end wrongly without a word.  Printed at the start of the
    run; not an error, since a user may mean it."""
    mjai = [a for a in dict.fromkeys(config.agents) if a.startswith("mjai:")]
    if config.rules != "riichi" or not mjai:
        return []
    module = external_seats("mjai:")
    found = (module.length_warning(a, config.options["length"]) for a in mjai)
    return [w for w in found if w is not None]


def _play_task(task: Task) -> list[GameRecord]:
    rules, options, lineup, seed, keys, tables, seating, seat_errors = task
    if tables == 1:
        return [play_scheduled(rules, options, lineup, seed, k, seating, seat_errors)
                for k in keys]
    return list(play_scheduled_batch(rules, options, lineup, seed, keys, tables,
                                     seating_mode=seating))


def _tasks(config: RunConfig, keys: Iterable[GameKey], tables: int) -> Iterator[Task]:
    """One game per task on one table (as before batching); else chunks of several rounds of
    ``tables`` games.  External seats always play one game per task.  Lazy: a run of
    millions of games never builds its schedule in memory."""
    if any(a.startswith(("mjai:", *_BOTZONE)) for a in config.agents):
        tables = 1
    size = _task_size(config, tables)
    it = iter(keys)
    while chunk := tuple(islice(it, size)):
        yield (config.rules, dict(config.options), config.agents, config.seed, chunk, tables,
               config.seating, config.seat_errors)


def _task_size(config: RunConfig, tables: int) -> int:
    """Games per task (see :func:`_tasks`)."""
    if tables == 1 or any(a.startswith(("mjai:", *_BOTZONE)) for a in config.agents):
        return 1
    return tables * _TASK_ROUNDS


def _watch_parent(parent: int) -> None:
    """Pool worker start: ignore Ctrl-C (the parent stops the pool) and end when the parent
    dies (a killed run leaves no orphans)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def loop() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=loop, daemon=True, name="tenpai-parent-watch").start()


def _local(
    tasks: Iterable[Task], workers: int, play: Callable[[Task], list[GameRecord]] = _play_task
) -> Iterator[list[GameRecord]]:
    """Tasks' results as they finish, from ``workers`` processes.

    A ``concurrent.futures`` process pool, not ``multiprocessing.Pool``: a worker that dies
    (``kill -9``, the out-of-memory killer, a crash in native code) breaks the pool at once
    instead of leaving its task unanswered forever.  The tasks in flight then run again on a
    fresh pool; a run whose workers keep dying stops with :class:`WorkerDiedError`.  At most
    ``2 * workers`` tasks are queued at a time, so the schedule is read lazily.
    """
    queue = iter(tasks)
    head = list(islice(queue, 2))
    if workers <= 1 or len(head) <= 1:  # no pool for a single task
        for t in chain(head, queue):
            yield play(t)
        return
    queue = chain(head, queue)
    retry: deque[Task] = deque()
    deaths = 0
    while True:
        pool, running = _start_pool(workers, play, retry, queue)
        if not running:
            _stop_pool(pool)
            return
        broken = False
        try:
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    task = running.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        broken = True
                        retry.append(task)
                        continue
                    yield result
                if broken:
                    retry.extend(running.values())
                    running.clear()
                    break
                _fill(pool, play, running, retry, queue, 2 * workers)
        finally:
            _stop_pool(pool)
        if not broken:
            return
        deaths += 1
        if deaths > _WORKER_DEATHS:
            raise WorkerDiedError(
                f"a worker process died {deaths} times (killed, out of memory, or a crash); "
                "stopped"
            )


def _start_pool(
    workers: int, play: Callable[[Task], list[GameRecord]], retry: deque[Task],
    queue: Iterator[Task],
) -> tuple[ProcessPoolExecutor, dict[Future[list[GameRecord]], Task]]:
    """A fresh pool with its first tasks queued (tasks to re-run first).  The workers start
    with SIGINT ignored: a terminal's Ctrl-C reaches the whole process group, and only the
    parent should act on it."""
    import multiprocessing as mp

    running: dict[Future[list[GameRecord]], Task] = {}
    with _sigint_ignored():  # inherited by the spawned workers from their first instruction
        pool = ProcessPoolExecutor(
            workers, mp_context=mp.get_context("spawn"), initializer=_watch_parent,
            initargs=(os.getpid(),),
        )
        _fill(pool, play, running, retry, queue, 2 * workers)
    return pool, running


def _fill(
    pool: ProcessPoolExecutor, play: Callable[[Task], list[GameRecord]],
    running: dict[Future[list[GameRecord]], Task], retry: deque[Task], queue: Iterator[Task],
    window: int,
) -> None:
    while len(running) < window:
        task = retry.popleft() if retry else next(queue, None)
        if task is None:
            return
        running[pool.submit(play, task)] = task


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the pool now, whatever its workers are doing (finished, a dead worker, Ctrl-C):
    queued tasks are dropped and running ones killed; their games were never stored."""
    procs = dict(getattr(pool, "_processes", None) or {})  # pid -> Process, until shutdown
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs.values():
        if proc.is_alive():
            proc.terminate()
    for proc in procs.values():
        proc.join(timeout=5)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT for the block: processes started inside it begin with SIGINT ignored."""
    if not _in_main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def _sigint_stops_the_run() -> Iterator[Callable[[], None]]:
    """Make SIGINT raise ``KeyboardInterrupt`` during the run even if the process inherited it
    ignored.  A shell starts a script's background job with SIGINT ignored and Python keeps
    that, so ``kill -INT`` (the documented way to stop a run and keep its games) did nothing;
    the old disposition comes back when the run ends.  Pool workers and bot programs are
    started with SIGINT ignored or in their own session either way (the parent stops them).

    Python can also drop the ``KeyboardInterrupt``: raised while an at-fork hook runs (logging
    registers one, and a ``botzone:`` seat forks its bot program), it is printed as
    "Exception ignored" and lost, and the run played on to its end.  So the run's handler
    notes each SIGINT as well as raising, and the block gets a check that raises for a noted
    one; the run calls it after every stored game.  A handler of the caller's own (neither
    ignored nor Python's default) is left in place, and the check then never raises."""
    noted: list[int] = []

    def stop_if_interrupted() -> None:
        if noted:
            raise KeyboardInterrupt

    old = signal.getsignal(signal.SIGINT) if _in_main_thread() else None
    if old is not signal.SIG_IGN and old is not signal.default_int_handler:
        yield stop_if_interrupted
        return

    def stop(signum: int, _frame: FrameType | None) -> None:
        noted.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    try:
        yield stop_if_interrupted
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C back until the block ends (a game's transaction is never cut in two)."""
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    old = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and callable(old):  # Python's default handler raises KeyboardInterrupt here
        old(caught[0], None)


def _ray(tasks: Iterable[Task], workers: int) -> Iterator[list[GameRecord]]:
    try:
        import ray
    except ImportError:
        raise BackendUnavailableError(
            "the ray backend needs Ray, which is not installed: "
            "pip install 'tenpai[scale]' (or use --backend local)"
        ) from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_play_task)
    queue = iter(tasks)
    window = max(2 * workers, 1)
    pending = [remote.remote(t) for t in islice(queue, window)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        nxt = next(queue, None)
        if nxt is not None:
            pending.append(remote.remote(nxt))
        yield ray.get(done[0])


_BACKEND_RUNNERS: dict[str, Callable[[Iterable[Task], int], Iterator[list[GameRecord]]]] = {
    "local": _local,
    "ray": _ray,
}


def run_tournament(
    config: RunConfig,
    store: ResultsStore,
    *,
    workers: int | None = None,
    backend: str = "local",
    tables: int = 1,
    console: Console | None = None,
    progress: bool = True,
    on_game: Callable[[GameRecord], None] | None = None,
    extend: bool = False,
) -> RunOutcome:
    """Play every game of ``config`` not yet in ``store`` and store each as it finishes.

    ``extend``: ``store`` may hold the same run with fewer games
    (:meth:`~tenpai.arena.store.ResultsStore.begin_run`); it goes on to ``config.games``.

    ``tables`` > 1 plays that many games at once in each worker
    (:func:`~tenpai.arena.record.play_scheduled_batch`): a network agent then answers all of
    them with one call per step.  The games are the same keys, deals and seeds.  The run
    starts by printing :func:`seat_warnings` to ``console`` (stderr by default).
    """
    if backend not in _BACKEND_RUNNERS:
        raise ArenaConfigError(f"unknown backend {backend!r}; choose {', '.join(BACKENDS)}")
    workers = workers or os.cpu_count() or 1
    if workers < 1 or workers > MAX_WORKERS:
        raise ArenaConfigError(f"workers must be from 1 to {MAX_WORKERS}, got {workers}")
    if isinstance(tables, bool) or not isinstance(tables, int) or not 1 <= tables <= MAX_TABLES:
        raise ArenaConfigError(f"tables must be a whole number from 1 to {MAX_TABLES}, got "
                               f"{tables!r}")
    if config.games > MAX_GAMES:
        raise ArenaConfigError(f"games must be at most {MAX_GAMES:,}, got {config.games:,}")
    store.begin_run(config, extend)
    if console is None:
        from rich.console import Console

        console = Console(stderr=True)
    for warning in seat_warnings(config):
        console.print(f"warning: {warning}", markup=False, soft_wrap=True)
    done = store.done_keys()
    per_deal = seatings_per_deal(config.agents, config.seating)
    keys = (k for k in iter_keys(config.games, per_deal) if k not in done)
    tasks = _tasks(config, keys, tables)
    size = _task_size(config, tables)
    workers = max(1, min(workers, -(-(config.games - len(done)) // size)))  # no idle workers
    start = time.perf_counter()
    played = 0
    with _sigint_stops_the_run() as stop_if_interrupted, StepProgress(
        "games", config.games, unit="games", completed=len(done), console=console,
        enabled=progress,
    ) as bar:
        for records in _BACKEND_RUNNERS[backend](tasks, workers):
            for record in records:
                with _sigint_deferred():
                    store.add_game(record)
                played += 1
                if on_game is not None:
                    on_game(record)
                bar.advance()
                stop_if_interrupted()  # a Ctrl-C that Python dropped (see the check's maker)
    return RunOutcome(config, played, store.game_count(), time.perf_counter() - start)

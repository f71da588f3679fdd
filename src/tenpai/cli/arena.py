"""``tenpai arena``, ``arena-report`` and ``arena-pool``: duplicate-deal tournaments, their
reports, and several runs on other deals read as one.

Exit codes: 0 done, 2 bad usage (unknown agent or rules, a database holding another run or
in use by one, a ``--db`` that is a folder or not a results file, an unavailable backend),
130 interrupted (Ctrl-C: one line, the workers ended, the games so far stored and resumable).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:
    from tenpai.arena.record import GameRecord
    from tenpai.arena.saved import RecordsFolder
    from tenpai.arena.schedule import GameKey
    from tenpai.arena.store import ResultsStore, RunConfig


_UNDER_RIICHI = typer.Option(
    False, "--under-riichi", help="Riichi: also count each agent's discards under another "
    "seat's riichi (hand breaks = folding, deal-ins); replays every game.",
)


def _options(length: str | None, preset: str | None, extra: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in extra:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        out[key.strip()] = value.strip()
    if length is not None:
        out["length"] = length
    if preset is not None:
        out["preset"] = preset
    return out


def _fail(err: Any, message: str) -> NoReturn:
    """Print a one-line error (not wrapped, no markup in the message) and exit with 2."""
    from rich.markup import escape

    err.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    raise typer.Exit(2)


def _saver(folder: RecordsFolder) -> Callable[[GameRecord], None]:
    """Write each game's record as soon as it is stored."""

    def save(g: GameRecord) -> None:
        if g.events:
            folder.save(g.key, g.events)

    return save


def _save_missing(
    folder: RecordsFolder, store: ResultsStore, config: RunConfig, err: Any, progress: bool
) -> None:
    """Write the records of games stored before this invocation (a resumed run, or records
    asked for after the run); a game stored without its events is played again from its key."""
    from tenpai.arena.record import play_scheduled
    from tenpai.progress import StepProgress

    missing = sum(1 for k in store.done_keys() if not folder.path_for(k).exists())
    if not missing:
        return

    def replay(key: GameKey) -> bytes:
        g = play_scheduled(config.rules, dict(config.options), config.agents, config.seed, key,
                           config.seating, config.seat_errors)
        return g.events

    with StepProgress("saving records", missing, unit="games", console=err,
                      enabled=progress) as bar:
        folder.save_missing(store, replay, on_game=lambda _p: bar.advance())


def _interrupted(err: Any, stored: int, total: int, db: Path | None) -> NoReturn:
    """Ctrl-C: one line saying what is kept and how to go on, exit 130 (128 + SIGINT)."""
    if db is None:
        err.print(f"interrupted after {stored} of {total} games; without --db they are not "
                  "kept", markup=False, soft_wrap=True)
    else:
        err.print(f"interrupted: {stored} of {total} games stored in {db}; run the same "
                  "command again to resume", markup=False, soft_wrap=True)
    raise typer.Exit(130)


def _kept(stored: int, total: int, db: Path, keep: bool) -> str:
    """What a stopped run leaves behind, for its one error line."""
    if not keep:
        return f"{stored} of {total} games played; without --db they are not kept"
    return f"{stored} of {total} games stored in {db}; run the same command again to resume"


def register(app: typer.Typer) -> None:
    @app.command()
    def arena(
        agents: str | None = typer.Option(
            None, "--agents", help="Comma-separated agent names, one per seat (e.g. A,B,B,B); "
            "an agent with settings takes them for its seat in brackets, e.g. "
            "'planner[CLAIMS=0.3],planner,efficiency,efficiency' (docs/agents.md). "
            "Default for --rules mcr: planner,efficiency,planner,efficiency (the default agent "
            "against its baseline); the other rule sets need it."
        ),
        games: int = typer.Option(
            ..., "--games", "-n", min=1, max=100_000_000,
            help="Games; rounded up to whole deal sets (4 games; with --seating permutations "
            "one per distinct seat order, up to 24).",
        ),
        db: Path | None = typer.Option(
            None, "--db", help="SQLite results file (resumed if it exists).  Without it the "
            "games go to a temporary file removed at the end: nothing to resume or report on "
            "later."
        ),
        extend: bool = typer.Option(
            False, "--extend", help="Play the run stored in --db on to more games: --games "
            "above its count, every other setting as stored.  The stored games stay; they are "
            "the longer run's first games (a deal depends on the seed and its number only)."
        ),
        rules: str = typer.Option("riichi", "--rules", help="Rule set (registry name)."),
        seed: int = typer.Option(0, "--seed", help="Run seed: walls and agent seeds."),
        length: str | None = typer.Option(
            None, "--length", help="Riichi: tonpuu (default) or hanchan."
        ),
        preset: str | None = typer.Option(
            None,
            "--preset",
            help="Rules preset. Riichi: tenhou (default), mahjong_soul or tenhou_sanma (three "
            "players); MCR: mcr_official "
            "(default) or botzone; suits108: paper (default) or table_a1_literal.",
        ),
        option: list[str] = typer.Option(
            [], "--option", help="Other rules option KEY=VALUE (repeatable)."
        ),
        # -o is --out in every other command; kept here, hidden, for old scripts.
        option_short: list[str] = typer.Option(
            [], "-o", hidden=True, help="Deprecated spelling of --option."
        ),
        seating: str = typer.Option(
            "rotations", "--seating",
            help="Seats within a deal set: rotations (each agent in each seat once) or "
            "permutations (every distinct order of the lineup: the duplicate format's full "
            "form, 24 orders for four different agents, 4 for A,B,B,B).",
        ),
        seat_errors: str = typer.Option(
            "substitute", "--seat-errors",
            help="What a botzone: seat's bad answer (malformed, illegal, late, died, oversized, "
            "unsolicited) does: substitute (counted, the safe action played, the game goes on) "
            "or forfeit (--preset botzone only: the game ends there as on Botzone, the "
            "offender -30 and each other seat +10).",
        ),
        workers: int | None = typer.Option(
            None, "--workers", "-w", min=1, max=512,
            help="Worker processes (default: CPU count).",
        ),
        backend: str = typer.Option("local", "--backend", help="local or ray (extra 'scale')."),
        tables: int = typer.Option(
            1, "--tables", "-t", min=1, max=4096,
            help="Tables each worker plays at once, a game on each; network agents (sl, pg, ...) "
            "then answer them all with one call per step (try 32).  Same deals and seeds as "
            "one at a time.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
        report: Path | None = typer.Option(
            None, "--report", help="Also write a markdown + PNG report into this folder."
        ),
        block_size: int = typer.Option(
            100, "--block-size", min=1, help="Games per block for the blocked stable dan."
        ),
        progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
        save_records: Path | None = typer.Option(
            None, "--save-records",
            help="Write every game of the run into this folder (games stored by an earlier, "
            "interrupted invocation too).",
        ),
        record_format: str = typer.Option(
            "mjai", "--format", help="Record format for --save-records: mjai, mjlog, tenhou6, "
            "or botzone_export (rules mcr, preset botzone: Botzone's match export pair)."
        ),
    ) -> None:
        """Play a duplicate-deal tournament into a resumable SQLite store and print statistics.

        Every deal is played four times with the seats rotated (or in every distinct seat
        order: --seating permutations), so luck cancels out; a run with --db that is
        interrupted resumes when started again with the same arguments.
        """
        import tempfile

        from rich.console import Console

        from tenpai.arena.games import ArenaConfigError
        from tenpai.arena.runner import (
            BackendUnavailableError,
            WorkerDiedError,
            make_config,
            run_tournament,
        )
        from tenpai.arena.saved import RecordsFolder
        from tenpai.arena.schedule import seatings_per_deal
        from tenpai.arena.store import ResultsStore
        from tenpai.arena.summary import render_summary, summarize_store
        from tenpai.textout import stdout_console

        err = Console(stderr=True)
        if option_short:
            err.print("note: -o is deprecated; use --option", markup=False)
            option = [*option, *option_short]
        keep = db is not None
        if extend and (db is None or not db.is_file()):
            _fail(err, "--extend plays a stored run on: give the --db file that holds it")
        if db is None:
            # Removed when ``tmp`` goes out of scope (its finalizer), however the command ends.
            tmp = tempfile.TemporaryDirectory(prefix="tenpai-arena-")
            db = Path(tmp.name) / "arena.db"
        if agents is None:
            from tenpai.agents.registry import default_lineup

            try:
                lineup = default_lineup(rules)
            except ValueError as exc:
                _fail(err, str(exc))
            err.print(f"agents: {','.join(lineup)} (the default line-up of --rules {rules})",
                      markup=False, soft_wrap=True)
        else:
            from tenpai.agents.spec import AgentSpecError, split_agents

            try:
                lineup = split_agents(agents)
            except AgentSpecError as exc:
                _fail(err, str(exc))
        try:
            config, rounded = make_config(
                rules, lineup, games, seed, _options(length, preset, option), seating,
                seat_errors,
            )
        except ArenaConfigError as exc:
            _fail(err, str(exc))
        if rounded:
            err.print(
                f"note: {games} games rounded up to {config.games} (whole deal sets of "
                f"{seatings_per_deal(config.agents, config.seating)} seatings)"
            )
        if report is not None:
            # Checked now, not after the last game: a bad path must not cost the whole run.
            from tenpai.arena.report import ReportError, check_report_target

            try:
                check_report_target(report)
            except ReportError as exc:
                _fail(err, str(exc))
        try:
            folder = None if save_records is None else RecordsFolder(
                save_records, record_format, config)
            with ResultsStore(db) as store:
                try:
                    outcome = run_tournament(
                        config,
                        store,
                        workers=workers,
                        backend=backend,
                        tables=tables,
                        console=err,
                        progress=progress,
                        on_game=None if folder is None else _saver(folder),
                        extend=extend,
                    )
                except KeyboardInterrupt:
                    _interrupted(err, store.game_count(), config.games, db if keep else None)
                except WorkerDiedError as exc:
                    _fail(err, f"{exc}: {_kept(store.game_count(), config.games, db, keep)}")
                if folder is not None:
                    _save_missing(folder, store, config, err, progress)
                summary = summarize_store(store, block_size)
        except (ArenaConfigError, BackendUnavailableError) as exc:
            _fail(err, str(exc))
        if folder is not None:
            summary.records = (folder.folder, folder.fmt)
            err.print(f"records of all {outcome.stored} games in {folder.folder}",
                      markup=False, soft_wrap=True)
        where = db if keep else "a temporary file (--db keeps them)"
        err.print(
            f"played {outcome.played} games now, {outcome.stored} stored in {where} "
            f"({outcome.seconds:.1f} s)", markup=False, soft_wrap=True
        )
        if report is not None:
            from tenpai.arena.report import ReportError, write_report

            try:
                index = write_report(summary, report)
            except ReportError as exc:  # the games are stored: say how to get the report
                if not keep:
                    _fail(err, str(exc))
                _fail(err, f"{exc} (the games are stored in {db}: tenpai arena-report --db "
                      f"{db} --out DIR writes the report)")
            err.print(f"report written to {index}", markup=False, soft_wrap=True)
        if as_json:
            data = summary.as_dict()
            data["run"] = {"played_now": outcome.played, "seconds": outcome.seconds}
            typer.echo(json.dumps(data, indent=2))
        else:
            render_summary(summary, stdout_console())

    @app.command("arena-report")
    def arena_report(
        db: Path = typer.Option(..., "--db", help="SQLite results file of a run."),
        out: Path = typer.Option(..., "--out", help="Folder for report.md and the plots."),
        block_size: int = typer.Option(
            100, "--block-size", min=1, help="Games per block for the blocked stable dan."
        ),
        as_json: bool = typer.Option(False, "--json", help="Also print the summary as JSON."),
        records: Path | None = typer.Option(
            None, "--records",
            help="The run's --save-records folder: the report gives each highlighted hand its "
            "`tenpai view` command.",
        ),
        with_under_riichi: bool = _UNDER_RIICHI,
    ) -> None:
        """Write the markdown + PNG report of a stored run (needs matplotlib: extra 'plot')."""
        from rich.console import Console

        from tenpai.arena.games import ArenaConfigError
        from tenpai.arena.report import ReportError, write_report
        from tenpai.arena.saved import records_format
        from tenpai.arena.store import ResultsStore, StoreError
        from tenpai.arena.summary import summarize_store
        from tenpai.arena.under_riichi import under_riichi

        err = Console(stderr=True)
        try:
            with ResultsStore(db, read_only=True) as store:
                if store.config() is None:
                    _fail(err, f"{db} holds no arena run")
                summary = summarize_store(store, block_size)
                if with_under_riichi:
                    summary.under_riichi, summary.under_riichi_skipped = under_riichi(store)
        except StoreError as exc:
            _fail(err, str(exc))
        if records is not None:
            try:
                summary.records = (records, records_format(records))
            except ArenaConfigError as exc:
                _fail(err, str(exc))
        try:
            index = write_report(summary, out)
        except ReportError as exc:
            _fail(err, str(exc))
        err.print(f"report written to {index}")
        if as_json:
            typer.echo(json.dumps(summary.as_dict(), indent=2))

    @app.command("arena-pool")
    def arena_pool(
        dbs: list[Path] = typer.Argument(..., help="Results files of runs with the same rules, "
                                         "options and --agents line-up, each with its own "
                                         "--seed."),
        block_size: int = typer.Option(
            100, "--block-size", min=1, help="Games per block for the blocked stable dan."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
        with_under_riichi: bool = _UNDER_RIICHI,
    ) -> None:
        """Statistics of several runs of one line-up on different deals, as one tournament.

        The paired tests use every deal of every run, so a second arena on new deals (another
        --seed) narrows the interval of the first.  Runs of another line-up, rules or options,
        of other model files behind an agent (e.g. another TENPAI_PG_MODEL), or two runs of one
        seed (the same deals twice), are refused.
        """
        from rich.console import Console

        from tenpai.arena.pool import PoolError, pooled_summary
        from tenpai.arena.store import StoreError
        from tenpai.arena.summary import render_summary
        from tenpai.textout import stdout_console

        err = Console(stderr=True)
        try:
            summary = pooled_summary(dbs, block_size, with_under_riichi)
        except (PoolError, StoreError) as exc:
            _fail(err, str(exc))
        if as_json:
            typer.echo(json.dumps(summary.as_dict(), indent=2))
        else:
            seeds = ", ".join(str(s) for s in summary.config["seeds"])
            render_summary(summary, stdout_console(),
                           title=f"{summary.games} games in {summary.deals} deal sets "
                           f"(seeds {seeds})")

"""`tenpai convert IN OUT --format mjai|tenhou6|mjlog|botzone_json|botzone_export`: convert one
record or a folder of them (``--to`` is the old spelling of ``--format``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tenpai.cli._flags import old_spelling, renamed

if TYPE_CHECKING:
    from tenpai.records import Game


def register(app: typer.Typer) -> None:
    @app.command("convert")
    def convert(
        ctx: typer.Context,
        src: Annotated[Path, typer.Argument(help="A record file or a folder of records.")],
        dst: Annotated[Path, typer.Argument(help="Output file (for one input) or folder.")],
        fmt: Annotated[str | None, typer.Option(
            "--format", help="Record format to write (required): mjai, tenhou6, mjlog, "
            "botzone_json or botzone_export (a Botzone match export: X_lite.json + "
            "X_metadata.json for OUT X.json).")] = None,
        to_old: str | None = old_spelling("--to", "--format"),
        lenient: Annotated[
            bool, typer.Option("--lenient", help="Keep the complete rounds of truncated records.")
        ] = False,
    ) -> None:
        """Convert game records (input format detected from content and extension)."""
        from rich.console import Console
        from rich.markup import escape

        from tenpai.progress import StepProgress
        from tenpai.records import WRITE_FORMATS, RecordError, read_games, write_game
        from tenpai.records.errors import NotAGameError, UnknownFormatError
        from tenpai.records.formats import SUFFIX
        from tenpai.replay.runner import iter_record_files, looks_like_record
        from tenpai.replay.values import fill_missing_values

        def _write(game: Game, out: Path, fmt: str) -> None:
            """``write_game`` with the file system's refusals as record errors naming OUT."""
            if out.is_dir():
                raise RecordError(f"{out} is a folder; give a file name", game.source)
            if fmt in ("mjlog", "tenhou6"):
                # Tenhou's formats carry every win's value; fill what the source left out
                game = fill_missing_values(game)
            try:
                write_game(game, out, fmt)
            except OSError as exc:
                raise RecordError(f"cannot write {out}: {exc.strerror or exc}",
                                  game.source) from exc

        to = renamed(ctx, "fmt", fmt, to_old, "--to")
        if to is None or to not in WRITE_FORMATS:
            typer.echo(f"error: --format must be one of {', '.join(WRITE_FORMATS)}"
                       + ("" if to is None else f", not {to!r}"), err=True)
            raise typer.Exit(2)
        if not src.exists():
            typer.echo(f"error: {src} does not exist", err=True)
            raise typer.Exit(2)

        def out_names(path: Path, count: int, base: Path) -> list[Path]:
            if count == 1:
                return [base]
            return [base.with_name(f"{base.stem}-{i}{base.suffix}") for i in range(count)]

        failures = 0
        if src.is_file():
            if dst.is_dir():
                # Like cp: a folder as the target of one file receives it under its own name.
                dst = dst / src.with_suffix(SUFFIX[to]).name
            try:
                games = read_games(src, strict=not lenient)
                for g, out in zip(games, out_names(src, len(games), dst)):
                    _write(g, out, to)
            except RecordError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
            if not games:  # a Botzone export's metadata file: its _lite.json carries the match
                typer.echo(f"error: {src} holds no game by itself; convert the file it "
                           "belongs to", err=True)
                raise typer.Exit(2)
            typer.echo(f"wrote {len(games)} game(s) to {dst}")
            return
        if dst.exists() and not dst.is_dir():
            typer.echo(f"error: {dst} is a file; a folder of records converts into a folder",
                       err=True)
            raise typer.Exit(2)
        # catalogue files (SOURCES.md, MANIFEST.tsv, README …) sit beside records; not failures
        files = [p for p in iter_record_files([src]) if not p.name.startswith(".")]
        if not files:
            typer.echo(f"error: {src} holds no record files; nothing converted", err=True)
            raise typer.Exit(1)
        written = 0
        notes = 0
        err = Console(stderr=True)
        with StepProgress("converting", len(files), console=err) as progress:
            for p in files:
                rel = p.relative_to(src)
                try:
                    games = read_games(p, strict=not lenient)
                    base = (dst / rel).with_suffix(SUFFIX[to])
                    for g, out in zip(games, out_names(p, len(games), base)):
                        _write(g, out, to)
                        written += 1
                except NotAGameError as exc:  # e.g. a Botzone match's metadata without its log
                    err.print(f"[yellow]not a game[/yellow] {escape(str(exc))}")
                except UnknownFormatError as exc:
                    if looks_like_record(p):
                        failures += 1
                        err.print(f"[red]skipped[/red] {escape(str(exc))}")
                    else:  # a note beside the records (a list of links, a README.txt)
                        notes += 1
                except RecordError as exc:
                    failures += 1
                    err.print(f"[red]skipped[/red] {escape(str(exc))}")
                progress.advance(note=f"{failures} failed" if failures else "")
        if written == 0 and not failures:
            typer.echo(f"error: {src} holds no game records ({notes} other files); nothing "
                       "converted", err=True)
            raise typer.Exit(1)
        typer.echo(f"wrote {written} game(s) from {len(files)} file(s); {failures} failed"
                   + (f"; {notes} not a record" if notes else ""))
        if failures:
            raise typer.Exit(1)

"""`tenpai view RECORD`: print one tenhou.net/6 viewer link per round."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("view")
    def view(
        record: Annotated[Path, typer.Argument(help="Any supported riichi record file.")],
    ) -> None:
        """Print a tenhou.net/6 viewer link for every round of a record."""
        from tenpai.records import RecordError, read_games
        from tenpai.records.tenhou6_write import viewer_links

        try:
            games = read_games(record)
            for g in games:
                for link in viewer_links(g):
                    typer.echo(link)
        except RecordError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

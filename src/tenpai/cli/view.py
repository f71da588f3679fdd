"""`tenpai view RECORD`: print one tenhou.net/6 viewer link per round, each with its name.

A link is about 1,700 characters of JSON; nine of them in a row say nothing about which hand
each opens, so every line starts with the hand ("East 2, 1 honba: https://…").  ``--bare``
prints the links alone for scripts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the records are read when the command runs, not for --help
    from tenpai.events import Event


def register(app: typer.Typer) -> None:
    @app.command("view")
    def view(
        record: Annotated[Path, typer.Argument(help="Any supported riichi record file.")],
        bare: Annotated[bool, typer.Option(
            "--bare", help="Links only, one per line (no hand names).")] = False,
    ) -> None:
        """Print a tenhou.net/6 viewer link for every round of a record."""
        from tenpai.records import RecordError, read_games
        from tenpai.records.tenhou6_write import viewer_links

        try:
            games = read_games(record)
            for i, g in enumerate(games):
                names = [_hand_name(r[0]) for r in g.rounds]
                for name, link in zip(names, viewer_links(g), strict=False):
                    prefix = f"game {i + 1}, " if len(games) > 1 else ""
                    typer.echo(link if bare else f"{prefix}{name}: {link}")
        except RecordError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


_WINDS = ("East", "South", "West", "North")


def _hand_name(start: Event) -> str:
    """East 2, or East 2, 1 honba."""
    name = f"{_WINDS[(start.bakaze or 0) % 4]} {(start.kyoku or 0) + 1}"
    return name + (f", {start.honba} honba" if start.honba else "")

"""Flags several commands share under one name, with the old names kept working.

One meaning, one flag: "stop after this many games" is ``--games`` everywhere (``arena``,
``agent-agreement``, ``mdp-agreement`` say so).  Commands that used to call it ``--limit``
keep that spelling as a hidden, deprecated alias so existing scripts do not break.
"""

from __future__ import annotations

from typing import Any

import typer

__all__ = ["ENGINE_FLAG", "LIMIT_ALIAS", "games_flag"]

#: Which Riichi round plays the hands (``RiichiGame``'s ``engine``), the same word in every
#: command: ``auto`` the compiled table where it is built and covers the rules, ``compiled``
#: that table only, ``python`` the Python round (the reference).
ENGINE_FLAG: Any = typer.Option(
    "auto", "--engine",
    help="Riichi round: auto (the compiled table where built and covering the rules), "
    "compiled (the table only), python (the Python reference round).")

#: The hidden ``--limit`` of commands that now take ``--games``.
LIMIT_ALIAS: Any = typer.Option(None, "--limit", min=0, hidden=True,
                                help="Deprecated spelling of --games.")


def games_flag(games: int | None, limit: int | None) -> int | None:
    """The game count asked for: ``--games``, or the deprecated ``--limit`` with a note.

    Giving both with different values is refused (exit 2) rather than guessing which one the
    user meant.
    """
    if limit is None:
        return games
    typer.echo("note: --limit is deprecated; use --games", err=True)
    if games is not None and games != limit:
        typer.echo(f"error: --games {games} and --limit {limit} disagree; give --games only",
                   err=True)
        raise typer.Exit(2)
    return limit

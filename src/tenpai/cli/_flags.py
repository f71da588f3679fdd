"""Flags several commands share under one name, with the old names kept working.

One meaning, one flag: "stop after this many games" is ``--games`` everywhere (``arena``,
``agent-agreement``, ``mdp-agreement`` say so).  Commands that used to call it ``--limit``
keep that spelling as a hidden, deprecated alias so existing scripts do not break; so do the
other renamed flags (``old_spelling`` and ``renamed``).  tests/cli/test_flag_meanings.py holds
every command to one type, one meaning and one short alias per long name.
"""

from __future__ import annotations

from typing import Any, TypeVar

import typer

__all__ = ["ENGINE_FLAG", "LIMIT_ALIAS", "games_flag", "old_spelling", "renamed"]

T = TypeVar("T")

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


def old_spelling(old_flag: str, flag: str, **options: Any) -> Any:
    """A hidden option that keeps a renamed flag's old spelling working (read by ``renamed``)."""
    return typer.Option(None, old_flag, hidden=True, help=f"Deprecated spelling of {flag}.",
                        **options)


def renamed(ctx: typer.Context, param: str, value: T, old: T | None, old_flag: str) -> T:
    """The value of the option ``param``, or of its deprecated spelling ``old_flag`` with a note.

    Both given with different values is refused (exit 2), as with ``--games`` and ``--limit``;
    the new flag left at its default does not count as given.
    """
    if old is None:
        return value
    flag = next(max(p.opts, key=len) for p in ctx.command.params if p.name == param)
    typer.echo(f"note: {old_flag} is deprecated; use {flag}", err=True)
    source = ctx.get_parameter_source(param)
    given = source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
    if given and value != old:
        typer.echo(f"error: {flag} {value} and {old_flag} {old} disagree; give {flag} only",
                   err=True)
        raise typer.Exit(2)
    return old

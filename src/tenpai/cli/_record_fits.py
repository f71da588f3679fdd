"""What the commands that fit a model to Tenhou records take in common (``train
opponent-models`` and ``train placement-model``): the records, the model file and the lobbies,
and how the model file is checked and written.

Declared once so the two commands cannot drift apart in what ``--room`` means, how a missing
record path or a folder as ``--out`` is refused (before a fit that can take hours), or how a
model file that cannot be written is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

__all__ = [
    "MODEL_OUT",
    "RECORDS",
    "ROOM_FLAG",
    "lobbies",
    "refuse_folder_out",
    "require_records",
    "write_model",
]

#: The positional record files or folders.
RECORDS: Any = typer.Argument(..., help="Record files or folders (Tenhou mjlog).")
#: The model file the fit writes.
MODEL_OUT: Any = typer.Option(..., "--out", help="Model file to write (JSON).")
#: The lobbies whose games are kept (``any``: all).
ROOM_FLAG: Any = typer.Option("houou", "--room", help="Tenhou lobbies to keep, comma-separated; "
                              "'any' keeps all.")


def lobbies(room: str) -> tuple[str, ...] | None:
    """The lobbies ``--room`` names, or None when it keeps them all."""
    return None if room == "any" else tuple(room.split(","))


def require_records(data: Sequence[Path]) -> None:
    """Exit 2 naming the first record path that does not exist."""
    for p in data:
        if not p.exists():
            typer.echo(f"error: {p}: no such file or folder", err=True)
            raise typer.Exit(2)


def refuse_folder_out(out: Path) -> None:
    """Exit 2 when ``--out`` is an existing folder: the fit would run and then fail to write."""
    if out.is_dir():
        typer.echo(f"error: --out {out} is a folder; give the model file to write", err=True)
        raise typer.Exit(2)


def write_model(save: Callable[[Path], None], out: Path) -> None:
    """Write the fitted model with ``save`` (which writes atomically, so a failure leaves no
    half-written file); exit 2 in one line when the file cannot be written."""
    try:
        save(out)
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None

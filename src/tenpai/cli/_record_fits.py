"""What the commands that fit a model to Tenhou records take in common (``train
opponent-models`` and ``train placement-model``): the records, the model file and the lobbies.

Declared once so the two commands cannot drift apart in what ``--room`` means or how a missing
record path is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

__all__ = ["MODEL_OUT", "RECORDS", "ROOM_FLAG", "lobbies", "require_records"]

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

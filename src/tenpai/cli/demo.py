"""``tenpai demo``: not implemented yet."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Registered once the engine exists."""

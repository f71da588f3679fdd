"""`tenpai view`: not implemented yet (see the issue list)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """No command yet; registering nothing keeps `tenpai --help` honest."""

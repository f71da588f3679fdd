"""Small builders shared by the arena tests."""

from __future__ import annotations

from typing import Any

import typer
from typer.testing import CliRunner

from tenpai.arena.store import SeatRow
from tenpai.cli import arena as arena_cli


def arena_app() -> typer.Typer:
    """A Typer app with only the arena commands (``arena``, ``arena-report``, ``arena-pool``)."""
    app = typer.Typer()
    arena_cli.register(app)
    return app


def run_cli(app: typer.Typer, *args: str) -> Any:
    """Invoke ``app`` with ``args``; the result carries exit code, stdout and stderr."""
    return CliRunner().invoke(app, list(args))


def row(deal: int, rotation: int, seat: int, agent: str, rank: int, **kw: int) -> SeatRow:
    """A stored seat with defaults for the tallies a test does not care about."""
    return SeatRow(
        deal=deal,
        rotation=rotation,
        seat=seat,
        agent=agent,
        score=kw.get("score", 25_000),
        rank=rank,
        hands=kw.get("hands", 4),
        wins=kw.get("wins", 0),
        deal_ins=kw.get("deal_ins", 0),
        riichi=kw.get("riichi", 0),
        calls=kw.get("calls", 0),
    )

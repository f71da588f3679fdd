"""``tenpai demo``: a few seeded games between built-in agents, with a result table.

It is the README's first command, so it must work on a fresh install with no data and no
torch, finish in well under a minute, and show something a newcomer can read.
"""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def demo(
        games: int = typer.Option(
            12, "--games", "-n", min=1, help="Games to play (seats rotate within each deal)."
        ),
        seed: int = typer.Option(2026, "--seed", help="Seed for walls and agents."),
        agents: str = typer.Option(
            "efficiency,random,efficiency,random",
            "--agents",
            help="Four comma-separated agent names (seats rotate every game).",
        ),
        length: str = typer.Option("tonpuu", "--length", help="tonpuu (East only) or hanchan."),
    ) -> None:
        """Play seeded Riichi games between built-in agents and print a result table."""
        from tenpai.arena.quick import run_quick_match

        names = [a.strip() for a in agents.split(",") if a.strip()]
        if len(names) != 4:
            raise typer.BadParameter("give exactly four agent names", param_hint="--agents")
        if length not in ("tonpuu", "hanchan"):
            raise typer.BadParameter("choose tonpuu or hanchan", param_hint="--length")
        try:
            run_quick_match(names, games=games, seed=seed, length=length)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--agents") from exc

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
            12, "--games", "-n", min=1, max=10_000,
            help="Games to play (seats rotate within each deal).",
        ),
        seed: int = typer.Option(2026, "--seed", help="Seed for walls and agents."),
        agents: str = typer.Option(
            "efficiency,random,efficiency,random",
            "--agents",
            help="Four comma-separated agent names (seats rotate every game).",
        ),
        length: str = typer.Option("tonpuu", "--length", help="tonpuu (East only) or hanchan."),
        fast: bool = typer.Option(
            False, "--fast", help="Skip showing the first game; print only the result table."
        ),
        delay: float = typer.Option(
            0.05, "--delay", min=0.0, help="Seconds per discard while the first game is shown."
        ),
    ) -> None:
        """Show one seeded Riichi game as it is played, then a table of several.

        On a terminal the first game is drawn live (every hand visible, as a spectator sees
        it; Ctrl-C skips to the table); piped, each hand's final table is printed instead.
        """
        from tenpai.agents.spec import AgentSpecError, split_agents
        from tenpai.arena.quick import run_quick_match

        try:
            names = split_agents(agents)
        except AgentSpecError as exc:
            raise typer.BadParameter(str(exc), param_hint="--agents") from exc
        if len(names) != 4:
            raise typer.BadParameter("give exactly four agent names", param_hint="--agents")
        if length not in ("tonpuu", "hanchan"):
            raise typer.BadParameter("choose tonpuu or hanchan", param_hint="--length")
        if not fast:
            _show_first_game(names, seed, length, delay)
        try:
            run_quick_match(names, games=games, seed=seed, length=length)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--agents") from exc


def _show_first_game(names: list[str], seed: int, length: str, delay: float) -> None:
    """The match's first game, drawn as it is played (bad names are left to the match)."""



    from tenpai.arena.games import ArenaConfigError
    from tenpai.arena.watch import watch_game
    from tenpai.textout import stdout_console

    console = stdout_console()
    console.print(f"[bold]The first game of the match:[/bold] {', '.join(names)}")
    try:
        view = watch_game(names, seed=seed, options={"length": length}, console=console,
                          delay=delay)
    except KeyboardInterrupt:
        console.print("(skipped to the results)")
        return
    except (ArenaConfigError, ValueError):
        return  # the match below names the bad agent with its usual message
    final = ", ".join(f"{n} {s:,}" for n, s in zip(view.names, view.scores, strict=False))
    console.print(f"[bold]Final scores:[/bold] {final}\n")

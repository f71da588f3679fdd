"""``tenpai mjai-bot``: a built-in agent as an mjai bot (stdio JSON lines, or mjsonp over TCP).

Exit codes: 0 the input ended (stdio) or the game ended (mjsonp); 2 bad usage, an unreadable
line, a server error or a game the bot cannot follow (the reason is one line on stderr).
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def register(app: typer.Typer) -> None:
    @app.command("mjai-bot")
    def mjai_bot(
        agent: str = typer.Option(..., "--agent", help="Built-in agent name (e.g. efficiency)."),
        seat: int | None = typer.Option(
            None, "--seat", min=0, max=3,
            help="Play this seat whatever start_game says (0-2 at three players)."
        ),
        seat_from_start_game: bool = typer.Option(
            False,
            "--seat-from-start-game",
            help="Take the seat from start_game's id and fail if it has none (default: the id "
            "when given, else seat 0).",
        ),
        connect: str | None = typer.Option(
            None, "--connect", help="mjsonp://host:port/room: join an mjai server over TCP."
        ),
        name: str = typer.Option("tenpai", "--name", help="Player name sent in join."),
        seed: int = typer.Option(0, "--seed", help="Agent seed."),
        preset: str = typer.Option(
            "tenhou", "--preset",
            help="Riichi rules preset (tenhou_sanma: three players, three hands in start_kyoku, "
            "North set aside as nukidora)."),
        length: str | None = typer.Option(
            None, "--length",
            help="Game length, tonpuu or hanchan (default the preset's: hanchan, what mjai "
            "servers play). mjai never says it, and agents that value the game's end (search, "
            "mcts_pg) read it: as a seat of `tenpai arena` (tonpuu by default) pass tonpuu."),
        budget_ms: float | None = typer.Option(
            None, "--budget-ms", help="Think time per searched decision in ms (agent search; "
            "default its $TENPAI_SEARCH_BUDGET_MS, 300)."),
    ) -> None:
        """Play one agent over mjai: events in on stdin, one action out when a decision is due
        ({"type":"none"} for a pass); with --connect, an mjsonp TCP client instead."""
        from tenpai.agents.budget import set_budget_ms
        from tenpai.agents.registry import AGENTS, is_known_agent, make_agent
        from tenpai.agents.rulesets import check_agent_rules, check_built_agent
        from tenpai.rules.riichi.ruleset import PRESETS
        from tenpai.serve.mjai.bot import BotError, MjaiBot
        from tenpai.serve.mjai.io import run_mjsonp, run_stdio

        def fail(message: str) -> NoReturn:
            sys.stderr.write(f"tenpai mjai-bot: error: {message}\n")
            sys.stderr.flush()
            raise typer.Exit(2)

        if preset not in PRESETS:
            fail(f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}")
        if length is not None and length not in ("tonpuu", "hanchan"):
            fail(f"--length must be tonpuu or hanchan, not {length!r}")
        rules = PRESETS[preset] if length is None else PRESETS[preset].with_(length=length)
        players = rules.players
        if seat is not None and seat >= players:
            fail(f"--seat {seat} is not a seat of preset {preset!r} ({players} players: "
                 f"0-{players - 1})")
        if not is_known_agent(agent):
            fail(f"unknown agent {agent!r}; known: {', '.join(sorted(AGENTS))}")
        if budget_ms is not None and not budget_ms > 0:
            fail(f"--budget-ms must be > 0, got {budget_ms:g}")
        try:
            check_agent_rules(agent, "riichi")  # mjai is a Riichi protocol
            player = make_agent(agent, seed)
            check_built_agent(agent, player, "riichi", players)
            if budget_ms is not None:
                set_budget_ms(agent, player, budget_ms)
            bot = MjaiBot(
                player,
                seat=seat,
                seat_from_start_game=seat_from_start_game,
                name=name,
                rules=rules,
            )
        except (ValueError, OSError, ImportError, BotError) as exc:
            fail(str(exc))
        try:
            if connect is not None:
                run_mjsonp(bot, connect)
            else:
                run_stdio(bot, sys.stdin, sys.stdout)
        except BotError as exc:
            fail(str(exc))
        except BrokenPipeError:
            # The server went away while we wrote: nothing more to say to it.
            sys.stderr.write("tenpai mjai-bot: the other side closed the pipe\n")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None

"""``tenpai tenhou-table`` (a local Tenhou-protocol table server) and ``tenpai tenhou-client``
(a built-in agent at any Tenhou-protocol table).

Exit codes: 0 success; 1 a table failed (its game is reported, the server went on) or the
client lost its game; 2 bad usage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from tenpai.cli._flags import old_spelling, renamed


def _fail(command: str, message: str) -> None:
    sys.stderr.write(f"tenpai {command}: error: {message}\n")
    sys.stderr.flush()
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    @app.command("tenhou-table")
    def tenhou_table(
        ctx: typer.Context,
        port: int = typer.Option(10080, "--port", min=0, max=65535, help="TCP port (0: any)."),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        preset: str = typer.Option("tenhou", "--preset", help="Riichi rules preset "
                                   "(tenhou_sanma: three-player tables)."),
        rules: str | None = old_spelling("--rules", "--preset"),
        length: str = typer.Option("tonpuu", "--length", help="tonpuu or hanchan."),
        games: int = typer.Option(1, "--games", min=0, help="Stop after N games (0: never)."),
        save: Path | None = typer.Option(None, "--save-records", help="Write each game's "
                                         "mjlog into this folder (and results.jsonl)."),
        save_old: Path | None = old_spelling("--save", "--save-records"),
        fill: list[str] = typer.Option([], "--fill", help="A built-in agent for one seat; "
                                       "repeat for more (the table waits for the others)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the first game (then +1 per game)."),
        timeout: float = typer.Option(60.0, "--decision-timeout", min=0.1,
                                      help="Seconds a client has per decision; one that does "
                                      "not answer is dropped and its seat plays on by itself."),
        timeout_old: float | None = old_spelling("--timeout", "--decision-timeout", min=0.1),
        ready_timeout: float = typer.Option(30.0, "--ready-timeout", min=0.1,
                                            help="Seconds to wait for NEXTREADY."),
        all_last: bool = typer.Option(False, "--all-last", help="Start each game at its last "
                                      "East hand (East 4, East 3 with three players) with seat "
                                      "0 6,000 ahead (in tonpuu the game's last hand): short "
                                      "games for tests; saved as mjlog fragments."),
    ) -> None:
        """Serve Tenhou-protocol games: clients log in (HELO), JOIN, and are seated four (three
        with --preset tenhou_sanma) to a table (or with --fill agents); every finished game is
        summarised on stdout as a JSON line and, with --save-records, written as an mjlog.
        To measure an agent against three tenhou-python-bots at this table:
        python -m tenpai.serve.tenhou.measure --help."""
        import asyncio

        from tenpai.rules.riichi.ruleset import PRESETS
        from tenpai.serve.tenhou.server import ServerConfig, TableServer
        from tenpai.serve.tenhou.table import TableConfig

        preset = renamed(ctx, "preset", preset, rules, "--rules")
        save = renamed(ctx, "save", save, save_old, "--save")
        timeout = renamed(ctx, "timeout", timeout, timeout_old, "--timeout")
        if preset not in PRESETS:
            _fail("tenhou-table", f"unknown rules {preset!r}; known: {', '.join(sorted(PRESETS))}")
        if length not in ("tonpuu", "hanchan"):
            _fail("tenhou-table", f"--length must be tonpuu or hanchan, not {length!r}")
        chosen = PRESETS[preset].with_(length=length)
        n = chosen.players
        ahead = (chosen.starting_points + 6_000, *(chosen.starting_points - 6_000 // (n - 1),)
                 * (n - 1))
        table = TableConfig(
            rules=chosen,
            timeout=timeout,
            ready_timeout=ready_timeout,
            start=(0, n - 1, 0, 0) if all_last else None,
            scores=ahead if all_last else None,
        )
        config = ServerConfig(host=host, port=port, games=games, fill=tuple(fill), seed=seed,
                              save=save, table=table)

        def on_event(kind: str, info: dict[str, object]) -> None:
            if kind == "finished":
                sys.stdout.write(json.dumps(info, ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                shown = " ".join(f"{k}={v}" for k, v in info.items())
                sys.stderr.write(f"tenhou-table: {kind} {shown}\n")
                sys.stderr.flush()

        try:
            server = TableServer(config, on_event)
        except ValueError as exc:
            _fail("tenhou-table", str(exc))

        async def main() -> list[str]:
            try:
                await server.start()
            except OSError as exc:
                _fail("tenhou-table", f"cannot listen on {host}:{port}: {exc}")
            await server.serve()
            return server.failures

        try:
            failures = asyncio.run(main())
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        for line in failures:
            sys.stderr.write(f"tenhou-table: failed {line}\n")
        raise typer.Exit(1 if failures else 0)

    @app.command("tenhou-client")
    def tenhou_client(
        ctx: typer.Context,
        host: str = typer.Option("127.0.0.1", "--host", help="Table server host."),
        port: int = typer.Option(10080, "--port", min=1, max=65535, help="Table server port."),
        agent: str = typer.Option(..., "--agent", help="Built-in agent name (e.g. sl)."),
        games: int = typer.Option(1, "--games", min=1, help="Games to play, one after another."),
        name: str | None = typer.Option(None, "--name", help="Player name (default: the agent)."),
        seed: int = typer.Option(0, "--seed", help="Agent seed."),
        game_type: int = typer.Option(1, "--type", help="Tenhou game type asked for in JOIN "
                                      "(bit 0x10: three players, e.g. 17)."),
        timeout: float = typer.Option(600.0, "--idle-timeout", min=1.0,
                                      help="Give up after this many seconds without a message "
                                      "from the table (in the lobby too)."),
        timeout_old: float | None = old_spelling("--timeout", "--idle-timeout", min=1.0),
        verbose: bool = typer.Option(False, "--verbose", help="Log every message on stderr."),
        budget_ms: float | None = typer.Option(
            None, "--budget-ms", help="Think time per searched decision in ms (agent search; "
            "default its $TENPAI_SEARCH_BUDGET_MS, 300)."),
    ) -> None:
        """Play a built-in agent at a Tenhou-protocol table; one JSON line per game on stdout
        (final scores from our seat, rank, decisions).  The agent is checked for the table size
        --type asks for, and again for the one the server announces in GO (exit 2 if it cannot
        play it)."""
        from tenpai.agents.budget import set_budget_ms
        from tenpai.agents.registry import make_agent
        from tenpai.agents.rulesets import check_built_agent
        from tenpai.serve.tenhou.client import ClientError, TableSizeError, TenhouClient

        timeout = renamed(ctx, "timeout", timeout, timeout_old, "--timeout")
        if budget_ms is not None and not budget_ms > 0:
            _fail("tenhou-client", f"--budget-ms must be > 0, got {budget_ms:g}")
        try:
            player = make_agent(agent, seed)
            check_built_agent(agent, player, "riichi", 3 if game_type & 0x10 else 4)
            if budget_ms is not None:
                set_budget_ms(agent, player, budget_ms)
        except (ValueError, OSError, ImportError) as exc:
            _fail("tenhou-client", str(exc))

        def log(line: str) -> None:
            sys.stderr.write(line + "\n")

        def check_players(players: int) -> None:
            check_built_agent(agent, player, "riichi", players)

        client = TenhouClient(player, host, port, name=name or agent, game_type=game_type,
                              timeout=timeout, log=log if verbose else None,
                              check_players=check_players)
        for number in range(1, games + 1):
            try:
                outcome = client.play_game()
            except TableSizeError as exc:
                _fail("tenhou-client", f"game {number}: {exc}")
            except ClientError as exc:
                sys.stderr.write(f"tenpai tenhou-client: game {number}: {exc}\n")
                raise typer.Exit(1) from None
            except KeyboardInterrupt:
                raise typer.Exit(130) from None
            row = {"game": number, "rank": outcome.rank, "scores": outcome.scores,
                   "points": outcome.points, "decisions": outcome.decisions}
            sys.stdout.write(json.dumps(row) + "\n")
            sys.stdout.flush()

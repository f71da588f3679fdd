"""``tenpai botzone-bot`` (an MCR agent speaking Botzone's protocol on stdio) and
``tenpai botzone-package`` (the files to upload to Botzone for one agent).

Exit codes: botzone-bot 0 when the input ends (keep running) or after its one answer, 2 when a
per-turn input was unreadable or did not fit the match (it still printed a safe answer) or the
agent cannot be built;
botzone-package 0 built (and checked), 2 bad usage, 1 the built package failed its check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def _fail(command: str, message: str) -> None:
    sys.stderr.write(f"tenpai {command}: error: {message}\n")
    sys.stderr.flush()
    raise typer.Exit(2)


def _default_agent() -> str:
    """MCR's default agent, read from the registry only when no --agent is given."""
    from tenpai.agents.registry import default_agent

    return default_agent("mcr")


def register(app: typer.Typer) -> None:
    @app.command("botzone-bot")
    def botzone_bot(
        agent: str | None = typer.Option(None, "--agent", help="MCR agent name, settings in "
                                         "brackets allowed (default: planner, the strongest "
                                         "measured; e.g. efficiency, pg_mcr, "
                                         "planner[CLAIMS=0.3])."),
        interaction: str = typer.Option("simple", "--interaction",
                                        help="Botzone input form: simple or json."),
        keep_running: bool = typer.Option(
            False, "--keep-running",
            help="Stay alive between turns (print Botzone's keep-running line after each "
            "answer; later inputs are single requests)."),
        seed: int = typer.Option(0, "--seed", help="Agent seed."),
    ) -> None:
        """Play one MCR agent as a Botzone bot (Chinese-Standard-Mahjong): the history of
        requests on stdin, one response on stdout per turn."""
        from tenpai.agents.registry import make_agent
        from tenpai.agents.rulesets import UnsupportedRulesError, check_agent_rules
        from tenpai.serve.botzone.bot import BotzoneBot
        from tenpai.serve.botzone.io import run_bot

        if interaction not in ("simple", "json"):
            _fail("botzone-bot", f"--interaction must be simple or json, not {interaction!r}")
        name = agent if agent is not None else _default_agent()
        try:
            check_agent_rules(name, "mcr")
            make_agent(name, seed)  # fail now, in one line, not on the first request
        except (ValueError, UnsupportedRulesError, ImportError, OSError) as exc:
            _fail("botzone-bot", str(exc))

        def make() -> BotzoneBot:
            return BotzoneBot(make_agent(name, seed))

        try:
            code = run_bot(make, sys.stdin, sys.stdout, sys.stderr,
                           interaction="json" if interaction == "json" else "simple",
                           keep_running=keep_running)
        except BrokenPipeError:
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        raise typer.Exit(code)

    @app.command("botzone-package")
    def botzone_package(
        agent: str | None = typer.Option(None, "--agent", help="MCR agent name, settings in "
                                         "brackets allowed and baked into the bot (default: "
                                         "planner, the strongest measured)."),
        out: Path = typer.Option(..., "--out", help="Folder to write the upload files to."),
        model: Path | None = typer.Option(None, "--model",
                                          help="Model file for a network agent (default: "
                                          "the shipped one)."),
        keep_running: bool = typer.Option(True, "--keep-running/--per-turn",
                                          help="Whether the uploaded bot keeps running."),
        seed: int = typer.Option(0, "--seed", help="Agent seed."),
        check: bool = typer.Option(True, "--check/--no-check",
                                   help="Run the built package on a sample match first."),
    ) -> None:
        """Build the files to upload to Botzone for one agent (docs/botzone.md)."""
        from tenpai.serve.botzone.package import PackageError, build_package, check_package

        try:
            built = build_package(agent if agent is not None else _default_agent(), out,
                                  model=model, keep_running=keep_running,
                                  seed=seed)
        except PackageError as exc:
            _fail("botzone-package", str(exc))
        for line in built.summary():
            typer.echo(line)
        if check:
            problem = check_package(built)
            if problem:
                sys.stderr.write(f"tenpai botzone-package: check failed: {problem}\n")
                raise typer.Exit(1)
            typer.echo("check: the packaged bot answered a sample match legally")

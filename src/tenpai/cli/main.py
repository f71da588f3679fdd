"""Entry point of the ``tenpai`` command.

Each subcommand lives in its own module and imports its heavy dependencies inside the command
body, so ``tenpai --help`` stays instant.  Exit codes: 0 success, 1 a check failed (a replay
diverged, a test-like command found problems), 2 bad usage or unreadable input.
"""

from __future__ import annotations

import typer

from tenpai import __version__
from tenpai.cli import (
    HELP_MARKUP,
    arena,
    bench,
    convert,
    dataset,
    demo,
    opponent_models,
    placement_model,
    replay,
    train,
    train_mcts,
    train_pg,
    train_pg_planner,
    verify,
    view,
)
from tenpai.cli import botzone as botzone_cmd
from tenpai.cli import eval as eval_cmd
from tenpai.cli import explain as explain_cmd
from tenpai.cli import mjai as mjai_cmd
from tenpai.cli import serve as serve_cmd
from tenpai.cli import tenhou as tenhou_cmd

app = typer.Typer(
    name="tenpai",
    help="Mahjong AI research platform: rules engines, records, agents and arena.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=HELP_MARKUP,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tenpai {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Mahjong AI research platform: rules engines, records, agents and arena."""


demo.register(app)
arena.register(app)
replay.register(app)
convert.register(app)
view.register(app)
app.add_typer(bench.app, name="bench")
app.add_typer(verify.app, name="verify")
dataset.register(app)
train_pg.register(train.app)
train_pg_planner.register(train.app)
train_mcts.register(train.app)
opponent_models.register(train.app)
placement_model.register(train.app)
train.register(app)
eval_cmd.register(app)
serve_cmd.register(app)
mjai_cmd.register(app)
botzone_cmd.register(app)
tenhou_cmd.register(app)
explain_cmd.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

"""``tenpai bench …``: speed against peer libraries, measured in one run on the same inputs."""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks against peer libraries (run in one process, same inputs).",
                  no_args_is_help=True)

"""``tenpai bench …``: speed against peer libraries, measured in one run on the same inputs."""

from __future__ import annotations

import json

import typer

app = typer.Typer(help="Benchmarks against peer libraries (run in one process, same inputs).",
                  no_args_is_help=True)


@app.command("hand")
def hand(
    n: int = typer.Option(20_000, "--n", min=10, help="Number of random hands (13/14 tiles)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the hand generator."),
    repeat: int = typer.Option(3, "--repeat", min=1, help="Timed passes; the best counts."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Shanten, is_complete, ukeire and MCR shanten against mahjong, riichienv, PyMahjongGB."""
    from tenpai.bench.hand import render, run_hand_bench

    result = run_hand_bench(n=n, seed=seed, repeat=repeat)
    render(result)
    if as_json:
        typer.echo(json.dumps(result.summary(), sort_keys=True))

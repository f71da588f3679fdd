"""``tenpai train opponent-models DATA --out FILE``: fit the opponent models of seed 001."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from tenpai.cli._flags import LIMIT_ALIAS, games_flag, old_spelling, renamed
from tenpai.cli._record_fits import (
    MODEL_OUT,
    RECORDS,
    ROOM_FLAG,
    lobbies,
    refuse_folder_out,
    require_records,
    write_model,
)

__all__ = ["register"]


def opponent_models(
    ctx: typer.Context,
    data: list[Path] = RECORDS,
    out: Path = MODEL_OUT,
    room: str = ROOM_FLAG,
    rooms: str | None = old_spelling("--rooms", "--room"),
    games: int | None = typer.Option(
        None, "--games", min=0, help="At most this many games (0 or unset: all)."
    ),
    limit: int | None = LIMIT_ALIAS,
    as_json: bool = typer.Option(False, "--json", help="Print the metrics as one JSON object."),
) -> None:
    """Fit P(tenpai) per (discards, calls), P(tile deals in | tenpai), the other-win hazard,
    the horizon ratio, the final-rank model and the ron payment histograms; report held-out
    log-loss and AUC."""
    room = renamed(ctx, "room", room, rooms, "--rooms")
    from tenpai.mdp.fit import FitOptions, collect, fit_models, iter_games

    require_records(data)
    refuse_folder_out(out)
    opts = FitOptions(rooms=lobbies(room), limit=games_flag(games, limit) or None)
    t0 = time.process_time()
    samples = collect(iter_games(data, opts), opts)
    if not samples.games.get("train"):
        typer.echo("error: no four-player game of the chosen lobbies in the train split", err=True)
        raise typer.Exit(2)
    models = fit_models(samples, opts, source=", ".join(str(p) for p in data))
    models.meta["cpu_seconds"] = round(time.process_time() - t0, 1)
    write_model(models.save, out)
    if as_json:
        typer.echo(json.dumps(models.metrics, sort_keys=True))
        return
    typer.echo(f"games: {dict(samples.games)}; wrote {out}")
    for name, m in models.metrics.items():
        shown = ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in m.items())
        typer.echo(f"{name}: {shown}")


def register(train_app: typer.Typer) -> None:
    train_app.command("opponent-models")(opponent_models)

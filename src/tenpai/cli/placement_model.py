"""``tenpai train placement-model DATA --out FILE``: fit the search's placement value model."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from tenpai.cli._flags import old_spelling, renamed
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


def placement_model(
    ctx: typer.Context,
    data: list[Path] = RECORDS,
    out: Path = MODEL_OUT,
    room: str = ROOM_FLAG,
    rooms: str | None = old_spelling("--rooms", "--room"),
    l2: float = typer.Option(1.0, "--l2", min=0.0, help="L2 penalty on the standardised weights."),
    players: int = typer.Option(4, "--players", help="Table size: 4, or 3 for the three-player "
                                "(tenhou_sanma) records."),
    as_json: bool = typer.Option(False, "--json", help="Print the metrics as one JSON object."),
) -> None:
    """Fit P(final rank | scores, hands left, dealer, honba, deposits, seat) on the records'
    hand starts; report held-out log-loss against the constant model and the scores-only
    ordering, and calibration."""
    room = renamed(ctx, "room", room, rooms, "--rooms")
    from tenpai.search.placement_fit import collect_rows, fit_placement, iter_houou_games

    if players not in (3, 4):
        typer.echo(f"error: --players must be 3 or 4, got {players}", err=True)
        raise typer.Exit(2)
    require_records(data)
    refuse_folder_out(out)
    chosen = lobbies(room)
    t0 = time.process_time()
    rows = collect_rows(iter_houou_games(data, chosen, players=players), players)
    if not rows.y["train"]:
        word = {3: "three", 4: "four"}[players]
        typer.echo(f"error: no complete {word}-player game of the chosen lobbies in the train "
                   "split", err=True)
        raise typer.Exit(2)
    model = fit_placement(rows, l2=l2)
    model.meta.update({"source": ", ".join(str(p) for p in data), "rooms": room,
                       "players": players,
                       "cpu_seconds": round(time.process_time() - t0, 1)})
    write_model(model.save, out)
    m = model.metrics
    if as_json:
        typer.echo(json.dumps(m, sort_keys=True))
        return
    typer.echo(f"games: train {rows.games['train']}, held out {rows.games['heldout']}; "
               f"rows: train {m['train_rows']}, held out {m.get('heldout_rows', 0)}; wrote {out}")
    if "heldout_log_loss" in m:
        typer.echo(f"held-out log-loss {m['heldout_log_loss']:.4f} (constant model "
                   f"{m['heldout_log_loss_constant']:.4f}, scores-only ordering "
                   f"{m['heldout_log_loss_scores_only']:.4f}); accuracy "
                   f"{m['heldout_accuracy']:.3f}; expected-rank MAE "
                   f"{m['heldout_expected_rank_mae']:.3f}")
        last = "fourth" if players == 4 else "third"
        for name in ("calibration_first", f"calibration_{last}"):
            shown = "  ".join(f"{r['predicted']:.2f}->{r['observed']:.2f}" for r in m[name])
            typer.echo(f"{name} (decile predicted->observed): {shown}")


def register(train_app: typer.Typer) -> None:
    train_app.command("placement-model")(placement_model)

"""``tenpai dataset build``: records → encoded decision shards with a manifest.

The work is in :mod:`tenpai.learn.dataset`; this module only parses options and shows progress.
"""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(
    help="Build supervised-learning datasets from real records.", no_args_is_help=True
)


@app.command("build")
def build(
    records: list[Path] = typer.Argument(
        ..., help="Record files or folders (searched deeply), then the output directory."
    ),
    out: Path = typer.Argument(..., help="Empty output directory (created)."),
    encoder: str = typer.Option("gao68", "--encoder", "-e", help="gao56, gao68, gao86, ffn352."),
    kinds: str = typer.Option(
        "discard,riichi,pon,chi,kan", "--kinds", help="Decision kinds to keep, comma-separated."
    ),
    split: str = typer.Option(
        "train,dev,test", "--split", help="Splits to write (by a hash of the game id)."
    ),
    room: str = typer.Option(
        "houou", "--room", help="Tenhou lobbies to keep, comma-separated; 'any' keeps all."
    ),
    max_loss: int = typer.Option(
        1500,
        "--max-loss",
        help="Gao's filter: drop a player's round when it lost more than this; -1 keeps all.",
    ),
    shard_size: int = typer.Option(20000, "--shard-size", min=100, help="Samples per shard."),
    limit: int = typer.Option(0, "--limit", min=0, help="Stop after this many games (0: all)."),
) -> None:
    """Replay each four-player game, keep its decisions and write them as .npz shards."""
    from rich.console import Console
    from rich.progress import Progress

    from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset
    from tenpai.replay.runner import iter_record_files

    opts = BuildOptions(
        encoder=encoder,
        kinds=tuple(k.strip() for k in kinds.split(",") if k.strip()),
        splits=tuple(s.strip() for s in split.split(",") if s.strip()),
        rooms=None if room == "any" else tuple(r.strip() for r in room.split(",")),
        max_loss=None if max_loss < 0 else max_loss,
        shard_size=shard_size,
        limit=limit or None,
    )
    missing = [p for p in records if not p.exists()]
    if missing:
        typer.echo(f"error: no such file or folder: {missing[0]}", err=True)
        raise typer.Exit(2)
    console = Console(stderr=True)
    total = sum(1 for _ in iter_record_files(records))
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("building", total=total)
            manifest = build_dataset(records, out, opts, on_file=lambda _f: progress.advance(task))
    except (DatasetError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    console.print(f"encoder {manifest['encoder']}, games {manifest['games_per_split']}")
    for s, counts in manifest["counts"].items():
        console.print(f"  {s}: " + ", ".join(f"{k} {n:,}" for k, n in counts.items()))
    if manifest["skipped"]:
        console.print("  skipped: " + ", ".join(f"{r} {n}" for r, n in manifest["skipped"].items()))
    console.print(f"wrote {out / 'manifest.json'}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="dataset")

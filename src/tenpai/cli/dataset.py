"""``tenpai dataset build``: records → encoded decision shards with a manifest.

The work is in :mod:`tenpai.learn.dataset` (Riichi) and :mod:`tenpai.learn.mcr.dataset`
(``--rules mcr``, through :mod:`tenpai.cli._mcr_learn`); this module only parses options and
shows progress.  An MCR build reads one records file or folder and always writes every split
and decision kind, so the Riichi filters and sharding options are refused with ``--rules mcr``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from tenpai.cli import _mcr_learn
from tenpai.cli._mcr_learn import Rules

#: Options of the Riichi builder that the MCR one has no use for (refused with --rules mcr).
_RIICHI_ONLY = ("kinds", "split", "room", "max_loss", "shard_size", "limit", "workers")

app = typer.Typer(
    help="Build supervised-learning datasets from real records.", no_args_is_help=True
)


@app.command("build")
def build(
    ctx: typer.Context,
    records: list[Path] = typer.Argument(
        ..., help="Record files or folders (searched deeply), then the output directory."
    ),
    out: Path = typer.Argument(..., help="Empty output directory (created)."),
    rules: Rules = typer.Option(
        Rules.riichi, "--rules", help="riichi: Tenhou records; mcr: one Botzone folder or file."
    ),
    encoder: str | None = typer.Option(
        None,
        "--encoder",
        "-e",
        help="Riichi: gao56, gao68 (default), gao86, gao86e or ffn352. "
        "MCR: mcr_stack002 (default) or mcr_ffn352.",
    ),
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
    workers: int = typer.Option(
        1, "--workers", min=1, help="Processes replaying records (same shards for any count)."
    ),
) -> None:
    """Replay each four-player game, keep its decisions and write them as .npz shards.

    With --rules mcr the Riichi-only options (--kinds, --split, --room, --max-loss,
    --shard-size, --limit) are refused: an MCR dataset holds every split and kind.
    """
    if rules is Rules.mcr:
        _mcr_learn.reject_options(ctx, _RIICHI_ONLY)
        _mcr_learn.build_mcr(records, out, encoder or _mcr_learn.DEFAULT_MCR_ENCODER)
        return
    encoder = encoder or "gao68"
    _mcr_learn.check_encoder_rules(encoder, rules)
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
            manifest = build_dataset(
                records, out, opts, on_file=lambda _f: progress.advance(task), workers=workers
            )
    except (DatasetError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    console.print(f"encoder {manifest['encoder']}, games {manifest['games_per_split']}")
    for s, counts in manifest["counts"].items():
        console.print(f"  {s}: " + ", ".join(f"{k} {n:,}" for k, n in counts.items()))
    if manifest["skipped"]:
        console.print("  skipped: " + ", ".join(f"{r} {n}" for r, n in manifest["skipped"].items()))
    console.print(f"wrote {out / 'manifest.json'}")


@app.command("derive")
def derive(
    source: Path = typer.Argument(..., help="A built gao86 dataset."),
    out: Path = typer.Argument(..., help="Empty output directory (created)."),
    encoder: str = typer.Option("gao86e", "--encoder", "-e", help="Target encoder: gao86e."),
) -> None:
    """Re-encode a built gao86 dataset as gao86e without replaying the records.

    The efficiency channels need only the counts gao86 shards already hold, so this takes
    minutes where a fresh build replays every game; the shards are identical to a fresh build.
    """
    from rich.console import Console
    from rich.progress import Progress

    from tenpai.learn.dataset import DatasetError, load_manifest
    from tenpai.learn.derive import derive_dataset

    console = Console(stderr=True)
    try:
        total = len(load_manifest(source)["shards"])
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("re-encoding shards", total=total)
            manifest = derive_dataset(
                source, out, encoder, on_shard=lambda _p: progress.advance(task)
            )
    except DatasetError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    console.print(f"encoder {manifest['encoder']}, {total} shards from {source}")
    console.print(f"wrote {out / 'manifest.json'}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="dataset")

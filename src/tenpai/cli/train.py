"""``tenpai train sl``: train one decision head of a supervised model on a built dataset.

Runs on the CPU unless a GPU is present (``--device auto``); on a shared machine keep
``--threads 1`` and run it under ``nice``.  The work is in :mod:`tenpai.train.sl`, or for an
MCR dataset (detected from its manifest; ``--rules`` only checks it) in
:mod:`tenpai.learn.mcr.train` through :mod:`tenpai.cli._mcr_learn`.  The MCR trainer runs
whole epochs on the CPU, so the Riichi-only options below are refused for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tenpai.cli import _mcr_learn
from tenpai.cli._mcr_learn import Rules

#: Options of the Riichi trainer that the MCR one has no counterpart for.
_RIICHI_ONLY = (
    "init_from",
    "augment",
    "schedule",
    "lr_min",
    "eval_every",
    "dev_limit",
    "max_samples",
    "device",
)

app = typer.Typer(help="Train models (needs torch: the 'learn' extra).", no_args_is_help=True)


@app.command("sl")
def sl(
    ctx: typer.Context,
    dataset: Path = typer.Argument(..., help="Dataset directory (tenpai dataset build)."),
    out: Path = typer.Option(..., "--out", "-o", help="Model file; an existing one gains a head."),
    rules: Rules | None = typer.Option(
        None, "--rules", help="Checked against the dataset's manifest (default: follow it)."
    ),
    kind: str = typer.Option(
        "discard",
        "--kind",
        help="Riichi: discard, riichi, pon, chi, kan; MCR: discard, chi, peng, gang.",
    ),
    arch: str = typer.Option("resnet", "--arch", help="gao_cnn, resnet or ffn (MCR: no gao_cnn)."),
    arch_options: str = typer.Option(
        "", "--arch-options", help="JSON keyword arguments of the model, e.g. '{\"width\": 48}'."
    ),
    batch_size: int = typer.Option(256, "--batch-size", min=2),
    lr: float = typer.Option(1e-3, "--lr"),
    max_epochs: int = typer.Option(20, "--epochs", min=1),
    max_minutes: float = typer.Option(10.0, "--minutes", help="Wall-clock budget."),
    max_samples: int = typer.Option(0, "--max-samples", min=0, help="0: no sample budget."),
    eval_every: int = typer.Option(
        50_000, "--eval-every", min=1, help="Samples between dev checks."
    ),
    patience: int = typer.Option(3, "--patience", min=1, help="Dev checks without improvement."),
    dev_limit: int = typer.Option(20_000, "--dev-limit", min=0, help="Dev samples (0: all)."),
    seed: int = typer.Option(0, "--seed"),
    threads: int = typer.Option(1, "--threads", min=1, help="torch CPU threads."),
    device: str = typer.Option("auto", "--device", help="auto (GPU when present), cpu, cuda."),
    schedule: str = typer.Option(
        "constant", "--schedule", help="Learning rate: constant, or cosine down to --lr-min."
    ),
    lr_min: float = typer.Option(0.0, "--lr-min", min=0.0, help="Final rate of the cosine."),
    init_from: Path | None = typer.Option(
        None, "--init-from", help="Continue from this model file's head of the same kind."
    ),
    augment: str = typer.Option(
        "none", "--augment", help="none, or suits: relabel each sample's suits at random."
    ),
    half: bool = typer.Option(
        False, "--half", help="Store the whole file as float16 (half the size, as shipped)."
    ),
) -> None:
    """Train one head and write it, with its model card, into the model file.

    On an MCR dataset, --batch-size, --lr, --epochs, --patience (in epochs) and --minutes are
    honoured when given (default budget 2.5 min for discards, 0.5 for calls); --init-from,
    --augment, --schedule, --lr-min, --eval-every, --dev-limit, --max-samples and --device
    are refused.
    """
    try:
        options = json.loads(arch_options) if arch_options else None
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"not JSON: {exc}", param_hint="--arch-options") from exc
    if options is not None and not isinstance(options, dict):
        raise typer.BadParameter("expected a JSON object", param_hint="--arch-options")
    if _mcr_learn.dataset_rules(dataset, rules) is Rules.mcr:
        _mcr_learn.reject_options(ctx, _RIICHI_ONLY)
        _mcr_learn.train_mcr(
            ctx,
            dataset,
            out,
            kind=kind,
            arch=arch,
            arch_options=options,
            seed=seed,
            threads=threads,
            half=half,
        )
        return
    try:
        from tenpai.learn.dataset import DatasetError
        from tenpai.models.bundle import ModelError
        from tenpai.train.sl import TrainConfig, train_head
    except ImportError as exc:
        typer.echo(f"error: {exc}; install the learn extra: pip install 'tenpai[learn]'", err=True)
        raise typer.Exit(2) from exc
    cfg = TrainConfig(
        kind=kind,
        arch=arch,
        arch_options=options,
        batch_size=batch_size,
        lr=lr,
        max_epochs=max_epochs,
        max_minutes=max_minutes,
        max_samples=max_samples or None,
        eval_every=eval_every,
        patience=patience,
        dev_limit=dev_limit or None,
        seed=seed,
        threads=threads,
        device=device,
        schedule=schedule,
        lr_min=lr_min,
        init_from=None if init_from is None else str(init_from),
        augment=augment,
    )
    try:
        card = train_head(dataset, out, cfg, log=lambda s: typer.echo(s, err=True), half=half)
    except (DatasetError, ModelError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    best = card["dev_best"]
    typer.echo(
        f"{kind}: best dev top-1 {best['top1']:.2%} (loss {best['loss']:.4f}) after "
        f"{card['train_samples_seen']:,} samples, {card['cpu_minutes']} CPU min; wrote {out}"
    )
    card_path = out.with_name(out.name + f".{kind}.card.json")
    card_path.write_text(json.dumps(card, indent=1))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="train")

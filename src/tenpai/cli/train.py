"""``tenpai train sl``: train one decision head of a supervised model on a built dataset.

The same trainer (:mod:`tenpai.train.sl`) for every rule set: the dataset's manifest names its
rules (``--rules`` only checks it), whose registry entry supplies the network of each head and
the hyper-parameters left unset here.  Runs on the CPU unless a GPU is present (``--device
auto``); on a shared machine keep ``--threads 1`` and run it under ``nice``.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tenpai.cli import HELP_MARKUP
from tenpai.cli._learn import fail, learning_rules

app = typer.Typer(help="Train models (needs torch: the 'learn' extra).", no_args_is_help=True,
                  rich_markup_mode=HELP_MARKUP)


@app.command("sl")
def sl(
    dataset: Path = typer.Argument(..., help="Dataset directory (tenpai dataset build)."),
    out: Path = typer.Option(..., "--out", "-o", help="Model file; an existing one gains a head."),
    rules_name: str | None = typer.Option(
        None, "--rules",
        help="Rule set, checked against the dataset's manifest (default: follow it).",
    ),
    kind: str = typer.Option(
        "discard",
        "--kind",
        help="Riichi and suits108: discard, riichi, pon, chi, kan; MCR: discard, chi, peng, "
        "gang.",
    ),
    arch: str = typer.Option(
        "resnet", "--arch", help="gao_cnn, resnet, ffn or seq_gru (seq7 datasets)."
    ),
    arch_options: str = typer.Option(
        "", "--arch-options", help="JSON keyword arguments of the model, e.g. '{\"width\": 48}'."
    ),
    batch_size: int | None = typer.Option(
        None, "--batch-size", min=2,
        help="Samples per step (default: the rule set's, Riichi 256, MCR 128).",
    ),
    lr: float = typer.Option(1e-3, "--lr", help="Adam learning rate."),
    weight_decay: float | None = typer.Option(
        None, "--weight-decay", min=0.0,
        help="Adam's L2 weight decay (default: the rule set's, Riichi 0, MCR 1e-4).",
    ),
    max_epochs: int | None = typer.Option(
        None, "--epochs", min=1,
        help="Most passes over the training split; the first of --epochs, --minutes and "
        "--max-samples to run out stops training (default: Riichi 20, MCR 200).",
    ),
    max_minutes: float | None = typer.Option(
        None, "--minutes", help="Wall-clock budget (Riichi 10; MCR 2.5 discard, 0.5 calls)."
    ),
    max_samples: int = typer.Option(0, "--max-samples", min=0,
                                    help="Stop after this many training samples (0: no limit)."),
    eval_every: int | None = typer.Option(
        None,
        "--eval-every",
        min=0,
        help="Samples between dev checks; 0 after every epoch (Riichi 50,000, MCR 0).",
    ),
    patience: int | None = typer.Option(
        None, "--patience", min=1,
        help="Stop early after this many dev checks in a row without a better --select-by "
        "figure (default: Riichi 3, MCR 8).",
    ),
    dev_limit: int | None = typer.Option(
        None, "--dev-limit", min=0,
        help="Dev samples read for each check, 0: all (default: Riichi 20,000, MCR all).",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the weights and the sample order."),
    threads: int = typer.Option(1, "--threads", min=1, help="Torch CPU threads."),
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
    loss: str = typer.Option(
        "ce", "--loss", help="ce, weighted (class weights from the train labels) or focal."
    ),
    class_weight_power: float = typer.Option(
        1.0, "--class-weight-power", min=0.0, help="weighted: (N / (K n_c)) ** this (1 balanced)."
    ),
    focal_gamma: float = typer.Option(2.0, "--focal-gamma", min=0.0, help="focal: the gamma."),
    select_by: str = typer.Option(
        "loss", "--select-by",
        help="Checkpoint and early stopping by dev loss, or by f1 of 'called' (call/riichi heads).",
    ),
    half: bool = typer.Option(
        False, "--half", help="Store the whole file as float16 (half the size, as shipped)."
    ),
) -> None:
    """Train one head and write it, with its model card, into the model file."""
    try:
        options = json.loads(arch_options) if arch_options else None
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"not JSON: {exc}", param_hint="--arch-options") from exc
    if options is not None and not isinstance(options, dict):
        raise typer.BadParameter("expected a JSON object", param_hint="--arch-options")
    try:
        from tenpai.learn.dataset import DatasetError, load_manifest, manifest_rules
        from tenpai.learn.rulesets import UnknownRulesError, get_rules
        from tenpai.models.bundle import ModelError
        from tenpai.train.sl import TrainConfig, train_head
    except ImportError as exc:
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    try:
        rules = get_rules(manifest_rules(load_manifest(dataset)))
        rules.check_kinds([kind])
    except (DatasetError, UnknownRulesError) as exc:
        fail(str(exc))
    if rules_name is not None and learning_rules(rules_name).name != rules.name:
        fail(
            f"{dataset} is a {rules.name} dataset, but --rules {rules_name} was given; "
            f"use --rules {rules.name} or leave it out"
        )
    cfg = TrainConfig(
        kind=kind,
        arch=arch,
        arch_options=options,
        batch_size=batch_size,
        lr=lr,
        weight_decay=weight_decay,
        max_epochs=max_epochs,
        max_minutes=max_minutes,
        max_samples=max_samples or None,
        eval_every=eval_every,
        patience=patience,
        dev_limit=-1 if dev_limit is None else dev_limit or None,
        seed=seed,
        threads=threads,
        device=device,
        schedule=schedule,
        lr_min=lr_min,
        init_from=None if init_from is None else str(init_from),
        augment=augment,
        loss=loss,
        class_weight_power=class_weight_power,
        focal_gamma=focal_gamma,
        select_by=select_by,
    )
    try:
        card = train_head(dataset, out, cfg, log=lambda s: typer.echo(s, err=True), half=half)
    except (DatasetError, ModelError, ValueError) as exc:
        fail(str(exc))
    best = card["dev_best"]
    typer.echo(
        f"{kind}: best dev top-1 {best['top1']:.2%} (loss {best['loss']:.4f}) after "
        f"{card['train_samples_seen']:,} samples ({card['stopped_by']}), "
        f"{card['cpu_minutes']} CPU min; wrote {out}"
    )
    card_path = out.with_name(out.name + f".{kind}.card.json")
    card_path.write_text(json.dumps(card, indent=1))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="train")

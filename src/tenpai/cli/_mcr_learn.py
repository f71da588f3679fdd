"""The ``--rules`` switch of ``tenpai dataset build``, ``tenpai train sl`` and ``tenpai eval
agreement``, and the MCR side of those commands.

The commands share one set of options between the two rule sets, but the MCR pipeline
(:mod:`tenpai.learn.mcr`, docs/learning_mcr.md) has fewer knobs: its corpus is one small folder
of Botzone hands, every split and decision kind is always built, and its trainer runs epochs on
the CPU.  A Riichi-only option given together with ``--rules mcr`` is therefore refused (exit
code 2) rather than silently ignored, so nobody believes a filter was applied when it was not.
Which rules a file belongs to is read from the file itself — a dataset's manifest ``format``, a
model's encoder name — so a Riichi file on the MCR path (or the reverse) is a clear error
instead of a crash deep inside numpy or torch.

This module is imported when the CLI starts: it must stay light (typer and the standard
library only at the top; everything else is imported inside the functions).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Final, NoReturn

import typer

__all__ = [
    "DEFAULT_MCR_ENCODER",
    "Rules",
    "agreement_mcr",
    "build_mcr",
    "check_encoder_rules",
    "check_model_rules",
    "dataset_rules",
    "fail",
    "given_options",
    "reject_options",
    "train_mcr",
]

DEFAULT_MCR_ENCODER: Final = "mcr_stack002"

#: Budget of one head when ``--minutes`` is not given, as ``python -m tenpai.learn.mcr.run``
#: (the Riichi default of 10 minutes is far beyond what 116 games can use: every head stops
#: early within a minute).
_MCR_MINUTES: Final = {"discard": 2.5}
_MCR_CALL_MINUTES: Final = 0.5

#: ``tenpai train sl`` options that the MCR trainer honours when given on the command line,
#: mapped to :func:`tenpai.learn.mcr.train.train_head` keywords.  Left out, the MCR trainer's
#: own defaults apply (batch 128, patience 8 *epochs*, 200 epochs), not the Riichi ones.
_TRAIN_OVERRIDES: Final = {
    "batch_size": "batch",
    "lr": "lr",
    "max_epochs": "max_epochs",
    "patience": "patience",
    "max_minutes": "minutes",
}

#: Riichi names of the MCR call kinds, for a helpful error message.
_RIICHI_KIND_NAMES: Final = {"pon": "peng", "kan": "gang", "daiminkan": "gang"}


class Rules(StrEnum):
    """The rule set a dataset, training run or evaluation belongs to."""

    riichi = "riichi"
    mcr = "mcr"


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2 (bad usage or input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def given_options(ctx: typer.Context, names: Iterable[str]) -> list[str]:
    """The flags (``--room``) of the parameters ``names`` that were set by the user.

    Compared by where the value came from, not by value, so ``--room houou`` (the Riichi
    default) is still seen as given.
    """
    wanted = set(names)
    flags = []
    for param in ctx.command.params:
        if param.name not in wanted:
            continue
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            flags.append(max(param.opts, key=len))
    return flags


def reject_options(ctx: typer.Context, names: Iterable[str]) -> None:
    """Exit with code 2 when any of the Riichi-only parameters ``names`` was given."""
    flags = given_options(ctx, names)
    if len(flags) == 1:
        fail(f"{flags[0]} applies to Riichi only; leave it out with --rules mcr")
    if flags:
        fail(f"{', '.join(flags)} apply to Riichi only; leave them out with --rules mcr")


def _encoder_rules(name: str) -> Rules | None:
    """The rule set an encoder name (``gao68``, ``mcr_stack002@1``) belongs to, if known."""
    from tenpai.learn.encoders import ENCODER_NAMES
    from tenpai.learn.mcr.encoders import MCR_ENCODER_NAMES

    base = name.partition("@")[0]
    if base in MCR_ENCODER_NAMES:
        return Rules.mcr
    if base in ENCODER_NAMES:
        return Rules.riichi
    return None


def _article(rules: Rules) -> str:
    return "an MCR" if rules is Rules.mcr else "a Riichi"


def check_encoder_rules(encoder: str, rules: Rules) -> None:
    """Exit with code 2 when ``encoder`` is a known encoder of the other rule set."""
    found = _encoder_rules(encoder)
    if found is not None and found is not rules:
        fail(
            f"{encoder} is {_article(found)} encoder; use --rules {found.value}, or one of "
            f"{_encoder_list(rules)}"
        )


def _encoder_list(rules: Rules) -> str:
    from tenpai.learn.encoders import ENCODER_NAMES
    from tenpai.learn.mcr.encoders import MCR_ENCODER_NAMES

    return ", ".join(MCR_ENCODER_NAMES if rules is Rules.mcr else ENCODER_NAMES)


def check_model_rules(encoder: str, rules: Rules, model: str) -> None:
    """Exit with code 2 unless a model reading ``encoder`` belongs to ``rules``."""
    found = _encoder_rules(encoder)
    if found is rules:
        return
    if found is None:
        fail(f"{model} reads encoder {encoder}, which is neither a Riichi nor an MCR encoder")
    fail(
        f"{model} is {_article(found)} model (encoder {encoder}), not {_article(rules)} one; "
        f"use --rules {found.value}"
    )


def dataset_rules(dataset: Path, asked: Rules | None) -> Rules:
    """The rules of a built dataset, from its manifest's ``format``.

    ``asked`` (the ``--rules`` option) is only a check: a mismatch exits with code 2.  Without
    a readable manifest the asked rules (Riichi by default) are returned and that path's own
    reader reports the problem.
    """
    from tenpai.learn.dataset import FORMAT as RIICHI_FORMAT
    from tenpai.learn.mcr.dataset import FORMAT as MCR_FORMAT

    try:
        data = json.loads((dataset / "manifest.json").read_text())
    except (OSError, ValueError):
        return asked or Rules.riichi
    fmt = data.get("format") if isinstance(data, dict) else None
    found = {RIICHI_FORMAT: Rules.riichi, MCR_FORMAT: Rules.mcr}.get(str(fmt))
    if found is None:
        return asked or Rules.riichi
    if asked is not None and asked is not found:
        fail(
            f"{dataset} is {_article(found)} dataset (manifest format {fmt!r}), but "
            f"--rules {asked.value} was given; use --rules {found.value} or leave it out"
        )
    return found


def _one_root(records: list[Path]) -> Path:
    """The single records file or folder the MCR pipeline reads (game ids are paths relative
    to it, and the split follows the id, so several roots could collide or shift splits)."""
    if len(records) != 1:
        fail(
            f"--rules mcr reads one records file or folder (game ids and splits are relative "
            f"to it); got {len(records)}: {' '.join(map(str, records))}"
        )
    if not records[0].exists():
        fail(f"no such file or folder: {records[0]}")
    return records[0]


# --------------------------------------------------------------------------- dataset build
def build_mcr(records: list[Path], out: Path, encoder: str) -> None:
    """``tenpai dataset build --rules mcr``: replay, split and encode; print a summary."""
    from rich.console import Console

    from tenpai.learn.mcr.dataset import MCRDatasetError, build_mcr_dataset

    root = _one_root(records)
    check_encoder_rules(encoder, Rules.mcr)
    console = Console(stderr=True)
    try:
        with console.status("replaying and encoding MCR games"):
            manifest = build_mcr_dataset(root, out, encoder)
    except (MCRDatasetError, ValueError) as exc:
        fail(str(exc))
    games = {s: len(ids) for s, ids in manifest["games"].items()}
    console.print(f"encoder {manifest['encoder']}, games {games}")
    for s, counts in manifest["counts"].items():
        console.print(f"  {s}: " + ", ".join(f"{k} {n:,}" for k, n in counts.items()))
    skipped = manifest["skipped"]
    if skipped:
        shown = "; ".join(f"{s['game']} ({s['reason']})" for s in skipped[:5])
        more = f"; {len(skipped) - 5} more" if len(skipped) > 5 else ""
        console.print(f"  skipped {len(skipped)}: {shown}{more}")
    console.print(f"wrote {out / 'manifest.json'}")


# --------------------------------------------------------------------------- train sl
def train_mcr(
    ctx: typer.Context,
    dataset: Path,
    out: Path,
    *,
    kind: str,
    arch: str,
    arch_options: dict[str, Any] | None,
    seed: int,
    threads: int,
    half: bool = False,
) -> None:
    """``tenpai train sl`` on an MCR dataset: one head, added to (or replacing it in) ``out``.

    Everything that can be checked is checked before training, so a bad ``--out`` does not
    cost the training budget.  The options in :data:`_TRAIN_OVERRIDES` are read from ``ctx``
    and only passed on when the user gave them.
    """
    from tenpai.learn.mcr.dataset import MCRDatasetError, load_arrays, load_mcr_manifest
    from tenpai.learn.mcr.decisions import MCR_DECISION_KINDS, MCR_NUM_CLASSES

    if kind not in MCR_DECISION_KINDS:
        mcr_name = _RIICHI_KIND_NAMES.get(kind)
        hint = f" (MCR calls a {kind} {mcr_name!r})" if mcr_name else ""
        fail(
            f"unknown MCR decision kind {kind!r}{hint}; MCR kinds: {', '.join(MCR_DECISION_KINDS)}"
        )
    try:
        import torch

        from tenpai.learn.mcr.run import arch_config
        from tenpai.learn.mcr.train import train_head
        from tenpai.models import build_model
        from tenpai.models.bundle import ModelBundle, ModelError
    except ImportError as exc:
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    from tenpai.learn.mcr.encoders import get_mcr_encoder

    try:
        manifest = load_mcr_manifest(dataset)
        enc = get_mcr_encoder(manifest["encoder"])
        config = arch_config(arch, enc.shape, MCR_NUM_CLASSES[kind], kind)
        config.update(arch_options or {})
        try:
            build_model(config)
        except TypeError as exc:  # an unknown keyword in --arch-options
            raise ValueError(f"--arch-options do not fit the {arch} network: {exc}") from exc
        bundle = ModelBundle.load(out) if out.exists() else ModelBundle(enc.tag)
        if bundle.encoder != enc.tag:
            raise ModelError(
                f"{out} reads {bundle.encoder} but the dataset is {enc.tag}; "
                "heads of one model must share an encoder"
            )
        card = {
            "rules": Rules.mcr.value,
            "dataset": str(dataset),
            "encoder": enc.tag,
            "split_rule": manifest["split_rule"],
            "games": {s: len(ids) for s, ids in manifest["games"].items()},
            "skipped": len(manifest["skipped"]),
            "arch": arch,
            "config": dict(config),
        }
        train, dev = load_arrays(dataset, "train", kind), load_arrays(dataset, "dev", kind)
    except KeyError as exc:
        fail(f"{dataset}/manifest.json lacks {exc} (damaged or hand-written)")
    except (MCRDatasetError, ModelError, ValueError) as exc:
        fail(str(exc))
    params = ctx.params
    extra = {k: params[p] for p, k in _TRAIN_OVERRIDES.items() if given_options(ctx, [p])}
    extra.setdefault("minutes", _MCR_MINUTES.get(kind, _MCR_CALL_MINUTES))
    torch.set_num_threads(threads)
    typer.echo(
        f"{kind}: {len(train):,} train / {len(dev):,} dev samples, {arch}, "
        f"budget {extra['minutes']} min",
        err=True,
    )
    try:
        head = train_head(kind, config, train, dev, seed=seed, card=card, **extra)
    except ValueError as exc:  # no training or dev samples of this kind
        fail(str(exc))
    bundle.heads[kind] = head
    bundle.save(out, half=half)
    c = head.card
    typer.echo(
        f"{kind}: best dev accuracy {c['best_dev_acc']:.2%} (loss {c['best_dev_loss']:.4f}) at "
        f"epoch {c['best_epoch']} of {len(c['history'])} ({c['stop_reason']}), "
        f"{c['samples_seen']:,} samples, {c['cpu_minutes']} CPU min; wrote {out}"
    )
    out.with_name(out.name + f".{kind}.card.json").write_text(json.dumps(c, indent=1))


# --------------------------------------------------------------------------- eval agreement
_CLASSES: Final = {
    "chi": "0 pass, 1-3 chow with the claimed tile lowest/middle/highest",
    "peng": "0 pass, 1 pung",
    "gang": "0 pass, 1 kong",
}


def agreement_mcr(records: list[Path], model: str, split: str, as_json: bool) -> None:
    """``tenpai eval agreement --rules mcr``: score every head on the chosen split's games."""
    from tenpai.learn.mcr.dataset import SPLITS

    root = _one_root(records)
    if split != "all" and split not in SPLITS:
        raise typer.BadParameter(f"choose all or one of {', '.join(SPLITS)}", param_hint="--split")
    try:
        from tenpai.agents.sl_mcr import resolve_mcr_model_path
        from tenpai.learn.mcr.evaluate import agreement
        from tenpai.models.bundle import ModelBundle, ModelError
    except ImportError as exc:
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    from tenpai.learn.mcr.dataset import MCRDatasetError, encode_games, load_mcr_games
    from tenpai.learn.mcr.decisions import MCR_DECISION_KINDS
    from tenpai.learn.mcr.encoders import get_mcr_encoder

    try:
        bundle = ModelBundle.load(resolve_mcr_model_path(model))
    except ModelError as exc:
        fail(str(exc))
    check_model_rules(bundle.encoder, Rules.mcr, model)
    skipped: list[dict[str, str]] = []
    try:
        enc = get_mcr_encoder(bundle.encoder)
        games = load_mcr_games(root, skipped=skipped)
    except (MCRDatasetError, ValueError) as exc:
        fail(str(exc))
    kept = [g for g in games if split == "all" or g.split == split]
    kinds = [k for k in MCR_DECISION_KINDS if k in bundle.heads]
    scores = agreement(bundle, encode_games(kept, enc, kinds))
    report: dict[str, Any] = {
        "rules": Rules.mcr.value,
        "games": len(kept),
        "skipped": len(skipped),
        "encoder": bundle.encoder,
        "model": model,
        "split": split,
    }
    # Keyed as the Riichi report is ("discards", top-k also at the top level), so scripts can
    # read both; a head without samples in this split reports n = 0.
    report["discards"] = scores.get("discard", {"n": 0, "top1": None, "top2": None, "top3": None})
    for k in ("top1", "top2", "top3"):
        report[k] = report["discards"][k]
    for kind in kinds:
        if kind != "discard":
            report[kind] = scores.get(kind, {"n": 0})
    if as_json:
        typer.echo(json.dumps(report))
        return
    _print_agreement(report, kinds)


def _print_agreement(report: dict[str, Any], kinds: Sequence[str]) -> None:
    typer.echo(
        f"games {report['games']} (split {report['split']}); model {report['model']} "
        f"({report['encoder']})"
    )
    d = report["discards"]
    if d["n"]:
        typer.echo(
            f"discards {d['n']:,}: top-1 {d['top1']:.2%}, top-2 {d['top2']:.2%}, "
            f"top-3 {d['top3']:.2%}"
        )
    for kind in kinds:
        m = report.get(kind)
        if kind == "discard" or not m or not m["n"]:
            continue
        typer.echo(
            f"{kind} {m['n']:,} (called {m['called']:,}): accuracy {m['accuracy']:.2%} "
            f"(always pass {m['pass_baseline']:.2%}), precision {m['precision']:.2%}, "
            f"recall {m['recall']:.2%}, F1 {m['f1']:.3f}"
        )
        typer.echo(f"    rows: player, columns: model ({_CLASSES[kind]})")
        for row in m["confusion"]:
            typer.echo("    " + " ".join(f"{v:7d}" for v in row))

"""Supervised training of one decision head on a dataset built by ``tenpai dataset build``.

One loop for every rule set: the dataset's manifest names its rules, whose registry entry gives
the network config of each head and the hyper-parameters a run leaves unset (MCR's 116 games,
say, train in whole epochs with batch 128 and a two-minute budget; Riichi's two thousand games
in samples with batch 256).

Adam, cross-entropy over the *legal* classes only (illegal logits are masked out, so the
network spends no capacity learning which tiles are in the hand), evaluation on the dev split
after every ``eval_every`` samples, early stopping when dev loss (or, for call heads on request,
the F1 of "called") has not improved ``patience`` evaluations in a row, and a wall-clock
budget.  The best weights by that figure are written into a model bundle together with a
card: data, encoder, hyper-parameters, metrics, CPU time.

Two options let a short CPU budget go further: ``init_from`` continues from the same head of an
existing model (its card is kept inside the new one, so the total CPU time stays on record), and
``schedule="cosine"`` lowers the learning rate along a half cosine to ``lr_min`` over the run's
budget, which settles the weights that a constant rate keeps shaking.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from tenpai.learn.agreement import call_metrics
from tenpai.learn.dataset import load_manifest, manifest_rules
from tenpai.learn.learning_rules import LearningRules
from tenpai.learn.rulesets import get_rules
from tenpai.learn.shards import Batch, ShardStream, label_counts, load_split
from tenpai.models.build import build_model
from tenpai.models.bundle import Head, ModelBundle, ModelError
from tenpai.models.losses import LOSSES, class_weights, make_loss
from tenpai.train.augment import AUGMENTS, relabel_suits

__all__ = ["TrainConfig", "masked_logits", "resolve_config", "train_head"]

_NEG = -1e9


@dataclass(slots=True)
class TrainConfig:
    """Hyper-parameters of one run (all recorded in the card)."""

    kind: str = "discard"
    arch: str = "resnet"
    arch_options: dict[str, Any] | None = None
    # The fields left at None take the rule set's defaults (``LearningRules.train_defaults``,
    # see :func:`resolve_config`): Riichi 256 / 0 / 20 / 10 min / 50,000 / 3 / 20,000.
    batch_size: int | None = None
    lr: float = 1e-3
    weight_decay: float | None = None
    max_epochs: int | None = None
    max_minutes: float | None = None
    max_samples: int | None = None
    #: Samples between dev evaluations; 0 evaluates at the end of every epoch.
    eval_every: int | None = None
    patience: int | None = None
    dev_limit: int | None = -1
    #: Split used for early stopping and the card's metrics ("train" only for smoke tests).
    dev_split: str = "dev"
    seed: int = 0
    threads: int = 1
    device: str = "auto"
    #: ``constant`` or ``cosine`` (over the time or sample budget, whichever runs out first).
    schedule: str = "constant"
    lr_min: float = 0.0
    #: Model file whose ``kind`` head gives the starting weights and the architecture.
    init_from: str | None = None
    #: ``none`` or ``suits`` (each training sample's suits relabelled at random; see
    #: :mod:`tenpai.train.augment`).
    augment: str = "none"
    #: ``ce``, ``weighted`` (class weights from the train split's label counts, raised to
    #: ``class_weight_power``) or ``focal`` (with ``focal_gamma``); see
    #: :mod:`tenpai.models.losses`.  The dev loss stays plain cross-entropy.
    loss: str = "ce"
    class_weight_power: float = 1.0
    focal_gamma: float = 2.0
    #: Which dev figure picks the saved checkpoint and drives early stopping: ``loss`` (plain
    #: cross-entropy) or ``f1`` (a call or riichi head's F1 of "called", higher is better).  A
    #: class-weighted head is meant to call more than the base rate, which cross-entropy on the
    #: natural distribution penalises, so its checkpoint is better chosen by F1.
    select_by: str = "loss"


SCHEDULES = ("constant", "cosine")
SELECT_BY = ("loss", "f1")
#: Fields of :class:`TrainConfig` whose ``None`` means "the rule set's default".
_DEFAULTED = ("batch_size", "weight_decay", "max_epochs", "max_minutes", "eval_every", "patience")


def resolve_config(cfg: TrainConfig, rules: LearningRules) -> TrainConfig:
    """``cfg`` with every unset field at ``rules``' default (a per-kind budget picked by kind).

    ``dev_limit`` is unset at -1, because ``None`` already means "the whole dev split".
    """
    changes: dict[str, Any] = {}
    defaults = rules.train_defaults
    for name in _DEFAULTED:
        if getattr(cfg, name) is None:
            value = defaults[name]
            if isinstance(value, dict):
                value = value.get(cfg.kind, value["*"])
            changes[name] = value
    if cfg.dev_limit == -1:
        changes["dev_limit"] = defaults["dev_limit"]
    return replace(cfg, **changes)


def scheduled_lr(cfg: TrainConfig, progress: float) -> float:
    """Learning rate at ``progress`` (0 = start, 1 = budget spent) of the run."""
    if cfg.schedule == "constant":
        return cfg.lr
    p = min(max(progress, 0.0), 1.0)
    return cfg.lr_min + 0.5 * (cfg.lr - cfg.lr_min) * (1.0 + math.cos(math.pi * p))


def masked_logits(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Illegal classes pushed to a huge negative score (rows with no legal class untouched)."""
    any_legal = legal.any(dim=1, keepdim=True)
    keep = legal | ~any_legal
    return logits.masked_fill(~keep, _NEG)


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _to(b: Batch, dev: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return (
        torch.from_numpy(b.x).to(dev),
        torch.from_numpy(b.y).to(dev),
        torch.from_numpy(b.legal).to(dev),
    )


def evaluate(
    model: nn.Module, data: Batch, dev: torch.device, batch: int = 1024, *, calls: bool = False
) -> dict[str, float]:
    """Dev loss and top-1/2/3 agreement over legal classes; with ``calls`` (a head whose class
    0 is "pass") also the F1 of "called"."""
    model.eval()
    losses, hits = 0.0, np.zeros(3)
    picks: list[np.ndarray] = []
    n = len(data.y)
    with torch.inference_mode():
        for s in range(0, n, batch):
            x, y, legal = _to(
                Batch(data.x[s : s + batch], data.y[s : s + batch], data.legal[s : s + batch]), dev
            )
            logits = masked_logits(model(x), legal)
            losses += float(nn.functional.cross_entropy(logits, y, reduction="sum"))
            k = min(3, logits.shape[1])
            top = logits.topk(k, dim=1).indices
            if calls:
                picks.append(logits.cpu().numpy())
            match = top == y.unsqueeze(1)
            for j in range(k):
                hits[j] += float(match[:, : j + 1].any(dim=1).sum())
    model.train()
    out = {"loss": losses / n, "top1": hits[0] / n, "n": float(n)}
    if data.legal.shape[1] > 2:
        out["top2"], out["top3"] = hits[1] / n, hits[2] / n
    if calls:
        classes = data.legal.shape[1]
        out["f1"] = call_metrics(np.concatenate(picks), data.y, data.legal, classes)["f1"]
    return out


def _better(m: dict[str, float], best: dict[str, Any], select_by: str) -> bool:
    """Whether the dev figures ``m`` beat the best so far on the chosen criterion."""
    if select_by == "f1":
        return "f1" in m and m["f1"] > best.get("f1", -1.0)
    return bool(m["loss"] < best["loss"])


def train_head(
    dataset: str | Path,
    out: str | Path,
    cfg: TrainConfig,
    *,
    log: Callable[[str], None] = print,
    half: bool = False,
) -> dict[str, Any]:
    """Train ``cfg.kind`` on ``dataset`` and add (or replace) that head in the bundle ``out``.

    ``half`` stores the whole file as float16 (heads already in it too, so a bundle built head
    by head ends up uniform); training itself always runs in full precision.
    """
    if cfg.select_by not in SELECT_BY:
        raise ValueError(f"unknown select_by {cfg.select_by!r}; known: {', '.join(SELECT_BY)}")
    if cfg.select_by == "f1" and cfg.kind == "discard":
        raise ValueError("select_by f1 is for call and riichi heads; a discard head has no pass")
    if cfg.schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {cfg.schedule!r}; known: {', '.join(SCHEDULES)}")
    if cfg.augment not in AUGMENTS:
        raise ValueError(f"unknown augment {cfg.augment!r}; known: {', '.join(AUGMENTS)}")
    manifest = load_manifest(dataset)
    rules = get_rules(manifest_rules(manifest))
    cfg = resolve_config(cfg, rules)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    if cfg.kind not in manifest["classes"]:
        raise ModelError(f"{dataset}: the dataset has no {cfg.kind!r} decisions")
    if cfg.augment == "suits" and (len(manifest["shape"]) != 2 or manifest["shape"][1] != 34):
        raise ValueError(
            f"{dataset}: suit relabelling needs a plane encoder (channels, 34), "
            f"not shape {manifest['shape']}"
        )
    if cfg.loss not in LOSSES:
        raise ValueError(f"unknown loss {cfg.loss!r}; known: {', '.join(LOSSES)}")
    _target_bundle(Path(out), manifest)
    kind_labels = int(manifest["classes"][cfg.kind]) == 34
    aug_rng = np.random.default_rng(cfg.seed + 1)
    dev = _device(cfg.device)
    parent_card: dict[str, Any] | None = None
    if cfg.init_from is not None:
        config, model, parent_card = _warm_start(cfg, manifest)
    else:
        classes = int(manifest["classes"][cfg.kind])
        shape = tuple(manifest["shape"])
        if (cfg.arch == "ffn") != (len(shape) == 1):  # else a shape error deep inside torch
            want = ("a flat encoder such as ffn352" if cfg.arch == "ffn"
                    else "a plane encoder (channels, 34)")
            raise ValueError(f"{dataset}: --arch {cfg.arch} needs {want}; this dataset's "
                             f"encoder {manifest.get('encoder')} gives shape {shape}")
        config = rules.arch_config(cfg.arch, manifest["shape"], classes, cfg.kind)
        config.update(cfg.arch_options or {})
        try:
            model = build_model(config)
        except TypeError as exc:  # an unknown keyword in the arch options
            raise ValueError(f"arch options do not fit the {cfg.arch} network: {exc}") from exc
    model = model.to(dev)
    model.train()
    assert cfg.max_minutes is not None and cfg.batch_size is not None
    assert cfg.max_epochs is not None and cfg.patience is not None
    minutes, patience = float(cfg.max_minutes), cfg.patience
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay or 0.0)
    stream = ShardStream(dataset, "train", cfg.kind, cfg.batch_size, cfg.seed)
    weights = None
    if cfg.loss == "weighted":
        counts = label_counts(stream.paths, int(manifest["classes"][cfg.kind]))
        weights = class_weights(counts, cfg.class_weight_power)
    loss_fn = make_loss(cfg.loss, weights=weights, gamma=cfg.focal_gamma)
    dev_data = load_split(dataset, cfg.dev_split, cfg.kind, cfg.dev_limit)
    writer = _tensorboard(Path(out).with_suffix("").as_posix() + f"-tb-{cfg.kind}")

    started, cpu_started = time.monotonic(), time.process_time()
    best: dict[str, Any] = {"loss": math.inf}
    calls = cfg.kind != "discard"
    best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    seen, since_eval, bad, epoch = 0, 0, 0, 0
    history: list[dict[str, float]] = []
    stop = ""

    def check() -> bool:
        """One dev evaluation; True when it is the ``patience``-th without a better figure."""
        nonlocal best, best_state, bad
        m = evaluate(model, dev_data, dev, calls=calls)
        m.update(samples=float(seen), minutes=(time.monotonic() - started) / 60)
        history.append(m)
        log(_line(cfg.kind, m))
        if writer is not None:
            for k, v in m.items():
                writer.add_scalar(f"dev/{k}", v, seen)
        if _better(m, best, cfg.select_by):
            best, bad = dict(m), 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            return False
        bad += 1
        return bad >= patience

    while not stop:
        epoch += 1
        if epoch > cfg.max_epochs:
            stop = "max epochs"
            break
        for b in stream.epoch():
            progress = (time.monotonic() - started) / 60 / minutes
            if cfg.max_samples is not None:
                progress = max(progress, seen / cfg.max_samples)
            for group in opt.param_groups:
                group["lr"] = scheduled_lr(cfg, progress)
            if cfg.augment == "suits":
                b = relabel_suits(b, aug_rng, kind_labels)
            x, y, legal = _to(b, dev)
            loss = loss_fn(masked_logits(model(x), legal), y)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            seen += len(b.y)
            since_eval += len(b.y)
            if cfg.eval_every and since_eval >= cfg.eval_every:
                since_eval = 0
                if check():
                    stop = "early stopping"
                    break
            if (time.monotonic() - started) / 60 >= minutes:
                stop = "time budget"
                break
            if cfg.max_samples is not None and seen >= cfg.max_samples:
                stop = "sample budget"
                break
        else:
            if not cfg.eval_every and check():
                stop = "early stopping"
    final = evaluate(model, dev_data, dev, calls=calls)
    final.update(samples=float(seen), minutes=(time.monotonic() - started) / 60)
    history.append(final)
    log(_line(cfg.kind, final))
    if _better(final, best, cfg.select_by):
        best = dict(final)
        best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    model.to("cpu").eval()
    if writer is not None:
        writer.close()
    card = {
        "kind": cfg.kind,
        "rules": rules.name,
        "dataset": os.fspath(dataset),
        "encoder": manifest["encoder"],
        "dataset_options": manifest["options"],
        "split_rule": manifest["split_rule"],
        "train_samples_available": manifest["counts"].get("train", {}).get(cfg.kind, 0),
        "train_samples_seen": seen,
        "parameters": sum(p.numel() for p in model.parameters()),
        "epochs_started": epoch,
        "stopped_by": stop,
        "config": config,
        "hyper_parameters": asdict(cfg),
        "dev_best": best,
        "history": history,
        "wall_minutes": round((time.monotonic() - started) / 60, 2),
        "cpu_minutes": round((time.process_time() - cpu_started) / 60, 2),
        "device": str(dev),
        "torch": torch.__version__,
    }
    if parent_card is not None:
        card["init_from"] = {k: v for k, v in parent_card.items() if k != "history"}
        card["cpu_minutes_total"] = round(card["cpu_minutes"] + _total_cpu_minutes(parent_card), 2)
    bundle = _target_bundle(Path(out), manifest)  # again: the file may have changed meanwhile
    bundle.heads[cfg.kind] = Head(cfg.kind, config, model, card)
    bundle.save(Path(out), half=half)
    return card


def _target_bundle(out_path: Path, manifest: dict[str, Any]) -> ModelBundle:
    """The bundle a new head joins: the existing file, or a fresh one for the dataset's encoder.

    Checked before training as well as after it, so an encoder mismatch costs seconds, not a
    whole training budget.
    """
    bundle = ModelBundle.load(out_path) if out_path.exists() else ModelBundle(manifest["encoder"])
    if bundle.encoder != manifest["encoder"]:
        raise ModelError(
            f"{out_path} reads {bundle.encoder} but the dataset is {manifest['encoder']}; "
            "heads of one model must share an encoder"
        )
    return bundle


def _warm_start(
    cfg: TrainConfig, manifest: dict[str, Any]
) -> tuple[dict[str, Any], nn.Module, dict[str, Any]]:
    """Config, module and card of ``cfg.kind`` in ``cfg.init_from``, checked against the data."""
    path = Path(cfg.init_from or "")
    parent = ModelBundle.load(path)
    if parent.encoder != manifest["encoder"]:
        raise ModelError(f"{path} reads {parent.encoder} but the dataset is {manifest['encoder']}")
    head = parent.heads.get(cfg.kind)
    if head is None:
        raise ModelError(f"{path} has no {cfg.kind!r} head to start from")
    if head.config.get("arch") != cfg.arch or cfg.arch_options:
        raise ModelError(
            f"{path}: a warm start keeps the {cfg.kind} head's architecture "
            f"({head.config.get('arch')}); do not pass another arch or arch options"
        )
    return dict(head.config), head.module, head.card


def _total_cpu_minutes(card: dict[str, Any]) -> float:
    """CPU minutes of a head and of every run it was continued from."""
    total = card.get("cpu_minutes_total")
    return float(total if total is not None else card.get("cpu_minutes", 0.0))


def _line(kind: str, m: dict[str, float]) -> str:
    parts = [f"{kind}: {int(m['samples']):,} samples", f"dev loss {m['loss']:.4f}"]
    parts += [f"{k} {m[k]:.2%}" for k in ("top1", "top2", "top3") if k in m]
    if "f1" in m:
        parts.append(f"F1 {m['f1']:.3f}")
    parts.append(f"{m['minutes']:.1f} min")
    return ", ".join(parts)


def _tensorboard(logdir: str) -> Any:
    """A SummaryWriter when tensorboard is installed, else None (logging is optional)."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return None
    return SummaryWriter(logdir)

"""Train one MCR head on encoded arrays (needs torch, the ``learn`` extra).

A small loop of its own rather than :mod:`tenpai.train.sl`, whose dataset reader expects the
Riichi shard layout: Adam, cross-entropy over the *legal* classes only (illegal logits
masked), one dev evaluation per epoch, early stopping after ``patience`` epochs without a
lower dev loss, a wall-clock budget, the best weights kept.  The result is a
:class:`~tenpai.models.bundle.Head` whose card records data, hyper-parameters and history, so
heads go into a :class:`~tenpai.models.bundle.ModelBundle` like the Riichi ones.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from tenpai.learn.mcr.dataset import Arrays
from tenpai.models import build_model
from tenpai.models.bundle import Head

__all__ = ["masked_loss", "train_head"]

_NEG = -1e9


def masked_loss(logits: torch.Tensor, y: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Cross-entropy with illegal classes removed from the softmax."""
    return nn.functional.cross_entropy(logits.masked_fill(~legal, _NEG), y)


def _evaluate(module: nn.Module, a: Arrays) -> tuple[float, float]:
    module.eval()
    with torch.inference_mode():
        logits = module(torch.from_numpy(a.x)).masked_fill(~torch.from_numpy(a.legal), _NEG)
        y = torch.from_numpy(a.y)
        loss = float(nn.functional.cross_entropy(logits, y))
        acc = float((logits.argmax(1) == y).float().mean())
    return loss, acc


def train_head(
    kind: str,
    config: dict[str, Any],
    train: Arrays,
    dev: Arrays,
    *,
    minutes: float = 2.0,
    max_epochs: int = 200,
    patience: int = 8,
    batch: int = 128,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    seed: int = 0,
    card: dict[str, Any] | None = None,
) -> Head:
    """Train ``build_model(config)`` on ``train``, select on ``dev``; see the module docstring."""
    if len(train) == 0 or len(dev) == 0:
        raise ValueError(f"{kind}: no training or dev samples ({len(train)}, {len(dev)})")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    module = build_model(config)
    opt = torch.optim.Adam(module.parameters(), lr=lr, weight_decay=weight_decay)
    x, y, legal = (torch.from_numpy(a) for a in (train.x, train.y, train.legal))
    start, cpu0 = time.monotonic(), time.process_time()
    best_loss, best_state, best_epoch, bad = float("inf"), None, -1, 0
    history: list[dict[str, float]] = []
    stop = "max_epochs"
    seen = 0
    for epoch in range(max_epochs):
        module.train()
        order = torch.from_numpy(rng.permutation(len(train)))
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            if len(idx) < 2:  # batch norm needs two samples
                continue
            loss = masked_loss(module(x[idx]), y[idx], legal[idx])
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            seen += len(idx)
        dev_loss, dev_acc = _evaluate(module, dev)
        history.append({"epoch": epoch + 1, "dev_loss": dev_loss, "dev_acc": dev_acc})
        if dev_loss < best_loss:
            best_loss, best_epoch, bad = dev_loss, epoch + 1, 0
            best_state = copy.deepcopy(module.state_dict())
        else:
            bad += 1
            if bad >= patience:
                stop = "early_stopping"
                break
        if time.monotonic() - start > minutes * 60:
            stop = "time_budget"
            break
    assert best_state is not None
    module.load_state_dict(best_state)
    module.eval()
    info = dict(card or {})
    info.update({
        "kind": kind,
        "samples_train": len(train),
        "samples_dev": len(dev),
        "samples_seen": seen,
        "stop_reason": stop,
        "best_epoch": best_epoch,
        "best_dev_loss": best_loss,
        "best_dev_acc": history[best_epoch - 1]["dev_acc"],
        "history": history,
        "hyper": {"batch": batch, "lr": lr, "weight_decay": weight_decay, "patience": patience,
                  "minutes": minutes, "seed": seed, "optimizer": "adam"},
        "wall_minutes": round((time.monotonic() - start) / 60, 3),
        "cpu_minutes": round((time.process_time() - cpu0) / 60, 3),
        "torch": torch.__version__,
        "parameters": sum(p.numel() for p in module.parameters()),
    })
    return Head(kind, dict(config), module, info)

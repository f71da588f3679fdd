"""A learned state-value baseline for policy-gradient self-play (``--baseline critic``).

Why: with the batch-mean baseline, every discard of a hand that its seat went on to lose is
pushed down and every discard of a won hand pushed up, although most of a hand's outcome was
settled by the deal and by the other players.  Over the ~2,000 Riichi games this machine can play
in an hour that noise drowned the signal (docs/rl_runs.md).  Subtracting ``V(s)``, an estimate of
the return expected from the position itself, removes the part of the return the discard could
not change and keeps the estimator unbiased (the baseline does not depend on the action taken).

The critic starts as a copy of the policy's own network — the supervised trunk already reads a
hand — with its last linear layer replaced by a single, zero-initialised output, so at first it
predicts 0 everywhere (the ``none`` baseline) and learns the returns by mean squared error on
the same sampled decisions the policy learns from.  For an ensemble policy only its first member
is copied: a baseline needs to be cheap, not the strongest player.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from tenpai.rl.update import gradient_step

__all__ = ["CriticStats", "fit_critic", "make_critic", "predict_values"]


@dataclass(frozen=True, slots=True)
class CriticStats:
    """How well the critic explained a batch *before* it learned from it (an honest, held-out
    figure for that batch) and its loss while learning."""

    mse_before: float
    explained_variance: float
    mse_train: float


def make_critic(policy: nn.Module) -> nn.Module:
    """A value network: the policy's network (first member of an ensemble) with one output."""
    members = getattr(policy, "members", None)
    source = members[0] if isinstance(members, nn.ModuleList) and len(members) else policy
    critic = copy.deepcopy(source)
    parent, name, last = _last_linear(critic)
    out = nn.Linear(last.in_features, 1)
    nn.init.zeros_(out.weight)
    nn.init.zeros_(out.bias)
    setattr(parent, name, out)
    return critic


def _last_linear(module: nn.Module) -> tuple[nn.Module, str, nn.Linear]:
    found: tuple[nn.Module, str, nn.Linear] | None = None
    for parent in module.modules():
        for name, child in parent.named_children():
            if isinstance(child, nn.Linear):
                found = (parent, name, child)
    if found is None:
        raise ValueError(f"{type(module).__name__} has no linear output layer to turn into a value")
    return found


def predict_values(critic: nn.Module, x: np.ndarray, minibatch: int = 2048) -> np.ndarray:
    """``V(s)`` for every row of ``x`` (float64), in evaluation mode and without gradients."""
    critic.eval()
    out = np.empty(len(x), dtype=np.float64)
    with torch.no_grad():
        for start in range(0, len(x), minibatch):
            xb = torch.from_numpy(x[start : start + minibatch])
            out[start : start + len(xb)] = critic(xb).squeeze(1).double().numpy()
    return out


def fit_critic(
    critic: nn.Module,
    optimizer: torch.optim.Optimizer,
    x: np.ndarray,
    returns: np.ndarray,
    *,
    epochs: int = 2,
    minibatch: int = 512,
    generator: np.random.Generator | None = None,
    max_grad_norm: float = 1.0,
) -> CriticStats:
    """Learn ``returns`` from ``x`` by mean squared error for ``epochs`` shuffled passes.

    Batch normalisation stays in evaluation mode, as in the policy update: the supervised
    statistics describe these inputs, and a batch of one game's decisions would shift them."""
    if epochs < 1:
        raise ValueError(f"critic epochs must be at least 1, got {epochs}")
    before = predict_values(critic, x)
    target = returns.astype(np.float64)
    mse_before = float(np.mean((before - target) ** 2))
    var = float(target.var())
    explained = 1.0 - mse_before / var if var > 1e-12 else 0.0
    rng = generator or np.random.default_rng(0)
    critic.eval()
    total = 0.0
    seen = 0
    y_all = returns.astype(np.float32)
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(order), minibatch):
            idx = order[start : start + minibatch]
            pred = critic(torch.from_numpy(x[idx])).squeeze(1)
            loss = torch.mean((pred - torch.from_numpy(y_all[idx])) ** 2)
            gradient_step(critic, optimizer, loss, max_grad_norm)
            total += float(loss.detach()) * len(idx)
            seen += len(idx)
    return CriticStats(mse_before=mse_before, explained_variance=explained,
                       mse_train=total / max(seen, 1))

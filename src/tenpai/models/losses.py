"""Training losses for heads whose classes are far from balanced (calls, riichi).

Most call chances are passed (chi: about 9 in 10), so plain cross-entropy learns a cautious
head: the shipped chi head finds 37 % of the human calls.  Two standard remedies, selectable by
name in ``tenpai train sl --loss``:

``weighted``
    cross-entropy with class weights ``(N / (K · n_c)) ** power`` from the training split's
    label counts (``power`` 1 is "balanced": each class weighs as much in total; 0.5 a milder
    tilt), averaged over the batch by those weights (torch's weighted mean);
``focal``
    focal loss (Lin et al. 2017): cross-entropy scaled by ``(1 − p_true) ** gamma``, which
    spends the gradient on the chances the head still gets wrong instead of on easy passes.

Logits arrive with illegal classes already masked to a large negative number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import torch
from torch import nn

__all__ = ["LOSSES", "LossFn", "class_weights", "make_loss"]

LOSSES: Final = ("ce", "weighted", "focal")
LossFn = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def class_weights(counts: Sequence[int], power: float = 1.0) -> torch.Tensor:
    """Per-class weights from label counts; classes never seen get weight 0.

    Normalised so that ``sum(w_c · n_c) = N``: the loss keeps the scale of plain cross-entropy.
    """
    n = torch.tensor([float(c) for c in counts])
    seen = n > 0
    k = int(seen.sum())
    if k == 0:
        raise ValueError("no labels to weigh")
    w = torch.zeros_like(n)
    w[seen] = (n.sum() / (k * n[seen])) ** power
    return w * n.sum() / (w * n).sum()


def make_loss(name: str, *, weights: torch.Tensor | None = None, gamma: float = 2.0) -> LossFn:
    """The loss ``name``: ``ce``, ``weighted`` (with ``weights``) or ``focal`` (with ``gamma``)."""
    if name == "ce":
        return nn.functional.cross_entropy
    if name == "weighted":
        if weights is None:
            raise ValueError("the weighted loss needs class weights")
        w = weights

        def weighted(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            # torch's weighted mean: sum(w_y · nll) / sum(w_y) over the batch.
            return nn.functional.cross_entropy(logits, y, weight=w.to(logits.device))

        return weighted
    if name == "focal":

        def focal(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            logp = torch.log_softmax(logits, dim=1).gather(1, y.unsqueeze(1)).squeeze(1)
            return (-((1.0 - logp.exp()) ** gamma) * logp).mean()

        return focal
    raise ValueError(f"unknown loss {name!r}; known: {', '.join(LOSSES)}")

"""The feed-forward classifier of the MahjongGB report (seed 003).

Linear layers with batch normalisation, ReLU and dropout 0.3; the report's discard model is
352 → 1024 ×5 → 100 → 34 (``hidden=(1024, 1024, 1024, 1024, 1024, 100)``, about 5 M
parameters).  Input: the ``ffn352`` vector (B, 352) of small counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

__all__ = ["FeedForward"]


class FeedForward(nn.Module):
    def __init__(
        self,
        in_features: int,
        classes: int,
        hidden: Sequence[int] = (1024, 1024, 1024, 1024, 1024, 100),
        dropout: float = 0.3,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        n = in_features
        for h in hidden:
            layers += [nn.Linear(n, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(dropout)]
            n = h
        layers.append(nn.Linear(n, classes))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.net(x.float())
        return out

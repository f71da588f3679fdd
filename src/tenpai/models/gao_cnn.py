"""Gao's convolutional network (thesis 004, Figs. 4.2 and 6.1).

Three blocks of a 5×2 'valid' convolution with 100 filters, batch normalisation, ReLU and
dropout 0.5 shrink the 34×4 planes to 22×1; then either one dense layer to the classes
(Fig. 6.1, ``hidden=0``) or a 300-unit layer first (Fig. 4.2, ``hidden=300``).  Input: count
rows (B, C, 34) as stored in shards, expanded to planes inside.
"""

from __future__ import annotations

import torch
from torch import nn

from tenpai.models.planes import expand

__all__ = ["GaoCNN"]


class GaoCNN(nn.Module):
    def __init__(
        self,
        in_channels: int,
        classes: int,
        filters: int = 100,
        hidden: int = 0,
        dropout: float = 0.5,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        c = in_channels
        for _ in range(3):
            layers += [
                nn.Conv2d(c, filters, kernel_size=(5, 2)),
                nn.BatchNorm2d(filters),
                nn.ReLU(),
                nn.Dropout(dropout),
            ]
            c = filters
        self.body = nn.Sequential(*layers)
        flat = filters * 22 * 1
        if hidden:
            self.head: nn.Module = nn.Sequential(
                nn.Flatten(),
                nn.Linear(flat, hidden),
                nn.ReLU(),
                nn.Dropout(dropout),
                nn.Linear(hidden, classes),
            )
        else:
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(flat, classes))

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        """Logits (B, classes) from count rows (B, C, 34)."""
        out: torch.Tensor = self.head(self.body(expand(rows)))
        return out

"""A small residual network over the 34 tile kinds (1-D convolutions along the kind axis).

Each input channel's 34×4 plane becomes four 34-long signals, so neighbouring kinds (runs of a
suit) meet in the kernel; this is cheaper on a CPU than Gao's 2-D convolutions and trains in a
few minutes.  Blocks: conv-BN-ReLU-conv-BN plus the identity, then ReLU.
"""

from __future__ import annotations

import torch
from torch import nn

from tenpai.models.planes import expand

__all__ = ["KindResNet"]


class _Block(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm1d(width),
            nn.ReLU(),
            nn.Conv1d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm1d(width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.net(x))


def kind_trunk(
    in_rows: int, classes: int, *, width: int, blocks: int, dropout: float
) -> tuple[nn.Sequential, nn.Sequential, nn.Sequential]:
    """Stem, residual blocks and head over the 34 kinds, shared by every kind-wise network so
    that their weights keep the same names (``stem.0.weight`` …) and files stay loadable."""
    stem = nn.Sequential(
        nn.Conv1d(in_rows, width, 3, padding=1, bias=False),
        nn.BatchNorm1d(width),
        nn.ReLU(),
    )
    body = nn.Sequential(*(_Block(width) for _ in range(blocks)))
    head = nn.Sequential(
        nn.Conv1d(width, 8, 1),
        nn.ReLU(),
        nn.Flatten(),
        nn.Dropout(dropout),
        nn.Linear(8 * 34, classes),
    )
    return stem, body, head


class KindResNet(nn.Module):
    def __init__(
        self, in_channels: int, classes: int, width: int = 64, blocks: int = 4, dropout: float = 0.1
    ) -> None:
        super().__init__()
        self.stem, self.blocks, self.head = kind_trunk(
            in_channels * 4, classes, width=width, blocks=blocks, dropout=dropout
        )

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        """Logits (B, classes) from count rows (B, C, 34)."""
        planes = expand(rows)  # (B, C, 34, 4)
        b, c, k, w = planes.shape
        x = planes.permute(0, 1, 3, 2).reshape(b, c * w, k)
        out: torch.Tensor = self.head(self.blocks(self.stem(x)))
        return out

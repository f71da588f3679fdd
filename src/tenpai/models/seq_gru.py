"""The sequential model of thesis 004 ch. 5, rebuilt for count rows: a GRU over past turns.

Gao wrapped his convolutions in ``TimeDistributed`` and ran a GRU over the round's turns
(Fig. 5.5); it reached 68.14 % against 69.48 % for his plain CNN, which he put down to the
zero-padded steps.  Here the sequence is the ``seq7`` encoder's seven turns (the seat's six
previous turns and now, oldest first, nine rows each: hand, rivers, melds), and the rest of the
input (``seq7``'s context rows: dora, riichi, rank, round, winds, the offered tile, the
efficiency rows) goes, with the present turn, into the same residual trunk as ``resnet``:

1. each turn: its rows as planes → a 1-D convolution along the kinds → a dense layer →
   a ``hidden``-wide vector (weights shared across turns);
2. a GRU reads the turns oldest first; its last state summarises the past;
3. the summary, projected to ``summary`` channels and repeated at every kind, joins the present
   turn and the context rows in a ``KindResNet``-style trunk that scores the classes.

So the past reaches the trunk only through the GRU, which is the one thing that differs from
``resnet`` on ``gao86e`` (same information, same trunk): the issue-19 ablation compares them.
"""

from __future__ import annotations

import torch
from torch import nn

from tenpai.models.planes import expand
from tenpai.models.resnet import kind_trunk

__all__ = ["SeqGRU"]


class SeqGRU(nn.Module):
    def __init__(
        self,
        in_channels: int,
        classes: int,
        steps: int = 7,
        step_channels: int = 9,
        step_width: int = 32,
        hidden: int = 128,
        summary: int = 16,
        width: int = 64,
        blocks: int = 4,
        dropout: float = 0.1,
    ) -> None:
        super().__init__()
        context = in_channels - steps * step_channels
        if context < 0:
            raise ValueError(
                f"{in_channels} input channels cannot hold {steps} steps of {step_channels}"
            )
        self.steps, self.step_channels = steps, step_channels
        self.step_net = nn.Sequential(
            nn.Conv1d(step_channels * 4, step_width, 3, padding=1, bias=False),
            nn.BatchNorm1d(step_width),
            nn.ReLU(),
            nn.Conv1d(step_width, 8, 1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(8 * 34, hidden),
            nn.ReLU(),
        )
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.to_summary = nn.Linear(hidden, summary)
        trunk_in = (step_channels + context) * 4 + summary
        self.stem, self.blocks, self.head = kind_trunk(
            trunk_in, classes, width=width, blocks=blocks, dropout=dropout
        )

    @staticmethod
    def _kinds_last(rows: torch.Tensor) -> torch.Tensor:
        """(N, C, 34) counts → (N, 4C, 34) binary channels along the kinds."""
        planes = expand(rows)
        n, c, k, w = planes.shape
        return planes.permute(0, 1, 3, 2).reshape(n, c * w, k)

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        """Logits (B, classes) from ``seq7`` count rows (B, C, 34)."""
        b = rows.shape[0]
        seq_end = self.steps * self.step_channels
        turns = rows[:, :seq_end].reshape(b * self.steps, self.step_channels, 34)
        per_turn = self.step_net(self._kinds_last(turns)).reshape(b, self.steps, -1)
        _, last = self.gru(per_turn)  # (1, B, hidden)
        summary = self.to_summary(last[0])  # (B, summary)
        now = rows[:, seq_end - self.step_channels :]  # present turn + context rows
        x = torch.cat([self._kinds_last(now), summary.unsqueeze(-1).expand(-1, -1, 34)], dim=1)
        out: torch.Tensor = self.head(self.blocks(self.stem(x)))
        return out

"""Several trained networks of one head, scoring together (their logits averaged).

Two copies of the same small net trained from different seeds disagree on a good share of
close discards; averaging them removes part of each one's noise, which is the cheapest gain a
CPU-bound budget can buy (two one-thread runs side by side instead of one).  The ensemble is an
ordinary module with an ordinary config, so it saves and loads through the model bundle like any
other head, and the agent needs no change.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

__all__ = ["Ensemble"]


class Ensemble(nn.Module):
    def __init__(self, members: list[dict[str, Any]]) -> None:
        super().__init__()
        # Imported here: tenpai.models imports this module to register the arch.
        from tenpai.models import build_model

        if not members:
            raise ValueError("an ensemble needs at least one member config")
        if any(m.get("arch") == "ensemble" for m in members):
            raise ValueError("ensembles do not nest")
        self.members = nn.ModuleList(build_model(m) for m in members)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = torch.stack([m(x) for m in self.members]).mean(dim=0)
        return out

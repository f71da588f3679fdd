"""Several trained networks of one head, scoring together (their logits averaged).

Two copies of the same small net trained from different seeds disagree on a good share of
close discards; averaging them removes part of each one's noise, which is the cheapest gain a
CPU-bound budget can buy (two one-thread runs side by side instead of one).  The ensemble is an
ordinary module with an ordinary config, so it saves and loads through the model bundle like any
other head, and the agent needs no change.

Members may read different encoders when one encoder's channels begin with the other's (the
look-ahead encoder ``gao86e_la`` is ``gao86e`` plus seven rows): ``takes`` gives each member
the number of leading input channels it reads, so runs trained before a wider encoder existed
still vote in an ensemble that is fed the wider input.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from tenpai.models.networks import build_network

__all__ = ["Ensemble"]


class Ensemble(nn.Module):
    def __init__(self, members: list[dict[str, Any]], takes: list[int] | None = None) -> None:
        super().__init__()
        if not members:
            raise ValueError("an ensemble needs at least one member config")
        if any(m.get("arch") == "ensemble" for m in members):
            raise ValueError("ensembles do not nest")
        if takes is not None and (
            len(takes) != len(members) or any(not isinstance(t, int) or t < 1 for t in takes)
        ):
            raise ValueError(f"takes must give one positive channel count per member: {takes}")
        self.members = nn.ModuleList(build_network(m) for m in members)
        self.takes = list(takes) if takes is not None else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.takes is None:
            outs = [m(x) for m in self.members]
        else:
            outs = [m(x[:, :t]) for m, t in zip(self.members, self.takes, strict=True)]
        out: torch.Tensor = torch.stack(outs).mean(dim=0)
        return out

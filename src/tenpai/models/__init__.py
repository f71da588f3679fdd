"""Torch modules for the supervised agents (the ``learn`` extra: ``pip install tenpai[learn]``).

Nothing outside :mod:`tenpai.models`, :mod:`tenpai.train`, the ``sl`` agent and the learning
CLI commands imports this package, so the engine never pulls in torch.

``build_model(config)`` makes a module from a JSON-able config (``{"arch": "gao_cnn", ...}``);
configs travel with the weights in checkpoints so a model can always be rebuilt.
"""

from __future__ import annotations

from typing import Any

from torch import nn

from tenpai.models.ensemble import Ensemble
from tenpai.models.ffn import FeedForward
from tenpai.models.gao_cnn import GaoCNN
from tenpai.models.muzero import MuZeroNet
from tenpai.models.resnet import KindResNet

__all__ = [
    "ARCHS", "Ensemble", "FeedForward", "GaoCNN", "KindResNet", "MuZeroNet", "build_model"
]

ARCHS: dict[str, type[nn.Module]] = {
    "gao_cnn": GaoCNN,
    "resnet": KindResNet,
    "ffn": FeedForward,
    "ensemble": Ensemble,
    "muzero": MuZeroNet,
}


def build_model(config: dict[str, Any]) -> nn.Module:
    """The module described by ``config`` (``arch`` plus that class's keyword arguments)."""
    cfg = dict(config)
    arch = cfg.pop("arch", None)
    if arch not in ARCHS:
        raise ValueError(f"unknown model arch {arch!r}; known: {', '.join(ARCHS)}")
    return ARCHS[arch](**cfg)

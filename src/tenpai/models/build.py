"""Every arch a model file may name: the single networks plus ``ensemble``, which averages
several of them.  :func:`build_model` is what checkpoints and training build their heads with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from torch import nn

from tenpai.models.ensemble import Ensemble
from tenpai.models.networks import NETWORKS, build_checked

__all__ = ["ARCHS", "build_model"]

ARCHS: Final[Mapping[str, type[nn.Module]]] = {**NETWORKS, "ensemble": Ensemble}


def build_model(config: dict[str, Any]) -> nn.Module:
    """The module described by ``config`` (``{"arch": "gao_cnn", ...}``), checked before
    anything is built; raises :class:`~tenpai.models.networks.ModelConfigError`."""
    return build_checked(ARCHS, config)

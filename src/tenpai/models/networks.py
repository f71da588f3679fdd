"""The single networks a model config may name, and the checked build every config goes
through (the ``ensemble`` arch, which holds several of them, is added in :mod:`.build`).

Kept apart from :mod:`.build` so an ensemble can build its members here without importing
the module that registers the ensemble itself: members never nest, so the networks below are
all they may be.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from typing import Any, Final

import torch
from torch import nn

from tenpai.models.ffn import FeedForward
from tenpai.models.gao_cnn import GaoCNN
from tenpai.models.muzero import MuZeroNet
from tenpai.models.resnet import KindResNet
from tenpai.models.seq_gru import SeqGRU

__all__ = ["MAX_PARAMETERS", "NETWORKS", "ModelConfigError", "build_checked", "build_network"]

NETWORKS: Final[Mapping[str, type[nn.Module]]] = {
    "gao_cnn": GaoCNN,
    "resnet": KindResNet,
    "ffn": FeedForward,
    "muzero": MuZeroNet,
    "seq_gru": SeqGRU,
}

#: Largest network a config may describe, in parameters.  The shipped heads hold about a
#: million; a model file or ``--arch-options`` asking for more (a width of 10**6 once asked
#: torch for 19 GB before anything was checked) is refused before any memory is taken.
MAX_PARAMETERS: Final = 100_000_000


class ModelConfigError(ValueError):
    """A model config names no known network or describes one that cannot or should not be
    built (a keyword the network does not take, a width that is not a number, too large)."""


def build_network(config: dict[str, Any]) -> nn.Module:
    """The single network ``config`` describes (one of :data:`NETWORKS`), checked as
    :func:`build_checked` says."""
    return build_checked(NETWORKS, config)


def build_checked(archs: Mapping[str, type[nn.Module]], config: dict[str, Any]) -> nn.Module:
    """The module of ``archs`` described by ``config`` (``arch`` plus that class's keyword
    arguments).

    Configs come from model files and the command line, so they are checked first: every
    number a network's signature declares ``int`` or ``float`` must be one (``int`` ones not
    negative), unknown keywords are refused, and the network is built once on torch's
    ``meta`` device (no memory) to count its parameters against :data:`MAX_PARAMETERS`.
    Raises :class:`ModelConfigError`.
    """
    if not isinstance(config, dict):
        raise ModelConfigError(f"a model config must be a JSON object, not {type(config).__name__}")
    cfg = dict(config)
    arch = cfg.pop("arch", None)
    if not isinstance(arch, str) or arch not in archs:
        raise ModelConfigError(f"unknown model arch {arch!r}; known: {', '.join(archs)}")
    cls = archs[arch]
    _check_arguments(arch, cls, cfg)
    try:
        with torch.device("meta"):
            probe = cls(**cfg)
    except (TypeError, ValueError, RuntimeError) as exc:
        raise ModelConfigError(f"the {arch} options do not describe a network: {exc}") from exc
    size = sum(p.numel() for p in probe.parameters())
    if size > MAX_PARAMETERS:
        raise ModelConfigError(
            f"the {arch} config describes {size:,} parameters; the limit is {MAX_PARAMETERS:,}"
        )
    return cls(**cfg)


def _check_arguments(arch: str, cls: type[nn.Module], cfg: dict[str, Any]) -> None:
    params = inspect.signature(cls.__init__).parameters
    for key, value in cfg.items():
        param = params.get(key)
        if param is None or key == "self":
            known = ", ".join(k for k in params if k != "self")
            raise ModelConfigError(f"the {arch} network takes no option {key!r}; it takes {known}")
        kind = param.annotation if isinstance(param.annotation, str) else getattr(
            param.annotation, "__name__", "")
        if kind == "int" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ModelConfigError(f"{arch} option {key!r} must be a whole number >= 0, "
                                   f"not {value!r}")
        if kind == "float" and (isinstance(value, bool) or not isinstance(value, (int, float))
                                or not math.isfinite(value)):
            raise ModelConfigError(f"{arch} option {key!r} must be a number, not {value!r}")

"""MCR encoders by name: ``get_mcr_encoder("mcr_stack002")`` (optionally ``name@version``).

Each is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and ``ENCODER``; a model records
the tag (``mcr_ffn352@1``) it was trained on, so an encoder's output for a given view never
changes — a change is a new ``VERSION`` or a new module.  Channel tables: docs/learning_mcr.md.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from tenpai.learn.mcr.state import MCRView

__all__ = ["MCR_ENCODER_NAMES", "MCREncoder", "get_mcr_encoder"]

MCR_ENCODER_NAMES: Final = ("mcr_ffn352", "mcr_stack002")


@dataclass(frozen=True, slots=True)
class MCREncoder:
    """A named, versioned view → ``uint8`` array function with its output shape."""

    name: str
    version: int
    layout: Literal["planes", "vector"]
    shape: tuple[int, ...]
    channels: tuple[str, ...]
    fill: Callable[[MCRView, np.ndarray], None]

    def encode(self, view: MCRView) -> np.ndarray:
        out = np.zeros(self.shape, dtype=np.uint8)
        self.fill(view, out)
        return out

    def encode_batch(self, views: list[MCRView]) -> np.ndarray:
        out = np.zeros((len(views), *self.shape), dtype=np.uint8)
        for i, v in enumerate(views):
            self.fill(v, out[i])
        return out

    @property
    def tag(self) -> str:
        """``name@version``, written into manifests and model cards."""
        return f"{self.name}@{self.version}"


def get_mcr_encoder(name: str) -> MCREncoder:
    """The MCR encoder called ``name`` (a ``@version`` suffix must match the module's)."""
    base_name, _, version = name.partition("@")
    if base_name not in MCR_ENCODER_NAMES:
        raise ValueError(f"unknown MCR encoder {name!r}; known: {', '.join(MCR_ENCODER_NAMES)}")
    module = importlib.import_module(f"tenpai.learn.mcr.encoders.{base_name}")
    enc: MCREncoder = module.ENCODER
    if version and int(version) != enc.version:
        raise ValueError(f"MCR encoder {base_name} is at version {enc.version}, "
                         f"but version {version} was asked for")
    return enc

"""Encoders by name: ``get_encoder("gao68")``.

Each encoder is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and ``ENCODER`` (see
:mod:`tenpai.learn.encoders.base` for the contract and docs/encoders.md for the channel
tables).  Modules are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Final

from tenpai.learn.encoders.base import Encoder

__all__ = ["ENCODER_NAMES", "Encoder", "get_encoder"]

ENCODER_NAMES: Final = ("gao56", "gao68", "gao86", "gao86e", "ffn352")


def get_encoder(name: str) -> Encoder:
    """The encoder called ``name`` (optionally ``name@version``, which must match)."""
    base_name, _, version = name.partition("@")
    if base_name not in ENCODER_NAMES:
        raise ValueError(f"unknown encoder {name!r}; known: {', '.join(ENCODER_NAMES)}")
    module = importlib.import_module(f"tenpai.learn.encoders.{base_name}")
    enc: Encoder = module.ENCODER
    if version and int(version) != enc.version:
        raise ValueError(
            f"encoder {base_name} is at version {enc.version}, but version {version} was asked for"
        )
    return enc

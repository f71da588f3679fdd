"""Riichi encoders by name: ``get_encoder("gao68")``.

Each encoder is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and ``ENCODER`` (see
:mod:`tenpai.learn.encoders.base` for the contract and docs/encoders.md for the channel
tables).  Modules are imported on first use.  Every rule set's encoders are found through its
registry entry (:meth:`tenpai.learn.rulesets.LearningRules.get_encoder`); this is Riichi's.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.base import Encoder

__all__ = ["ENCODER_NAMES", "Encoder", "get_encoder"]

ENCODER_NAMES: Final = ("gao56", "gao68", "gao86", "gao86e", "ffn352")


def get_encoder(name: str) -> Encoder:
    """The Riichi encoder called ``name`` (optionally ``name@version``, which must match)."""
    from tenpai.learn.rulesets import get_rules

    return get_rules("riichi").get_encoder(name)

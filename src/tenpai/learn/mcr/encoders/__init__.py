"""MCR encoders by name: ``get_mcr_encoder("mcr_stack002")`` (optionally ``name@version``).

Each is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and ``ENCODER``, an
:class:`~tenpai.learn.encoders.base.Encoder` like every rule set's; a model records the tag
(``mcr_ffn352@1``) it was trained on, so an encoder's output for a given view never changes —
a change is a new ``VERSION`` or a new module.  Channel tables: docs/learning_mcr.md.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.base import Encoder

__all__ = ["MCR_ENCODER_NAMES", "MCREncoder", "get_mcr_encoder"]

MCR_ENCODER_NAMES: Final = ("mcr_ffn352", "mcr_stack002")

#: The shared encoder type under the name MCR code has always used.
MCREncoder = Encoder


def get_mcr_encoder(name: str) -> Encoder:
    """The MCR encoder called ``name`` (a ``@version`` suffix must match the module's)."""
    from tenpai.learn.rulesets import get_rules

    return get_rules("mcr").get_encoder(name)

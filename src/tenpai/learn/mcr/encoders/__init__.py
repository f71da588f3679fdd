"""MCR's encoders: frozen modules, found by name through the registry.

``tenpai.learn.rulesets.get_encoder("mcr_stack002", "mcr")`` finds one (optionally
``name@version``).  Each is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and
``ENCODER``, an :class:`~tenpai.learn.encoders.base.Encoder` like every rule set's; a model
records the tag (``mcr_ffn352@1``) it was trained on, so an encoder's output for a given
view never changes — a change is a new ``VERSION`` or a new module.  Channel tables:
docs/learning_mcr.md.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.base import Encoder

__all__ = ["MCR_ENCODER_NAMES", "MCREncoder"]

MCR_ENCODER_NAMES: Final = ("mcr_ffn352", "mcr_stack002")

#: The shared encoder type under the name MCR code has always used.
MCREncoder = Encoder

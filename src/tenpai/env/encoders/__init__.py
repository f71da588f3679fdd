"""Observation encoders that belong to the environments (frozen, versioned modules).

Riichi and MCR environments reuse the learning encoders (``tenpai.learn.encoders``,
``tenpai.learn.mcr.encoders``); the 108-tile game had none, so its plane encoder lives here:
:mod:`tenpai.env.encoders.s108planes`.  Frozen means what it means for the learning encoders:
an encoder's output for a given view never changes; a change is a new ``VERSION``.
"""

from __future__ import annotations

__all__: list[str] = []

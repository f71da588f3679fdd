"""The two numbers every shanten table agrees on, below both the builder and the shipped file.

:mod:`tenpai.hand.tables` builds the tables with these limits and :mod:`tenpai.hand.packed`
reads the shipped copy; the look-ups (:mod:`tenpai.hand._core`, :mod:`tenpai.hand.accel`,
:mod:`tenpai.hand.batch`) test their answers against :data:`INVALID`.  Kept apart so the
numpy-free reader never has to import the builder for them, nor the builder the reader.
"""

from __future__ import annotations

from typing import Final

__all__ = ["INVALID", "MAX_TILES"]

#: Concealed tiles a hand may hold (13 plus the drawn one).
MAX_TILES: Final = 14
#: ``final`` entry of a hand that cannot occur: more than 14 tiles or a multiple of three.
INVALID: Final = -9

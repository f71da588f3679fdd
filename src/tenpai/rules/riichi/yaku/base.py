"""The shape every yaku class has: declarative attributes and one predicate.

A yaku is a class, not a table row, so that its rule reads as one small function next to its
name and values.  Instances are stateless singletons built once (see ``yaku/__init__.py``).
"""

from __future__ import annotations

from typing import ClassVar

from tenpai.rules.riichi.reading import Reading

__all__ = ["Yaku"]


class Yaku:
    """A scoring pattern or situation.

    ``id`` is the Tenhou/mjai-style English name used in results and events; ``name_ja`` the
    Japanese name; ``han_closed``/``han_open`` the value with a closed or an open hand
    (``han_open`` ``None``: closed hands only).  For a yakuman the han are 13 per yakuman and
    ``double`` marks the variants some rules pay twice (``RiichiRules.double_yakuman_variants``).
    ``per_reading`` is false for yaku that only look at the situation or at the tile counts:
    the scorer then tests them once per hand instead of once per reading.
    """

    id: ClassVar[str]
    name_ja: ClassVar[str]
    han_closed: ClassVar[int]
    han_open: ClassVar[int | None]
    yakuman: ClassVar[bool] = False
    double: ClassVar[bool] = False
    per_reading: ClassVar[bool] = True

    def applies(self, r: Reading) -> bool:
        """Whether the yaku holds for this reading of the hand."""
        raise NotImplementedError

    def han(self, closed: bool) -> int:
        """The han this yaku is worth (0 when it needs a closed hand and the hand is open)."""
        if closed:
            return self.han_closed
        return self.han_open or 0

    def __repr__(self) -> str:
        return f"<yaku {self.id}>"

"""Called and concealed sets, shared by every rule set (mjai names for the kinds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Meld", "MeldType"]

MeldType = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A set on the table.

    ``tiles`` holds every tile of the set (tile codes, the claimed one included); ``called`` is
    the claimed tile and ``target`` the seat it came from (``None`` for a concealed kan).  A
    ``kakan`` keeps the original pon's claim so scoring and pao can still see where it came from.
    """

    type: MeldType
    tiles: tuple[int, ...]
    called: int | None = None
    target: int | None = None
    added: int | None = None

    @property
    def is_open(self) -> bool:
        return self.type != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.type in ("daiminkan", "kakan", "ankan")

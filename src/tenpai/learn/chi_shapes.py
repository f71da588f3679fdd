"""Which of the three chi (chow) shapes a call makes, one answer for every rule set.

A chi is labelled by where the called tile sits in the run (1 lowest, 2 middle, 3 highest), so
a policy can tell apart the calls a hand may make with one offered tile.  Riichi and MCR use
the same labels (MCR names the call a chow): the Riichi decisions and the MCR decisions both
read them from here.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["chi_class", "chi_classes"]


def chi_class(called_kind: int, consumed_kinds: Sequence[int]) -> int:
    """1, 2 or 3: where the called tile sits in the run (lowest, middle, highest)."""
    if called_kind < min(consumed_kinds):
        return 1
    if called_kind > max(consumed_kinds):
        return 3
    return 2


def chi_classes(hand: Sequence[int], kind: int) -> tuple[int, ...]:
    """The shapes (see :func:`chi_class`) ``hand`` (34 counts) could make with a ``kind``."""
    if kind >= 27:
        return ()
    n = kind % 9
    out = []
    if n <= 6 and hand[kind + 1] and hand[kind + 2]:
        out.append(1)
    if 1 <= n <= 7 and hand[kind - 1] and hand[kind + 1]:
        out.append(2)
    if n >= 2 and hand[kind - 2] and hand[kind - 1]:
        out.append(3)
    return tuple(out)

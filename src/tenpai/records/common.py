"""Small helpers shared by the readers and writers (ordering, seat arithmetic, draw kinds)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tenpai import tiles as T
from tenpai.events import Event

__all__ = [
    "DRAW_KINDS",
    "canonical",
    "validate_round",
]

#: ``ryukyoku.kind`` values; the docs list which record string each comes from.
DRAW_KINDS: Final = (
    "exhaustive",
    "nine_terminals",
    "four_winds",
    "four_riichi",
    "four_kans",
    "triple_ron",
    "nagashi_mangan",
)


def _key(t: int) -> tuple[int, int]:
    return (T.kind_of(t), 0 if T.is_red(t) else 1)


def canonical(tiles: Iterable[int]) -> tuple[int, ...]:
    """Tiles in the one order every reader uses for ``consumed`` and shown hands: by kind, a
    red five before the plain fives (the order of Tenhou ids, where the red copy is lowest)."""
    return tuple(sorted(tiles, key=_key))


def validate_round(events: list[Event]) -> str | None:
    """A reason why a round's event list is structurally incomplete, or None when it is whole."""
    if not events or events[0].type != "start_kyoku":
        return "round does not begin with start_kyoku"
    if events[-1].type != "end_kyoku":
        return "round has no end (no hora or ryukyoku)"
    return None

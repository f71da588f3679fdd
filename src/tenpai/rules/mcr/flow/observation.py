"""What one position may know in an MCR hand: its own tiles and everything public.

The basic properties match the Riichi observation (``hand``, ``counts``, ``melds``,
``rivers``, ``visible_counts()``, ``seat_wind`` as a wind *kind* 27-30, ``bakaze``,
``scores``) so generic agents play either rule set; MCR adds ``flowers`` and
``prevalent_wind``.  The view is lazy and read-only; agents act through their legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tenpai.engine.observation import ObservedTable, TableObservation, mask_event

if TYPE_CHECKING:
    from tenpai.rules.mcr.flow.rules import MCRRules
    from tenpai.rules.mcr.flow.wall import MCRWall

__all__ = ["MCRObservation", "ObservedMCRRound", "mask_event"]


class ObservedMCRRound(ObservedTable, Protocol):
    """What :class:`MCRObservation` reads of an MCR hand besides the shared table
    (:class:`~tenpai.rules.mcr.flow.round.MCRRound` builds the views and satisfies it)."""

    @property
    def rules(self) -> MCRRules: ...

    @property
    def wall(self) -> MCRWall: ...

    @property
    def flowers(self) -> Sequence[Sequence[int]]: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def prevalent_wind(self) -> int: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    def seat_wind(self, seat: int) -> int: ...

    @property
    def wall_remaining(self) -> int:
        """What the next player in turn can still draw (its own wall under per-seat walls)."""
        ...


class MCRObservation(TableObservation[ObservedMCRRound]):
    """A position's view of an MCR hand (``seat`` is the table position, as in the events)."""

    __slots__ = ()
    #: A concealed kong lies face down: others see neither its tiles in melds nor in events.
    hide_closed_kans = True

    @property
    def flowers(self) -> tuple[tuple[int, ...], ...]:
        """Flowers each position has set aside."""
        return tuple(tuple(f) for f in self._table.flowers)

    @property
    def scores(self) -> tuple[int, ...]:
        """Game scores by position at the start of this hand."""
        return tuple(self._table.scores)

    @property
    def wall_remaining(self) -> int:
        """Tiles the next player in turn can still draw (0: the last discard)."""
        return self._table.wall_remaining

    @property
    def draws_left(self) -> int:
        """Tiles this position can still expect to draw: what is left of its own wall under
        per-seat walls (Botzone), else a quarter of the shared wall, rounded up.  Public
        knowledge: anyone can count the draws made so far."""
        t = self._table
        if t.rules.per_seat_walls:
            return t.wall.remaining_for(self.seat)
        return (t.wall.total_remaining + 3) // 4

    @property
    def prevalent_wind(self) -> int:
        """0-3 = E S W N."""
        return self._table.prevalent_wind

    @property
    def bakaze(self) -> int:
        """The prevalent wind under its Riichi name (0-3), for generic agents."""
        return self._table.prevalent_wind

    @property
    def kyoku(self) -> int:
        return self._table.hand_number

    @property
    def oya(self) -> int:
        return self._table.dealer

    @property
    def seat_wind(self) -> int:
        """Own wind as a tile kind (27-30), the Riichi observation's convention."""
        return 27 + self._table.seat_wind(self.seat)

"""What one seat may know in a 108-tile hand: its own tiles and everything public.

The fields mirror :class:`tenpai.rules.riichi.flow.observation.RiichiObservation` (hand, counts,
melds, rivers, ``visible_counts()``, seat wind, scores …) so that generic agents written against
Riichi observations, such as ``make_agent("efficiency")``, play this game unchanged.  Riichi-only
fields have their neutral value here: no dora markers, no honba or deposits, and ``riichi``
reports the ready declarations.  The view is lazy and read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tenpai.engine.observation import ObservedTable, TableObservation, mask_event

if TYPE_CHECKING:
    from tenpai.rules.suits108.wall import Suits108Wall

__all__ = ["ObservedSuits108Round", "Suits108Observation", "mask_event"]


class ObservedSuits108Round(ObservedTable, Protocol):
    """What :class:`Suits108Observation` reads of a hand besides the shared table
    (:class:`~tenpai.rules.suits108.round.Suits108Round` builds the views and satisfies it)."""

    @property
    def wall(self) -> Suits108Wall: ...

    @property
    def declared(self) -> Sequence[bool]: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def hand_index(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    def waits_of(self, seat: int) -> tuple[int, ...]: ...

    def seat_wind(self, seat: int) -> int: ...


class Suits108Observation(TableObservation[ObservedSuits108Round]):
    """A seat's view of a 108-tile hand."""

    __slots__ = ()

    @property
    def declared(self) -> tuple[bool, ...]:
        """Which seats have declared a ready hand (their hands are locked)."""
        return tuple(self._table.declared)

    @property
    def riichi(self) -> tuple[bool, ...]:
        """The ready declarations, under the name Riichi agents look for."""
        return self.declared

    @property
    def own_waits(self) -> tuple[int, ...]:
        """Kinds that would complete this seat's hand now (empty unless it is ready)."""
        r = self._table
        if len(r.hands[self.seat]) % 3 != 1:
            return ()
        return r.waits_of(self.seat)

    @property
    def dora_markers(self) -> tuple[int, ...]:
        return ()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._table.scores)

    @property
    def wall_remaining(self) -> int:
        return self._table.wall.remaining

    @property
    def hand_index(self) -> int:
        """Which hand of the game this is (0 for the first)."""
        return self._table.hand_index

    @property
    def bakaze(self) -> int:
        """Round wind index (0 = East for the first four hands), for generic agents."""
        return self._table.hand_index // 4 % 4

    @property
    def kyoku(self) -> int:
        return self._table.hand_index % 4

    @property
    def honba(self) -> int:
        return 0

    @property
    def kyotaku(self) -> int:
        return 0

    @property
    def oya(self) -> int:
        """The dealer's seat."""
        return self._table.dealer

    @property
    def seat_wind(self) -> int:
        return self._table.seat_wind(self.seat)

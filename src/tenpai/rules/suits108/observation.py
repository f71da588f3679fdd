"""What one seat may know in a 108-tile hand: its own tiles and everything public.

The fields mirror :class:`tenpai.rules.riichi.flow.observation.RiichiObservation` (hand, counts,
melds, rivers, ``visible_counts()``, seat wind, scores …) so that generic agents written against
Riichi observations, such as ``make_agent("efficiency")``, play this game unchanged.  Riichi-only
fields have their neutral value here: no dora markers, no honba or deposits, and ``riichi``
reports the ready declarations.  The view is lazy and read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.tiles import kind_of

if TYPE_CHECKING:
    from tenpai.rules.suits108.round import Suits108Round

__all__ = ["Suits108Observation", "mask_event"]


def mask_event(e: Event, seat: int) -> Event:
    """The event as ``seat`` sees it: other players' deals and draws hidden."""
    if e.type == "start_kyoku":
        return e.with_(tehais=tuple(h if i == seat else None for i, h in enumerate(e.tehais)))
    if e.type == "tsumo" and e.actor != seat:
        return e.with_(pai=None)
    return e


class Suits108Observation:
    """A seat's view of a 108-tile hand."""

    __slots__ = ("__round", "seat")

    def __init__(self, rnd: Suits108Round, seat: int) -> None:
        self.__round = rnd
        self.seat = seat

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles (tile codes); after a draw the drawn tile is last."""
        return tuple(self.__round.hands[self.seat])

    @property
    def counts(self) -> list[int]:
        """Own concealed tiles as a 34-count vector (a copy; honour slots stay 0)."""
        return list(self.__round.counts[self.seat])

    @property
    def drawn(self) -> int | None:
        r = self.__round
        return r.drawn if r.turn == self.seat else None

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        return tuple(tuple(m) for m in self.__round.melds)

    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r) for r in self.__round.rivers)

    @property
    def declared(self) -> tuple[bool, ...]:
        """Which seats have declared a ready hand (their hands are locked)."""
        return tuple(self.__round.declared)

    @property
    def riichi(self) -> tuple[bool, ...]:
        """The ready declarations, under the name Riichi agents look for."""
        return self.declared

    @property
    def own_waits(self) -> tuple[int, ...]:
        """Kinds that would complete this seat's hand now (empty unless it is ready)."""
        r = self.__round
        if len(r.hands[self.seat]) % 3 != 1:
            return ()
        return r.waits_of(self.seat)

    @property
    def dora_markers(self) -> tuple[int, ...]:
        return ()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.__round.scores)

    @property
    def wall_remaining(self) -> int:
        return self.__round.wall.remaining

    @property
    def hand_index(self) -> int:
        """Which hand of the game this is (0 for the first)."""
        return self.__round.hand_index

    @property
    def bakaze(self) -> int:
        """Round wind index (0 = East for the first four hands), for generic agents."""
        return self.__round.hand_index // 4 % 4

    @property
    def kyoku(self) -> int:
        return self.__round.hand_index % 4

    @property
    def honba(self) -> int:
        return 0

    @property
    def kyotaku(self) -> int:
        return 0

    @property
    def oya(self) -> int:
        """The dealer's seat."""
        return self.__round.dealer

    @property
    def seat_wind(self) -> int:
        return self.__round.seat_wind(self.seat)

    def visible_counts(self) -> list[int]:
        """Copies of each kind this seat can see outside its own hand (rivers and melds)."""
        r = self.__round
        seen = [0] * 34
        for s in range(4):
            for t, called in zip(r.rivers[s], r.river_called[s]):
                if not called:
                    seen[kind_of(t)] += 1
            for m in r.melds[s]:
                for t in m.tiles:
                    seen[kind_of(t)] += 1
        return seen

    @property
    def events(self) -> list[Event]:
        """The hand's events so far as this seat saw them."""
        return [mask_event(e, self.seat) for e in self.__round.events]

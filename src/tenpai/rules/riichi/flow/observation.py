"""What one seat may know: its own hand and everything public, never another hand or the wall.

The view is lazy (nothing is copied until asked for) because agents usually read only a few
fields, and it is read-only: agents act through the legal actions they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tenpai.engine.meld import Meld
from tenpai.events import Event

if TYPE_CHECKING:
    from tenpai.rules.riichi.flow.round import RiichiRound

__all__ = ["RiichiObservation", "mask_event"]


def mask_event(e: Event, seat: int) -> Event:
    """The event as ``seat`` sees it: other players' deals and draws hidden."""
    if e.type == "start_kyoku":
        return e.with_(tehais=tuple(h if i == seat else None for i, h in enumerate(e.tehais)))
    if e.type == "tsumo" and e.actor != seat:
        return e.with_(pai=None)
    return e


class RiichiObservation:
    """A seat's view of a Riichi round."""

    __slots__ = ("__round", "seat")

    def __init__(self, rnd: RiichiRound, seat: int) -> None:
        self.__round = rnd
        self.seat = seat

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles (tile codes); after a draw the drawn tile is last."""
        return tuple(self.__round.hands[self.seat])

    @property
    def counts(self) -> list[int]:
        """Own concealed tiles as a 34-count vector (a copy)."""
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
    def riichi(self) -> tuple[bool, ...]:
        return tuple(self.__round.riichi)

    @property
    def dora_markers(self) -> tuple[int, ...]:
        return tuple(self.__round.dora_markers)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.__round.scores)

    @property
    def wall_remaining(self) -> int:
        return self.__round.wall.remaining

    @property
    def bakaze(self) -> int:
        return self.__round.bakaze

    @property
    def kyoku(self) -> int:
        return self.__round.kyoku

    @property
    def honba(self) -> int:
        return self.__round.honba

    @property
    def kyotaku(self) -> int:
        return self.__round.kyotaku

    @property
    def oya(self) -> int:
        return self.__round.oya

    @property
    def seat_wind(self) -> int:
        return self.__round.seat_wind(self.seat)

    def visible_counts(self) -> list[int]:
        """Copies of each kind this seat can see outside its own hand (rivers, melds, dora)."""
        r = self.__round
        seen = [0] * 34
        from tenpai.tiles import kind_of

        for s in range(4):
            for t, called in zip(r.rivers[s], r.river_called[s]):
                if not called:
                    seen[kind_of(t)] += 1
            for m in r.melds[s]:
                for t in m.tiles:
                    seen[kind_of(t)] += 1
        for t in r.dora_markers:
            seen[kind_of(t)] += 1
        return seen

    @property
    def events(self) -> list[Event]:
        """The round's events so far as this seat saw them."""
        return [mask_event(e, self.seat) for e in self.__round.events]

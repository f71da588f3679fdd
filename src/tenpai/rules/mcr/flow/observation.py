"""What one position may know in an MCR hand: its own tiles and everything public.

The basic properties match the Riichi observation (``hand``, ``counts``, ``melds``,
``rivers``, ``visible_counts()``, ``seat_wind`` as a wind *kind* 27-30, ``bakaze``,
``scores``) so generic agents play either rule set; MCR adds ``flowers`` and
``prevalent_wind``.  The view is lazy and read-only; agents act through their legal actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.tiles import kind_of

if TYPE_CHECKING:
    from tenpai.rules.mcr.flow.round import MCRRound

__all__ = ["MCRObservation", "mask_event"]

_HIDDEN_KONG = Meld("ankan", ())


def mask_event(e: Event, seat: int) -> Event:
    """The event as ``seat`` sees it: other positions' deals, draws and concealed kongs hidden
    (MCR lays a concealed kong face down; flowers, once set aside, are public)."""
    if e.type == "start_kyoku":
        return e.with_(tehais=tuple(h if i == seat else None for i, h in enumerate(e.tehais)))
    if e.type == "tsumo" and e.actor != seat:
        return e.with_(pai=None)
    if e.type == "ankan" and e.actor != seat:
        return e.with_(consumed=())
    return e


class MCRObservation:
    """A position's view of an MCR hand (``seat`` is the table position, as in the events)."""

    __slots__ = ("__round", "seat")

    def __init__(self, rnd: MCRRound, seat: int) -> None:
        self.__round = rnd
        self.seat = seat

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles (tile codes, flowers never among them); the drawn tile last."""
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
        """Every position's melds; another's concealed kong shows no tiles (it lies face down)."""
        return tuple(
            tuple(_HIDDEN_KONG if m.type == "ankan" and s != self.seat else m for m in ms)
            for s, ms in enumerate(self.__round.melds)
        )

    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r) for r in self.__round.rivers)

    @property
    def flowers(self) -> tuple[tuple[int, ...], ...]:
        """Flowers each position has set aside."""
        return tuple(tuple(f) for f in self.__round.flowers)

    @property
    def scores(self) -> tuple[int, ...]:
        """Game scores by position at the start of this hand."""
        return tuple(self.__round.scores)

    @property
    def wall_remaining(self) -> int:
        """Tiles the next player in turn can still draw (0: the last discard)."""
        return self.__round._wall_remaining()

    @property
    def prevalent_wind(self) -> int:
        """0-3 = E S W N."""
        return self.__round.prevalent_wind

    @property
    def bakaze(self) -> int:
        """The prevalent wind under its Riichi name (0-3), for generic agents."""
        return self.__round.prevalent_wind

    @property
    def kyoku(self) -> int:
        return self.__round.hand_number

    @property
    def oya(self) -> int:
        return self.__round.dealer

    @property
    def seat_wind(self) -> int:
        """Own wind as a tile kind (27-30), the Riichi observation's convention."""
        return 27 + self.__round.seat_wind(self.seat)

    def visible_counts(self) -> list[int]:
        """Copies of each kind in view outside one's own hand: unclaimed discards, exposed
        melds and one's own concealed kongs (others' lie face down)."""
        r = self.__round
        seen = [0] * 34
        for s in range(4):
            for t, called in zip(r.rivers[s], r.river_called[s]):
                if not called:
                    seen[kind_of(t)] += 1
            for m in r.melds[s]:
                if m.type == "ankan" and s != self.seat:
                    continue
                for t in m.tiles:
                    seen[kind_of(t)] += 1
        return seen

    @property
    def events(self) -> list[Event]:
        """The hand's events so far as this position saw them."""
        return [mask_event(e, self.seat) for e in self.__round.events]

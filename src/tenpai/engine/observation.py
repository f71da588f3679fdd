"""What one seat may know at the shared table: its own hand and everything public.

Rule sets subclass :class:`TableObservation` to add their own public facts (riichi sticks and
dora, flowers, ready declarations).  The view is lazy — nothing is copied until asked for,
because agents usually read a few fields — and read-only: agents act through the legal actions
they are given.  It never exposes another hand or the wall.

A view reads its hand through :class:`ObservedTable`, the few attributes it names, rather than
through the round class: the Python round builds its observations, and the compiled Riichi
table (``rules/riichi/compiled_round.py``) offers the same attributes without being a
:class:`~tenpai.engine.table.TableRound`, so each rule set's view names what it reads (a
protocol extending this one) and both kinds of hand satisfy it by their shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.tiles import kind_of

__all__ = ["ObservedTable", "TableObservation", "mask_event"]

_HIDDEN_KAN = Meld("ankan", ())


def mask_event(e: Event, seat: int, *, hide_closed_kans: bool = False) -> Event:
    """The event as ``seat`` sees it: other players' deals and draws hidden, and with
    ``hide_closed_kans`` their closed kans too (MCR lays them face down)."""
    if e.type == "start_kyoku":
        return e.with_(tehais=tuple(h if i == seat else None for i, h in enumerate(e.tehais)))
    if e.type == "tsumo" and e.actor != seat:
        return e.with_(pai=None)
    if hide_closed_kans and e.type == "ankan" and e.actor != seat:
        return e.with_(consumed=())
    return e


class ObservedTable(Protocol):
    """What :class:`TableObservation` reads of a hand: hands, melds, rivers and events."""

    @property
    def hands(self) -> Sequence[Sequence[int]]: ...

    @property
    def counts(self) -> Sequence[Sequence[int]]: ...

    @property
    def drawn(self) -> int | None: ...

    @property
    def turn(self) -> int: ...

    @property
    def melds(self) -> Sequence[Sequence[Meld]]: ...

    @property
    def rivers(self) -> Sequence[Sequence[int]]: ...

    @property
    def river_called(self) -> Sequence[Sequence[bool]]: ...

    @property
    def events(self) -> Sequence[Event]: ...


#: The hand a view reads: a rule set's protocol, which extends :class:`ObservedTable`.
TableT = TypeVar("TableT", bound=ObservedTable)


class TableObservation(Generic[TableT]):
    """A seat's view of a hand at the shared table (``_table`` is private to the view)."""

    __slots__ = ("_table", "seat")

    #: Whether other players' closed kans are face down (MCR) or shown (Riichi).
    hide_closed_kans = False

    def __init__(self, table: TableT, seat: int) -> None:
        self._table = table
        self.seat = seat

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles (tile codes); after a draw the drawn tile is last."""
        return tuple(self._table.hands[self.seat])

    @property
    def counts(self) -> list[int]:
        """Own concealed tiles as a 34-count vector (a copy)."""
        return list(self._table.counts[self.seat])

    @property
    def drawn(self) -> int | None:
        t = self._table
        return t.drawn if t.turn == self.seat else None

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """Every seat's melds (another's closed kan shows no tiles when they lie face down)."""
        hide = self.hide_closed_kans
        return tuple(
            tuple(_HIDDEN_KAN if hide and m.type == "ankan" and s != self.seat else m for m in ms)
            for s, ms in enumerate(self._table.melds)
        )

    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r) for r in self._table.rivers)

    def visible_counts(self) -> list[int]:
        """Copies of each kind in view outside one's own hand: unclaimed discards and melds
        (plus whatever a rule set shows besides, see :meth:`_extra_visible`)."""
        t = self._table
        seen = [0] * 34
        hide = self.hide_closed_kans
        for s in range(len(t.rivers)):
            for tile, called in zip(t.rivers[s], t.river_called[s]):
                if not called:
                    seen[kind_of(tile)] += 1
            for m in t.melds[s]:
                if hide and m.type == "ankan" and s != self.seat:
                    continue
                for tile in m.tiles:
                    seen[kind_of(tile)] += 1
        for tile in self._extra_visible():
            seen[kind_of(tile)] += 1
        return seen

    def _extra_visible(self) -> tuple[int, ...]:
        """Tiles a rule set shows outside hands, melds and rivers (Riichi's dora markers)."""
        return ()

    @property
    def events(self) -> list[Event]:
        """The hand's events so far as this seat saw them."""
        hide = self.hide_closed_kans
        return [mask_event(e, self.seat, hide_closed_kans=hide) for e in self._table.events]

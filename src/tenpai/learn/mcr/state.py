"""Follow an MCR hand event by event and answer "what could position *p* see just now?".

One tracker serves the dataset builder (fed the replay's full event stream) and the
``sl_mcr`` agent (fed its observation's masked events, where others' deals, draws and closed
kongs are hidden), so a network sees in play exactly what it was trained on.  Seats in an
:class:`MCRView` are relative to the viewer: 0 self, 1 right (plays next), 2 across, 3 left
(whose discards the viewer may chow).
"""

from __future__ import annotations

from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.seat_counts import CALL_TYPES, SeatCounts

__all__ = ["MCRStateError", "MCRTracker", "MCRView"]


class MCRStateError(ValueError):
    """The event stream cannot be followed (a tile given up that was not held, a bad actor)."""


@dataclass(frozen=True, slots=True)
class MCRView:
    """What one position knows at one moment, as plain tuples of 34 counts.

    ``rivers`` leave out tiles that were claimed (they are in the claimer's ``melds``);
    ``melds`` hold every *visible* meld tile (others' concealed kongs are face down, so they
    are only counted for the viewer); ``meld_types`` counts (chow, pung, kong) per seat.
    ``offered`` is the kind being claimed in a claim window, else ``None``.
    """

    seat: int
    hand: tuple[int, ...]
    rivers: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[int, ...], ...]
    meld_types: tuple[tuple[int, int, int], ...]
    flowers: tuple[int, ...]
    prevalent_wind: int
    seat_wind: int
    discards_made: int
    offered: int | None = None

    def unseen(self) -> tuple[int, ...]:
        """Copies of each kind the viewer has not seen (own hand, melds, rivers left out)."""
        out = []
        for k in range(34):
            seen = self.hand[k] + sum(self.melds[r][k] + self.rivers[r][k] for r in range(4))
            out.append(max(0, 4 - seen))
        return tuple(out)


class MCRTracker(SeatCounts):
    """Mutable table state of one MCR hand, fed one :class:`Event` at a time."""

    error = MCRStateError
    seat_word = "position"

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.started = False
        self._reset_counts()
        self.flowers = [0, 0, 0, 0]
        self.prevalent_wind = 0
        self.dealer = 0
        self.discards_made = [0, 0, 0, 0]

    def apply(self, e: Event) -> None:
        """Update the state with one event; events outside a hand are ignored."""
        t = e.type
        if t == "start_kyoku":
            self._start(e)
            return
        if not self.started:
            return
        if t == "tsumo":
            if e.pai is not None and not T.is_flower(e.pai):
                self._add(self._actor(e), e.pai)
        elif t == "flower":
            self.flowers[self._actor(e)] += 1
        elif t == "dahai":
            seat = self._actor(e)
            assert e.pai is not None
            self._discard(seat, e.pai)
            self.discards_made[seat] += 1
        elif t in CALL_TYPES:
            self._call(e)
        elif t == "ankan":
            self._closed_kan(e)
        elif t == "kakan":
            self._added_kan(e)

    def _start(self, e: Event) -> None:
        self._reset()
        self.started = True
        self.prevalent_wind = e.bakaze or 0
        self.dealer = e.oya or 0
        for seat, tiles in enumerate(e.tehais):
            if tiles is None:
                continue
            self.hands[seat] = [0] * 34
            for tile in tiles:
                if T.is_flower(tile):
                    continue  # the engine emits a flower event for it right after
                self._add(seat, tile)

    @property
    def pung_kinds(self) -> list[set[int]]:
        """Per position, the kinds of its pungs (the ones a kong may still be added to)."""
        return self.pon_kinds

    def view(self, seat: int, *, offered: int | None = None) -> MCRView:
        """The table as ``seat`` sees it (see :class:`MCRView`)."""
        order = [(seat + i) % 4 for i in range(4)]
        return MCRView(
            seat=seat,
            hand=tuple(self.hand_counts(seat)),
            rivers=tuple(tuple(self.rivers[s]) for s in order),
            melds=tuple(tuple(self.melds[s]) for s in order),
            meld_types=tuple(
                (self.meld_types[s][0], self.meld_types[s][1], self.meld_types[s][2])
                for s in order
            ),
            flowers=tuple(self.flowers[s] for s in order),
            prevalent_wind=self.prevalent_wind,
            seat_wind=(seat - self.dealer) % 4,
            discards_made=self.discards_made[seat],
            offered=offered,
        )

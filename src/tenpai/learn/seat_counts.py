"""The tile counts per seat that both event trackers keep, moved by the events that move tiles.

The Riichi tracker (:class:`tenpai.learn.state.RoundTracker`) and the MCR one
(:class:`tenpai.learn.mcr.state.MCRTracker`) follow different games, but a draw, a discard, a
call, a closed or an added kan move tiles between a hand, a river and the melds the same way
in both, and both must refuse a stream they cannot follow with their own error.  That
bookkeeping lives here once; each tracker adds what its game has besides (red fives, riichi,
scores; flowers, the dealer's position) and names its seats its own way ("seat",
"position").
"""

from __future__ import annotations

from typing import ClassVar

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["CALL_TYPES", "SeatCounts"]

#: The calls on a discard, with their column in ``meld_types`` (chi/chow, pon/pung, kan/kong).
CALL_TYPES = {"chi": 0, "pon": 1, "daiminkan": 2}


class SeatCounts:
    """Per seat: the concealed 34 counts (``None`` while the deal is hidden), the river without
    the tiles called from it, the meld tiles, the (chi, pon, kan) counts and the kinds of the
    pons an added kan may still extend."""

    #: The error raised for a stream that cannot be followed (a ``ValueError`` subclass).
    error: ClassVar[type[ValueError]] = ValueError
    #: The word a message names a seat with.
    seat_word: ClassVar[str] = "seat"

    def _reset_counts(self) -> None:
        self.hands: list[list[int] | None] = [None] * 4
        self.rivers: list[list[int]] = [[0] * 34 for _ in range(4)]
        self.melds: list[list[int]] = [[0] * 34 for _ in range(4)]
        self.meld_types: list[list[int]] = [[0, 0, 0] for _ in range(4)]
        self.pon_kinds: list[set[int]] = [set() for _ in range(4)]

    def _actor(self, e: Event) -> int:
        if e.actor is None or not 0 <= e.actor < 4:
            raise self.error(f"{e.type} event without a valid actor: {e.to_mjai()}")
        return e.actor

    def _discard(self, seat: int, tile: int) -> None:
        self._remove(seat, tile)
        self.rivers[seat][T.kind_of(tile)] += 1

    def _call(self, e: Event) -> int:
        """A chi, pon or open kan on a discard: the tile leaves the river; returns the caller."""
        seat = self._actor(e)
        if e.target is None or e.pai is None:
            raise self.error(f"{e.type} without target or tile: {e.to_mjai()}")
        k = T.kind_of(e.pai)
        if self.rivers[e.target][k] <= 0:
            raise self.error(f"{e.type} of a tile not in {self.seat_word} {e.target}'s river: "
                             f"{e.to_mjai()}")
        self.rivers[e.target][k] -= 1
        self.melds[seat][k] += 1
        for c in e.consumed:
            self._remove(seat, c)
            self.melds[seat][T.kind_of(c)] += 1
        self.meld_types[seat][CALL_TYPES[e.type]] += 1
        if e.type == "pon":
            self.pon_kinds[seat].add(k)
        return seat

    def _closed_kan(self, e: Event) -> None:
        seat = self._actor(e)
        for c in e.consumed:
            self._remove(seat, c)
            self.melds[seat][T.kind_of(c)] += 1
        self.meld_types[seat][2] += 1

    def _added_kan(self, e: Event) -> None:
        seat = self._actor(e)
        assert e.pai is not None
        k = T.kind_of(e.pai)
        self._remove(seat, e.pai)
        self.melds[seat][k] += 1
        self.meld_types[seat][1] -= 1
        self.meld_types[seat][2] += 1
        self.pon_kinds[seat].discard(k)

    def _add(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        if hand is not None:
            hand[T.kind_of(tile)] += 1

    def _remove(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        if hand is None:
            return
        k = T.kind_of(tile)
        if hand[k] <= 0:
            raise self.error(f"{self.seat_word} {seat} gives up {T.to_mjai(tile)} which it does "
                             "not hold")
        hand[k] -= 1

    def hand_counts(self, seat: int) -> list[int]:
        """The seat's concealed 34 counts (a copy); the tracker's error when they are hidden."""
        hand = self.hands[seat]
        if hand is None:
            raise self.error(f"{self.seat_word} {seat}'s hand is not known to this tracker")
        return list(hand)

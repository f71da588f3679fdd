"""The observation an agent receives over mjai: :class:`RiichiObservation`'s interface, built
from a :class:`SeatTracker` instead of an engine table.

Agents read a handful of properties (``hand``, ``counts``, ``melds``, ``visible_counts()``,
``events``, ``riichi``, ``dora_markers``, ``scores`` …).  This class answers each of them from
the tracker, so every built-in agent plays over mjai unchanged; a test compares every property
with the engine's own observation at every decision of seeded games.  Like the engine's view it
is read-only and lazy.  At three players it also answers ``nukidora`` (the Norths set aside,
which are in view like dora markers) and ``players``.

It also answers ``rules``: the :class:`RiichiRules` the front plays (the mjai bot's ``--preset``
and ``--length``; the Tenhou client's from ``GO``), the engine table's ``rules`` under the same
name, so that an agent that rebuilds a table from the stream (``search``, ``mcts_pg``) values it
under the game's real length rather than a guess.
"""

from __future__ import annotations

from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.serve.mjai.tracker import SeatTracker
from tenpai.tiles import kind_of

__all__ = ["MjaiObservation"]


class MjaiObservation:
    """A seat's view of a Riichi hand, rebuilt from the mjai events it received."""

    __slots__ = ("_st", "seat")

    hide_closed_kans = False

    def __init__(self, tracker: SeatTracker) -> None:
        self._st = tracker
        self.seat = tracker.seat

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles (tile codes); after a draw the drawn tile is last."""
        return tuple(self._st.hand)

    @property
    def counts(self) -> list[int]:
        return list(self._st.counts)

    @property
    def drawn(self) -> int | None:
        st = self._st
        return st.drawn if st.turn == self.seat else None

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        return tuple(tuple(ms) for ms in self._st.melds)

    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r) for r in self._st.rivers)

    def visible_counts(self) -> list[int]:
        """Copies of each kind in view outside one's own hand: unclaimed discards, melds and
        dora markers."""
        st = self._st
        seen = [0] * 34
        for s in range(st.players):
            for tile, called in zip(st.rivers[s], st.river_called[s], strict=True):
                if not called:
                    seen[kind_of(tile)] += 1
            for m in st.melds[s]:
                for tile in m.tiles:
                    seen[kind_of(tile)] += 1
        for tile in st.dora_markers:
            seen[kind_of(tile)] += 1
        for norths in st.nukidora:
            for tile in norths:
                seen[kind_of(tile)] += 1
        return seen

    @property
    def nukidora(self) -> tuple[tuple[int, ...], ...]:
        """Norths each seat has set aside (three players; empty otherwise)."""
        return tuple(tuple(n) for n in self._st.nukidora)

    @property
    def players(self) -> int:
        return self._st.players

    @property
    def rules(self) -> RiichiRules:
        """The rules of the game the front plays (length, table size, red fives ...)."""
        return self._st.rules

    @property
    def events(self) -> list[Event]:
        """The hand's events so far, as this seat received them."""
        return list(self._st.round_events)

    @property
    def riichi(self) -> tuple[bool, ...]:
        return tuple(self._st.riichi)

    @property
    def dora_markers(self) -> tuple[int, ...]:
        return tuple(self._st.dora_markers)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._st.scores)

    @property
    def wall_remaining(self) -> int:
        return self._st.wall_remaining

    @property
    def bakaze(self) -> int:
        return self._st.bakaze

    @property
    def kyoku(self) -> int:
        return self._st.kyoku

    @property
    def honba(self) -> int:
        return self._st.honba

    @property
    def kyotaku(self) -> int:
        return self._st.kyotaku

    @property
    def oya(self) -> int:
        return self._st.oya

    @property
    def seat_wind(self) -> int:
        return self._st.seat_wind()

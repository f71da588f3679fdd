"""What one seat may know in a Riichi hand: the shared table view plus riichi and dora."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tenpai.engine.observation import TableObservation, mask_event

if TYPE_CHECKING:
    from tenpai.rules.riichi.flow.round import RiichiRound
    from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["RiichiObservation", "mask_event"]


class RiichiObservation(TableObservation):
    """A seat's view of a Riichi round."""

    __slots__ = ()
    _table: RiichiRound

    @property
    def riichi(self) -> tuple[bool, ...]:
        return tuple(self._table.riichi)

    @property
    def dora_markers(self) -> tuple[int, ...]:
        return tuple(self._table.dora_markers)

    @property
    def nukidora(self) -> tuple[tuple[int, ...], ...]:
        """Norths each seat has set aside (three players; empty otherwise)."""
        return tuple(tuple(n) for n in self._table.nukidora)

    @property
    def players(self) -> int:
        return self._table.players

    @property
    def rules(self) -> RiichiRules:
        """The rules of the game (length, table size, red fives ...): public, so that an
        agent reads them here as it does on the fronts' observations
        (:class:`~tenpai.serve.mjai.observation.MjaiObservation`) rather than from the table."""
        return self._table.rules

    def _extra_visible(self) -> tuple[int, ...]:
        t = self._table
        return (*t.dora_markers, *(x for n in t.nukidora for x in n))

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._table.scores)

    @property
    def wall_remaining(self) -> int:
        return self._table.wall.remaining

    @property
    def bakaze(self) -> int:
        return self._table.bakaze

    @property
    def kyoku(self) -> int:
        return self._table.kyoku

    @property
    def honba(self) -> int:
        return self._table.honba

    @property
    def kyotaku(self) -> int:
        return self._table.kyotaku

    @property
    def oya(self) -> int:
        return self._table.oya

    @property
    def seat_wind(self) -> int:
        return self._table.seat_wind(self.seat)

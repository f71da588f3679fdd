"""What one seat may know in a Riichi hand: the shared table view plus riichi and dora.

The view reads its hand through :class:`ObservedRiichiRound`, which both the Python round
(:class:`~tenpai.rules.riichi.flow.round.RiichiRound`, which builds the views) and the compiled
table (:class:`~tenpai.rules.riichi.compiled_round.CompiledRound`) satisfy, so this module
imports neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tenpai.engine.observation import ObservedTable, TableObservation, mask_event

if TYPE_CHECKING:
    from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["LiveWall", "ObservedRiichiRound", "RiichiObservation", "mask_event"]


class LiveWall(Protocol):
    """What a view reads of the wall: how many live tiles are left to draw."""

    @property
    def remaining(self) -> int: ...


class ObservedRiichiRound(ObservedTable, Protocol):
    """What :class:`RiichiObservation` reads of a Riichi hand besides the shared table."""

    @property
    def players(self) -> int: ...

    @property
    def rules(self) -> RiichiRules: ...

    @property
    def wall(self) -> LiveWall: ...

    @property
    def riichi(self) -> Sequence[bool]: ...

    @property
    def dora_markers(self) -> Sequence[int]: ...

    @property
    def nukidora(self) -> Sequence[Sequence[int]]: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def bakaze(self) -> int: ...

    @property
    def kyoku(self) -> int: ...

    @property
    def honba(self) -> int: ...

    @property
    def kyotaku(self) -> int: ...

    @property
    def oya(self) -> int: ...

    def seat_wind(self, seat: int) -> int: ...


class RiichiObservation(TableObservation[ObservedRiichiRound]):
    """A seat's view of a Riichi round."""

    __slots__ = ()

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

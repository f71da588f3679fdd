"""The contract between a rule set's game flow and everything that drives it.

A flow answers one question at a time: *who must decide now, and between what?*  Several seats
may decide at once (a claim window); the flow resolves their answers by its own priorities.
Actions are :class:`~tenpai.events.Event` objects, so a bot, a record replay and a human UI all
submit the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tenpai.events import Event

__all__ = ["Decision", "GameEnd", "GameFlow", "IllegalActionError"]


class IllegalActionError(ValueError):
    """An action that the rules do not allow at this point; says who, what and what was legal."""

    def __init__(self, seat: int, action: Event, legal: Sequence[Event], where: str = "") -> None:
        shown = ", ".join(_short(e) for e in legal[:12]) + (" …" if len(legal) > 12 else "")
        place = f" at {where}" if where else ""
        super().__init__(f"seat {seat}: {_short(action)} is not legal{place}; legal: {shown}")
        self.seat = seat
        self.action = action
        self.legal = tuple(legal)


def _short(e: Event) -> str:
    d = e.to_mjai()
    d.pop("actor", None)
    return " ".join(f"{v}" for v in d.values())


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's pending choice: the legal actions and the observation to choose by."""

    seat: int
    legal: tuple[Event, ...]
    observation: Any


class GameFlow(Protocol):
    """What a rule set's game must offer to the runner, the replay and the arena."""

    events: list[Event]

    @property
    def done(self) -> bool: ...

    def pending(self) -> Sequence[Decision]:
        """The decisions that must be made before the game can move on (empty when done)."""
        ...

    def step(self, answers: Mapping[int, Event]) -> None:
        """Apply one answer per pending seat; raises IllegalActionError for an illegal one."""
        ...

    @property
    def final_scores(self) -> tuple[int, ...]: ...


class GameEnd:
    """How every rule set's whole game ends: the final scores kept, ``done`` set and the
    ``end_game`` event (the one records, the replay and the viewers read) emitted, in one place
    so the three games cannot end differently."""

    events: list[Event]
    _done: bool = False
    _final: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return self._done

    @property
    def final_scores(self) -> tuple[int, ...]:
        """The scores the game ended with (by player); empty while it runs."""
        return self._final

    def _end_with(self, scores: Sequence[int]) -> None:
        self._final = tuple(scores)
        self._done = True
        self.events.append(Event("end_game", scores=self._final))

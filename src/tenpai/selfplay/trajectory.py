"""What a finished self-play game hands back: the result, the events and the decisions.

A trainer learns from :class:`Step` records: who decided, between what, what was chosen, and
whatever the agent attached (``info``: the encoded input, the log-probability, a value).  The
events are the full game record in the rule set's own shape, so rewards that need the table
(points, ranks, shaping by hand progress) read them from ``events`` at ``Step.event_index``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tenpai.events import Event

__all__ = ["PlayedGame", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of one seat.

    ``seat`` is the index of the seat in the spec (for MCR's full game, the *player*, as
    :meth:`tenpai.engine.GameFlow.pending` names it).  ``info`` is the second item an agent's
    ``act_batch_with_info`` returned for this request, else None.  ``event_index`` is
    ``len(game.events)`` when the decision was asked, so ``events[:event_index]`` is everything
    that had happened; ``turn`` numbers the game's steps (decisions of one claim window share it).
    """

    seat: int
    legal: tuple[Event, ...]
    action: Event
    info: Any = None
    event_index: int = 0
    turn: int = 0


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game of a self-play run.

    ``index`` is the game's position in :attr:`SelfPlaySpec.seeds` (games may finish in any
    order; sort by it).  ``final_scores`` and ``ranks`` are per seat (1 = first; ties go to the
    seat nearer seat 0).  ``steps`` holds every decision of the seats flagged ``record=True``, in
    the order they were made; ``decisions`` counts the decisions of all seats.
    """

    index: int
    seed: int
    names: tuple[str, ...]
    final_scores: tuple[int, ...]
    ranks: tuple[int, ...]
    events: tuple[Event, ...]
    steps: tuple[Step, ...]
    decisions: int

    def steps_of(self, seat: int) -> list[Step]:
        """The recorded decisions of one seat, in order."""
        return [s for s in self.steps if s.seat == seat]

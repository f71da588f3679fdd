"""A whole 108-tile game: a fixed number of hands, the deal moving round the table, ranks.

The paper evaluates agents with Tenhou's stable-rank formula over games of four hands, so a game
here is ``rules.hands_per_game`` hands with the dealer seat moving on after every hand (each
seat deals once in four hands) whoever wins; the final scores rank the seats, ties going to the
seat nearer the first dealer, as on Tenhou.  Walls come from a seed (the n-th hand of a game
always gets the n-th wall of that seed, whatever the agents do, so duplicate deals work) or from
a ``wall_source`` callback, which the replay uses to feed back a record's own tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tenpai.engine.flow import Decision, GameEnd
from tenpai.engine.wall import hand_shuffle
from tenpai.events import Event
from tenpai.rules.suits108.round import HandResult, Suits108Round
from tenpai.rules.suits108.ruleset import PAPER, Suits108Rules
from tenpai.rules.suits108.wall import TILESET, Suits108Wall

__all__ = ["Suits108Game", "WallSource", "seeded_wall"]

WallSource = Callable[[int], Suits108Wall]
"""Gives the wall of the n-th hand of a game (0-based)."""


def seeded_wall(seed: int, index: int) -> Suits108Wall:
    """The wall of hand ``index`` of the game dealt from ``seed``."""
    return Suits108Wall(hand_shuffle(TILESET, seed, index))


class Suits108Game(GameEnd):
    """Four players, one game under a :class:`Suits108Rules` preset (a ``GameFlow``)."""

    def __init__(
        self,
        rules: Suits108Rules = PAPER,
        *,
        seed: int = 0,
        names: Sequence[str] = ("A", "B", "C", "D"),
        wall_source: WallSource | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        if len(names) != 4:
            raise ValueError(f"Suits108Game: four seat names are needed, got {len(names)}")
        self.rules = rules
        self.seed = seed
        self.tileset = TILESET
        self.wall_source = wall_source or (lambda i: seeded_wall(self.seed, i))
        self.scores = list(scores) if scores is not None else [rules.starting_points] * 4
        self.total_points = sum(self.scores)
        self.events: list[Event] = [Event("start_game", names=tuple(names))]
        self.hand_index = 0
        self.round: Suits108Round | None = None
        self.results: list[HandResult] = []
        self._start_hand()

    # ------------------------------------------------------------------ GameFlow
    def pending(self) -> Sequence[Decision]:
        return [] if self.round is None else self.round.pending()

    def step(self, answers: Mapping[int, Event]) -> None:
        if self.round is None:
            raise RuntimeError("the game is over")
        self.round.step(answers)
        self._advance()

    # ------------------------------------------------------------------ progression
    def dealer_of(self, index: int) -> int:
        """Seat 0 deals the first hand; the deal moves one seat on every hand."""
        return index % 4

    def _start_hand(self) -> None:
        self.round = Suits108Round(
            self.rules,
            self.wall_source(self.hand_index),
            hand_index=self.hand_index,
            dealer=self.dealer_of(self.hand_index),
            scores=self.scores,
            emit=self.events.append,
        )
        self._advance()

    def _advance(self) -> None:
        """Start the next hand (or end the game) once the current hand is over."""
        rnd = self.round
        if rnd is None or not rnd.done:
            return
        assert rnd.result is not None
        self.results.append(rnd.result)
        self.scores = list(rnd.scores)
        self.hand_index += 1
        if self.hand_index >= self.rules.hands_per_game:
            self.round = None
            self._end_with(self.scores)
            return
        self._start_hand()

    def rank_order(self) -> list[int]:
        """Seats from first place to last; ties go to the seat nearer the first dealer."""
        return sorted(range(4), key=lambda s: (-self.scores[s], s))

    def ranks(self) -> tuple[int, ...]:
        """Each seat's place (1-4) by the current scores."""
        places = [0] * 4
        for place, seat in enumerate(self.rank_order(), start=1):
            places[seat] = place
        return tuple(places)

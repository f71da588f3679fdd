"""What an environment needs from a rule set, and the parts all three share.

An adapter creates seeded games through the arena's registry (so an environment's seed-7 game
is the arena's seed-7 deal), maps players to table seats, and turns one seat's knowledge into
the fixed-shape arrays of the observation.  It reads the game only through its event stream,
the engine's own read-only observation objects and the pending decisions: no rule is decided
here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final

import numpy as np

from tenpai import tiles as T
from tenpai.arena.games import make_game, rules_entry
from tenpai.engine.flow import Decision, GameFlow
from tenpai.env.actions import ActionSpace
from tenpai.events import Event

__all__ = ["SCORES_AND_WALL", "TABLE_BOUND", "WINDS", "RuleAdapter", "TrackedAdapter",
           "decision_tiles", "seat_wind"]

#: Bound of every entry of the ``table`` vector (scores stay far inside it).
TABLE_BOUND: Final = 10_000_000
#: The winds as the render writes them, east first.
WINDS: Final = "ESWN"
#: The first entries of every rule set's ``table`` vector: the four scores as the seat sees
#: them (:func:`relative` order), then the tiles left in the live wall.
SCORES_AND_WALL: Final = ("score_self", "score_right", "score_across", "score_left",
                          "wall_remaining")


def decision_tiles(legal: Sequence[Event]) -> tuple[int | None, int | None]:
    """(drawn, offered) tile codes a decision is about, read off its legal actions.

    A tsumogiri discard names the tile just drawn; a claim window (the only decisions that
    offer a pass) names the tile being claimed on every claim it offers.
    """
    drawn = next((e.pai for e in legal if e.type == "dahai" and e.tsumogiri), None)
    offered = None
    if any(e.type == "none" for e in legal):
        offered = next((e.pai for e in legal if e.pai is not None), None)
    return drawn, offered


def kind_or_none(tile: int | None) -> int | None:
    return None if tile is None else T.kind_of(tile)


class RuleAdapter(ABC):
    """One rule set as the environments see it (subclasses: riichi, mcr, suits108)."""

    #: Arena rules name and environment id.
    rules: ClassVar[str]
    env_name: ClassVar[str]
    actions: ClassVar[ActionSpace]
    #: ``name@version`` of the plane encoder, and its output shape.
    encoder_tag: ClassVar[str]
    plane_shape: ClassVar[tuple[int, int]]
    #: Names of the entries of the ``table`` vector, in order.
    table_fields: ClassVar[tuple[str, ...]]

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        #: Complete, checked arena options (an unknown option or value raises here).
        self.options = rules_entry(self.rules).options(dict(options or {}))
        self.game: GameFlow | None = None
        self._fed = 0
        self._round: Any = None

    # ------------------------------------------------------------------ games
    def new_game(self, seed: int, names: Sequence[str]) -> GameFlow:
        """A fresh game with the arena's deal for ``seed``; the trackers start over."""
        self.game = make_game(self.rules, seed, names, self.options)
        self._fed = 0
        self._round = None
        self._reset_tracking()
        self.sync()
        return self.game

    def start_scores(self) -> tuple[int, ...]:
        """Each player's score before the first hand (for the score-delta reward)."""
        assert self.game is not None
        # Not in the GameFlow protocol, but every rule set's game keeps its scores by player.
        return tuple(self.game.scores)  # type: ignore[attr-defined]

    def seat_of(self, player: int) -> int:
        """The table seat (the ``actor`` in events) where ``player`` sits in the current hand."""
        return player

    def sync(self) -> None:
        """Feed the events emitted since the last call to the trackers; remember the hand, so
        the last hand can still be shown once the game is over."""
        game = self.game
        assert game is not None
        events = game.events
        for e in events[self._fed :]:
            self._apply(e)
        self._fed = len(events)
        current = getattr(game, "round", None)
        if current is not None:
            self._round = current

    # ------------------------------------------------------------------ observation
    def encode(self, player: int, decision: Decision | None) -> dict[str, np.ndarray]:
        """``{"planes", "table"}`` of ``player`` now (``decision`` when it is deciding)."""
        self.sync()
        drawn, offered = decision_tiles(decision.legal) if decision is not None else (None, None)
        seat = self.seat_of(player)
        planes = self._planes(seat, drawn, offered)
        table = np.array(self._table(seat, drawn, offered), dtype=np.int32)
        return {"planes": planes, "table": table}

    def view(self, player: int) -> Any:
        """The engine's read-only observation of ``player``'s seat in the current (or last)
        hand: what rendering and the scalar features read."""
        self.sync()
        return self._observation(self._round, self.seat_of(player))

    # ------------------------------------------------------------------ rendering
    def header(self, obs: Any) -> str:
        """One line on the hand: round, counters, wall."""
        return f"hand {obs.kyoku + 1} · wall {obs.wall_remaining}"

    def seat_tags(self, obs: Any, seat: int) -> str:
        """Public facts about ``seat`` worth a word in the render (riichi, flowers …)."""
        return ""

    def scores_by_seat(self, obs: Any) -> tuple[int, ...]:
        return tuple(obs.scores)

    # ------------------------------------------------------------------ subclass hooks
    @abstractmethod
    def _reset_tracking(self) -> None: ...

    @abstractmethod
    def _apply(self, e: Event) -> None: ...

    @abstractmethod
    def _observation(self, rnd: Any, seat: int) -> Any: ...

    @abstractmethod
    def _planes(self, seat: int, drawn: int | None, offered: int | None) -> np.ndarray: ...

    @abstractmethod
    def _table(self, seat: int, drawn: int | None, offered: int | None) -> list[int]: ...


class TrackedAdapter(RuleAdapter):
    """A rule set whose planes come from an event tracker fed the game's whole event stream
    and one frozen encoder, exactly as the supervised models see a game (Riichi, MCR): the
    tracker's view of one seat shows only what that seat may know."""

    #: Makes a fresh tracker (one per game).
    tracker: ClassVar[Callable[[], Any]]
    #: The frozen plane encoder (``encoder_tag`` and ``plane_shape`` are its tag and shape).
    encoder: ClassVar[Any]

    def _reset_tracking(self) -> None:
        self._tracker = type(self).tracker()

    def _apply(self, e: Event) -> None:
        self._tracker.apply(e)

    def _planes(self, seat: int, drawn: int | None, offered: int | None) -> np.ndarray:
        planes: np.ndarray = self.encoder.encode(
            self._tracker.view(seat, offered=kind_or_none(offered)))
        return planes


def seat_wind(obs: Any, seat: int) -> str:
    """The seat's wind in this hand as a letter (E for the dealer), for the render."""
    return WINDS[(seat - obs.oya) % 4]


def tile_or_minus(tile: int | None) -> int:
    """A tile code for the table vector, -1 for none."""
    return -1 if tile is None else tile


def relative(values: Sequence[int], seat: int) -> list[int]:
    """Per-seat values reordered self, right, across, left."""
    return [values[(seat + r) % 4] for r in range(4)]

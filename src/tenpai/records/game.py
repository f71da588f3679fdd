"""The format-neutral game record every reader produces and every writer consumes.

A :class:`Game` is metadata plus a list of rounds, each round a list of
:class:`tenpai.events.Event` from ``start_kyoku`` to ``end_kyoku``.  ``start_game`` and
``end_game`` are not stored in the rounds: they are built from the metadata by
:meth:`Game.events` so that the metadata has one home.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tenpai.events import Event

__all__ = ["Game", "RuleFlags"]


@dataclass(frozen=True, slots=True)
class RuleFlags:
    """Rule facts a record states about itself (``None`` where the format is silent).

    ``room`` is Tenhou's lobby level (``ippan``, ``joukyuu``, ``tokujou``, ``houou``) when known;
    ``variant`` is ``"riichi"`` or ``"mcr"``.
    """

    variant: str = "riichi"
    players: int = 4
    red_fives: bool | None = None
    hanchan: bool | None = None
    open_tanyao: bool | None = None
    fast: bool | None = None
    online: bool | None = None
    room: str | None = None
    go_type: int | None = None
    lobby: int | None = None


@dataclass(slots=True)
class Game:
    """One game: who played, under which rules, what happened, how it ended.

    ``truncated`` is set by lenient readers when the record stopped early; ``rounds`` then holds
    only the rounds that ended.  ``extra`` keeps format-specific facts that have no event
    (disconnects, the Botzone wall, the judge seed) so writers can reproduce them.
    """

    source: str
    format: str
    rules: RuleFlags = field(default_factory=RuleFlags)
    names: tuple[str, ...] = ()
    dan: tuple[int, ...] = ()
    rates: tuple[float, ...] = ()
    sexes: tuple[str, ...] = ()
    rounds: list[list[Event]] = field(default_factory=list)
    final_scores: tuple[int, ...] | None = None
    final_points: tuple[float, ...] | None = None
    truncated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.rules.players

    def events(self) -> list[Event]:
        """The whole game as one stream, with ``start_game`` and ``end_game`` around the rounds."""
        out = [Event("start_game", names=self.names)]
        for r in self.rounds:
            out.extend(r)
        if not self.truncated:
            out.append(Event("end_game", scores=self.final_scores or ()))
        return out

    def round_events(self) -> list[Event]:
        """All round events without ``start_game``/``end_game`` (for comparisons)."""
        return [e for r in self.rounds for e in r]

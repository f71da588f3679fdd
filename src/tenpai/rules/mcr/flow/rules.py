"""The rule flags of MCR game flow and its two named presets.

Scoring (the fan table, the 8-fan minimum) is the same in both presets; what differs is how
tiles are dealt and drawn, how many hands make a game and how a penalty is paid.  Flags are
documented where they are declared so that a new variant is a ``with_(...)`` away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

__all__ = ["BOTZONE", "MCR_OFFICIAL", "PRESETS", "MCRRules"]


@dataclass(frozen=True, slots=True)
class MCRRules:
    """One MCR variant's game-flow flags (frozen; use :meth:`with_` for a variant)."""

    name: str
    #: Play with the eight flowers (144 tiles): a flower is set aside at once and replaced by a
    #: draw from the back of the wall; each scores 1 fan for the winner, never toward the minimum.
    flowers: bool = True
    #: Each seat draws from its own wall (Botzone: 34 tiles per seat, 13 dealt, 21 to draw;
    #: kong replacements come from the kong player's wall) instead of one shared wall.
    per_seat_walls: bool = False
    #: Four prevalent-wind rounds of four hands (16 hands); otherwise the game is one hand.
    full_game: bool = True
    #: Players change seats between rounds (Green Book): see :mod:`tenpai.rules.mcr.flow.seating`.
    seat_rotation: bool = True
    #: Fans (flowers excluded) a hand needs before a win is accepted.
    min_fan: int = 8
    #: Settlement base: each loser pays ``base`` (+ the fan total for the discarder / all
    #: losers on a self-draw).
    base: int = 8
    #: What a false win (or, in Botzone records, any illegal action) costs: the offender pays
    #: this to each of the three others, and the hand ends.
    false_win_penalty: int = 10
    #: Offer the false-win declaration as a legal action (records with penalties need it;
    #: agents normally should not see it).
    allow_false_win: bool = False

    def with_(self, **changes: Any) -> MCRRules:
        """A copy with some flags changed; an unknown flag raises a TypeError naming it."""
        return replace(self, **changes)

    @property
    def tile_count(self) -> int:
        return 144 if self.flowers else 136


MCR_OFFICIAL: Final = MCRRules("mcr_official")
BOTZONE: Final = MCRRules(
    "botzone", flowers=False, per_seat_walls=True, full_game=False, seat_rotation=False
)

PRESETS: Final[dict[str, MCRRules]] = {r.name: r for r in (MCR_OFFICIAL, BOTZONE)}

"""Flags of the 108-tile rule set and its named presets.

The paper this rule set comes from (Electronics 2023, 12, 2453, Appendix A) describes the game
in prose plus a winning-hand table (Table A1) whose columns arrived garbled.  Everything the text
leaves open is a field here, so a different reading is a preset rather than a code change;
``docs/suits108.md`` gives the reasoning behind every default.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

__all__ = [
    "PAPER",
    "PRESETS",
    "TABLE_A1_LITERAL",
    "DiscardPayment",
    "Multipliers",
    "RulesError",
    "Suits108Rules",
    "preset",
]

DiscardPayment = Literal["discarder", "discarder_pays_all"]
"""Who pays a win on a discard (or a robbed kong): the discarder pays the hand's value once
(``discarder``, as in Sichuan "bloody" mahjong, which the paper names as its base game), or
the discarder pays what all three opponents would have paid on a self-draw."""


class RulesError(ValueError):
    """A rule setting that cannot be played; the message names the field."""


@dataclass(frozen=True, slots=True)
class Multipliers:
    """The score multiplier of each win combination of Table A1, plus the ready bonus.

    ``normal``, ``bump_series`` and ``seven_pairs`` are the mutually exclusive shapes (a hand
    counts as the best one it can be read as); ``pure_series`` (all tiles in one suit) and
    ``ready`` (the winner had declared a ready hand) multiply whichever shape it is.
    """

    normal: int = 1
    bump_series: int = 2
    seven_pairs: int = 4
    pure_series: int = 4
    ready: int = 2

    def __post_init__(self) -> None:
        for name in ("normal", "bump_series", "seven_pairs", "pure_series", "ready"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise RulesError(f"Multipliers.{name} must be a positive integer, got {value!r}")

    def of(self, key: str) -> int:
        """The multiplier of a combination by its key (``"bump_series"`` …)."""
        try:
            value: int = getattr(self, key)
        except AttributeError:
            raise RulesError(f"no multiplier named {key!r}") from None
        return value


@dataclass(frozen=True, slots=True)
class Suits108Rules:
    """Every switch the 108-tile round, scorer and game read.  Frozen: share one instance."""

    name: str = "custom"

    # --- scoring ----------------------------------------------------------------------------
    multipliers: Multipliers = field(default_factory=Multipliers)
    #: Points of a win with multiplier 1; a win is worth ``base_points * multiplier``.
    base_points: int = 1_000
    #: A four-of-a-kind in a seven-pairs hand counts as two pairs (the usual Chinese reading).
    seven_pairs_allow_quads: bool = True

    # --- settlement ----------------------------------------------------------------------
    #: On a self-draw every opponent pays the hand's value; on a discard see DiscardPayment.
    discard_payment: DiscardPayment = "discarder"

    # --- claims ----------------------------------------------------------------------------
    #: Several players may win on one discard; when off, the first in turn order after the
    #: discarder wins (head bump) and the others' claims lapse.
    multiple_winners: bool = False
    #: A player may win on the tile of another player's added kong (robbing the kong).
    rob_added_kong: bool = True

    # --- ready-hand declaration (Definition 1) -------------------------------------------
    #: Whether the declaration exists at all.
    ready_declaration: bool = True
    #: Only a hand without chows, pongs or open kongs may declare (off in the paper's text).
    ready_requires_closed: bool = False
    #: A declared player's forced discard is made by the engine (no decision is offered);
    #: when off it is offered as a decision with a single legal action.
    auto_discard_when_locked: bool = True

    # --- game -------------------------------------------------------------------------------
    #: Hands per game; the dealer seat moves on after every hand, so four hands give each
    #: seat one deal (the paper's games "consisted of four rounds").
    hands_per_game: int = 4
    starting_points: int = 25_000

    def __post_init__(self) -> None:
        if self.base_points < 1:
            raise RulesError(f"Suits108Rules.base_points must be positive, got {self.base_points}")
        if self.hands_per_game < 1:
            raise RulesError(
                f"Suits108Rules.hands_per_game must be at least 1, got {self.hands_per_game}"
            )
        if self.discard_payment not in ("discarder", "discarder_pays_all"):
            raise RulesError(
                "Suits108Rules.discard_payment must be 'discarder' or 'discarder_pays_all', "
                f"got {self.discard_payment!r}"
            )

    def with_(self, **changes: Any) -> Suits108Rules:
        """A copy with some flags changed (a house rule on top of a preset)."""
        return replace(self, **changes)


PAPER: Final = Suits108Rules(name="paper")
"""The reading of Appendix A that the paper's own figures support (docs/suits108.md): the
multipliers double (normal 1, bump series 2, seven pairs 4, pure series x4, ready x2), which
is what Table 8's 1 / 2 / 4 / 8 / more buckets need; four hands per game."""

TABLE_A1_LITERAL: Final = Suits108Rules(
    name="table_a1_literal",
    multipliers=Multipliers(normal=6, bump_series=8, seven_pairs=12, pure_series=2, ready=2),
    base_points=100,
)
"""The digits of the garbled Table A1 taken at face value as relative values: normal 6,
bump series 8, seven pairs 12, and a one-suit hand 12 = 6 x 2 (so the pure factor is 2)."""

PRESETS: Final[dict[str, Suits108Rules]] = {
    "paper": PAPER,
    "table_a1_literal": TABLE_A1_LITERAL,
}


def preset(name: str) -> Suits108Rules:
    """A preset by name; an unknown name raises a ``KeyError`` listing the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown suits108 preset {name!r}; known: {sorted(PRESETS)}") from None

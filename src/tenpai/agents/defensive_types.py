"""The shapes the defensive agent's push/fold rule shares with every rule set's reading.

:mod:`tenpai.agents.defensive` holds the rule and the Riichi reading;
:mod:`tenpai.agents.defensive_suits108` holds the 108-tile reading.  Both build on these types, so
they live one level down and the rule can pick a reading without either file importing the other
in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["DefenceReading", "PushFoldPolicy", "Threat"]


@dataclass(frozen=True, slots=True)
class Threat:
    """An opponent to defend against: its seat, how much it weighs and its safe kinds.

    ``discarded`` holds kinds it threw away itself that no rule makes safe (the 108-tile game
    has no furiten); in Riichi they are all in ``safe`` and this stays empty.
    """

    seat: int
    weight: float
    safe: frozenset[int]
    discarded: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class PushFoldPolicy:
    """The thresholds of the push-or-fold decision (tunable, documented in docs/agents.md)."""

    #: A ready hand pushes when its waits have at least this many live tiles ...
    tenpai_live_waits: int = 4
    #: ... or when its estimated han reach this.
    tenpai_value: int = 3
    #: A one-away hand pushes only with this many live improving tiles ...
    one_away_ukeire: int = 16
    #: ... and this estimated value ...
    one_away_value: int = 3
    #: ... while at least this many tiles are left in the live wall.
    one_away_wall: int = 36
    #: Total threat weight from which even ready hands need both live waits and value.
    heavy_threat: float = 1.9
    #: How many ukeire tiles one point of danger is worth when pushing.
    danger_cost: float = 1.0


@dataclass(frozen=True, slots=True)
class DefenceReading:
    """What the push/fold rule reads from a table, per rule set.

    The rule itself (danger, push or fold, when to call) is the same everywhere; these are the
    facts whose meaning differs: who threatens and which tiles are safe against them, the
    copies in sight, which kinds are dora, and what the own hand is worth.
    """

    rules: str
    threats: Callable[[Any], list[Threat]]
    hand_value: Callable[[Any], int]
    visible: Callable[[Any], list[int]]
    dora: Callable[[Any], frozenset[int]]

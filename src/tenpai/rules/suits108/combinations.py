"""The win combinations of Table A1, one small class each, and the scorer that combines them.

A combination is either a *shape* (normal, bump series, seven pairs: a hand is scored as the
best shape it can be read as) or a *modifier* (pure series, ready declaration) that multiplies
whatever the shape is worth.  Each class only answers "does this hand have me?"; the numbers
come from :class:`~tenpai.rules.suits108.ruleset.Multipliers`, so a different reading of the
garbled table is a setting, not a code change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.hand import TRIPLET, Decomposition, decompositions
from tenpai.rules.suits108.ruleset import Suits108Rules

__all__ = [
    "BumpSeries",
    "NormalHand",
    "NotAWinError",
    "PureSeries",
    "ReadyDeclared",
    "SevenPairs",
    "WinCombination",
    "WinValue",
    "WinningHand",
    "combinations_for",
    "evaluate",
]


class NotAWinError(ValueError):
    """The tiles given to the scorer do not form any winning combination."""


class WinningHand:
    """A finished hand as the scorer sees it: concealed counts (winning tile included),
    called melds and whether the winner had declared a ready hand."""

    def __init__(
        self, counts: Sequence[int], melds: Sequence[Meld] = (), *, declared: bool = False
    ) -> None:
        if len(counts) != 34:
            raise NotAWinError(f"WinningHand: expected 34 counts, got {len(counts)}")
        if any(counts[k] for k in range(27, 34)):
            raise NotAWinError("WinningHand: the 108-tile set has no honour tiles")
        n = sum(counts) + 3 * len(melds)
        if n != 14:
            raise NotAWinError(
                f"WinningHand: {sum(counts)} concealed tiles and {len(melds)} melds make {n} "
                "tiles counting each meld as 3, not 14"
            )
        self.counts = tuple(counts)
        self.melds = tuple(melds)
        self.declared = declared

    @classmethod
    def from_tiles(
        cls, tiles: Sequence[int], melds: Sequence[Meld] = (), *, declared: bool = False
    ) -> WinningHand:
        return cls(T.counts34(tiles), melds, declared=declared)

    @cached_property
    def readings(self) -> list[Decomposition]:
        """Every reading of the concealed part as sets plus a pair."""
        return decompositions(list(self.counts))

    @property
    def closed(self) -> bool:
        return not self.melds

    @cached_property
    def suits(self) -> frozenset[int]:
        """The suits (0 characters, 1 dots, 2 bamboo) of every tile, melds included."""
        kinds = [k for k in range(27) if self.counts[k]]
        kinds += [T.kind_of(t) for m in self.melds for t in m.tiles]
        return frozenset(k // 9 for k in kinds)


class WinCombination(ABC):
    """One row of Table A1.  ``key`` names its field in :class:`Multipliers`."""

    key: ClassVar[str]
    #: Shapes exclude each other (the best one counts); modifiers multiply the shape.
    is_shape: ClassVar[bool]

    @abstractmethod
    def applies(self, hand: WinningHand) -> bool:
        """Whether ``hand`` can be scored with this combination."""


class NormalHand(WinCombination):
    """X, normal (Ping Hu): four sets, chows and pungs in any mix, and a pair."""

    key = "normal"
    is_shape = True

    def applies(self, hand: WinningHand) -> bool:
        return bool(hand.readings)


class BumpSeries(WinCombination):
    """Y, bump series: four pungs or kongs and a pair (no chow anywhere)."""

    key = "bump_series"
    is_shape = True

    def applies(self, hand: WinningHand) -> bool:
        if any(m.type == "chi" for m in hand.melds):
            return False
        return any(all(g.kind == TRIPLET for g in r.groups) for r in hand.readings)


class SevenPairs(WinCombination):
    """Q, seven pairs (Qi Dui): a closed hand of seven pairs."""

    key = "seven_pairs"
    is_shape = True

    def __init__(self, allow_quads: bool = True) -> None:
        self.allow_quads = allow_quads

    def applies(self, hand: WinningHand) -> bool:
        if not hand.closed:
            return False
        c = hand.counts
        if self.allow_quads:
            return all(x % 2 == 0 for x in c)
        return all(x in (0, 2) for x in c)


class PureSeries(WinCombination):
    """Z, pure series: every tile, melds included, from one suit; multiplies the shape."""

    key = "pure_series"
    is_shape = False

    def applies(self, hand: WinningHand) -> bool:
        return len(hand.suits) == 1


class ReadyDeclared(WinCombination):
    """The ready-hand declaration's reward (Definition 1): multiplies the shape."""

    key = "ready"
    is_shape = False

    def applies(self, hand: WinningHand) -> bool:
        return hand.declared


def combinations_for(rules: Suits108Rules) -> tuple[WinCombination, ...]:
    """The combinations in the order they are reported (shapes first)."""
    return (
        NormalHand(),
        BumpSeries(),
        SevenPairs(rules.seven_pairs_allow_quads),
        PureSeries(),
        ReadyDeclared(),
    )


@dataclass(frozen=True, slots=True)
class WinValue:
    """The scorer's answer: which combinations counted (with their multipliers), the product,
    and the hand's value in points (what each opponent pays on a self-draw)."""

    combinations: tuple[tuple[str, int], ...]
    multiplier: int
    points: int


def evaluate(hand: WinningHand, rules: Suits108Rules) -> WinValue:
    """Score a finished hand; :class:`NotAWinError` if no shape applies."""
    mult = rules.multipliers
    combos = combinations_for(rules)
    shapes = [c for c in combos if c.is_shape and c.applies(hand)]
    if not shapes:
        shown = T.to_compact(k for k in range(27) for _ in range(hand.counts[k]))
        raise NotAWinError(f"not a winning hand: {shown} with {len(hand.melds)} melds")
    best = max(shapes, key=lambda c: mult.of(c.key))
    counted = [(best.key, mult.of(best.key))]
    counted += [(c.key, mult.of(c.key)) for c in combos if not c.is_shape and c.applies(hand)]
    total = 1
    for _, m in counted:
        total *= m
    return WinValue(tuple(counted), total, total * rules.base_points)

"""The shape of a fan: declarative attributes plus one predicate.

A fan class states its number in the official table (1-81), its Chinese and English names, its
points, the fans it makes "not counted" (不计: the patterns it implies or absorbs), and the hand
shapes it can appear in.  Its one predicate, :meth:`Fan.count`, says how many times the fan
applies to one reading of a hand; the evaluator handles every exclusion.

Exclusions always point at fans further down the table (a larger number), so scanning the
table in order and skipping what is already excluded applies them correctly: a fan that is not
counted also excludes nothing (四暗刻 removes 不求人, so 自摸 still counts).
"""

from __future__ import annotations

from typing import ClassVar

from tenpai.rules.mcr.shapes import HandView, Shape

__all__ = [
    "ALL_SHAPES",
    "GATES",
    "REGISTRY",
    "STANDARD",
    "STANDARD_KNITTED",
    "TILE_SHAPES",
    "TRAIT_SHAPES",
    "Fan",
    "register",
]

STANDARD: frozenset[Shape] = frozenset({Shape.STANDARD})
#: Shapes with sets: the standard one and knitted straight + one set + pair.
STANDARD_KNITTED: frozenset[Shape] = frozenset({Shape.STANDARD, Shape.KNITTED_STRAIGHT})
#: Shapes whose suits and tile counts are scored (suit fans, 四归一).
TILE_SHAPES: frozenset[Shape] = frozenset(
    {Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.KNITTED_STRAIGHT}
)
#: Shapes whose tile traits are scored (断幺, 推不倒, 绿一色).
TRAIT_SHAPES: frozenset[Shape] = frozenset(
    {Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.SHIFTED_PAIRS}
)
ALL_SHAPES: frozenset[Shape] = frozenset(Shape)


class Fan:
    """One scoring pattern; subclasses set the class attributes and override :meth:`count`."""

    number: ClassVar[int]
    zh: ClassVar[str]
    en: ClassVar[str]
    points: ClassVar[int]
    #: Fans not counted when this one is (the implied patterns and the official 不计 list).
    excludes: ClassVar[frozenset[int]] = frozenset()
    #: Hand shapes this fan can score in.
    shapes: ClassVar[frozenset[Shape]] = STANDARD
    #: A reading must have this to let the fan apply ("combos", "pungs", "kongs" or "" for
    #: always): the evaluator skips gated fans early, a speed-up that never changes a result.
    gate: ClassVar[str] = ""
    #: Bit mask of ``excludes`` (filled in by :func:`register`).
    exclude_mask: ClassVar[int] = 0

    @staticmethod
    def count(v: HandView) -> int:
        """How many times the fan applies to this reading (0 = not at all)."""
        raise NotImplementedError


REGISTRY: dict[int, type[Fan]] = {}
#: Gate names and the bit :attr:`HandView.gates` sets for each.
GATES: dict[str, int] = {"": 0, "combos": 1, "pungs": 2, "kongs": 4}


def register(cls: type[Fan]) -> type[Fan]:
    """Add a fan class to the table, checking its attributes once at import time."""
    if cls.number in REGISTRY:
        raise ValueError(f"fan number {cls.number} registered twice")
    if not 1 <= cls.number <= 81:
        raise ValueError(f"fan number {cls.number} is outside 1-81")
    if cls.points not in (1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 88):
        raise ValueError(f"{cls.__name__}.points {cls.points} is not an MCR value")
    if cls.gate not in GATES:
        raise ValueError(f"{cls.__name__}.gate {cls.gate!r} is not one of {sorted(GATES)}")
    for other in cls.excludes:
        if other <= cls.number:
            raise ValueError(f"{cls.__name__} excludes fan {other}, which comes before it")
    mask = 0
    for other in cls.excludes:
        mask |= 1 << other
    cls.exclude_mask = mask
    REGISTRY[cls.number] = cls
    return cls

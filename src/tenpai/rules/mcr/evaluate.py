"""Score a finished MCR hand: read it every possible way, keep the best reading.

For each reading the fan table is scanned in order (88s first); a fan that applies adds its
points and marks the fans it makes "not counted".  The reading with the highest total wins.  On
a tie the earlier reading is kept (special shapes first, then standard readings in canonical
set order) unless the later one shows 一色三同顺 or 三同刻, so the fan list is deterministic.
A reading with no fan at all scores 无番和 (8).  Flowers are added last and never count toward
the 8-fan minimum.

The same work is compiled in ``_fans.c`` (built at install time when a C compiler is present).
:func:`evaluate` uses it when it is importable and ``TENPAI_PURE_PYTHON`` is unset; the fan
classes stay the specification: the extension receives every fan's points, shapes, gate and
exclusions from them (:func:`_configure_compiled`), and writes only the count predicates and the
readings again, which the differential tests hold equal to the Python ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tenpai import native
from tenpai.rules.mcr.context import MCRContext, MCRInputError, Meld
from tenpai.rules.mcr.fans import FAN_BY_NUMBER, FANS, Fan
from tenpai.rules.mcr.fans.base import GATES
from tenpai.rules.mcr.shapes import HandView, Shape, readings

__all__ = [
    "MINIMUM_FAN",
    "FanHit",
    "MCRResult",
    "clear_hand_caches",
    "compiled_available",
    "evaluate",
    "evaluate_compiled",
    "evaluate_python",
]

#: A hand needs this many fans (flowers excluded) to be declared a win.
MINIMUM_FAN = 8

_CHICKEN = FAN_BY_NUMBER[43]
_FLOWERS = FAN_BY_NUMBER[81]
# Per shape, the fans that can score there, unpacked for a tight loop:
# (bit of the fan, predicate, points, exclusion mask, class).
_Entry = tuple[int, Callable[[HandView], int], int, int, type[Fan]]
_BY_SHAPE: dict[tuple[Shape, int], tuple[_Entry, ...]] = {
    (shape, gates): tuple((1 << f.number, f.count, f.points, f.exclude_mask, f)
                          for f in FANS
                          if shape in f.shapes and GATES[f.gate] & gates == GATES[f.gate])
    for shape in Shape
    for gates in range(8)
}


@dataclass(frozen=True, slots=True)
class FanHit:
    """One fan of a result: the class, how many times it counts, and the points it gives."""

    fan: type[Fan]
    count: int

    @property
    def points(self) -> int:
        return self.fan.points * self.count

    def __repr__(self) -> str:
        times = f"×{self.count}" if self.count > 1 else ""
        return f"{self.fan.zh}{times}={self.points}"


@dataclass(frozen=True, slots=True)
class MCRResult:
    """The fans of the best reading, flowers last; ``total`` includes flowers."""

    fans: tuple[FanHit, ...]
    total: int
    flowers: int
    shape: Shape

    @property
    def total_without_flowers(self) -> int:
        """The total the 8-fan minimum is checked against."""
        return self.total - self.flowers

    @property
    def meets_minimum(self) -> bool:
        return self.total_without_flowers >= MINIMUM_FAN

    def counts(self) -> dict[str, int]:
        """Chinese fan name -> times counted (handy for tests and logs)."""
        return {h.fan.zh: h.count for h in self.fans}


def evaluate(ctx: MCRContext) -> MCRResult | None:
    """The best-scoring reading of a finished hand, or ``None`` when the tiles do not win.

    The compiled evaluator answers when it is built (it keeps no cache: a C evaluation costs
    less than hashing the context); a case it does not cover goes to the Python path.
    """
    if _compiled is not None:
        result = _compiled.evaluate(ctx)
        if result is not NotImplemented:
            return result  # type: ignore[no-any-return]
    return _evaluate(ctx)


def evaluate_python(ctx: MCRContext) -> MCRResult | None:
    """The pure-Python evaluation (the specification), whatever is built."""
    return _evaluate(ctx)


def evaluate_compiled(ctx: MCRContext) -> Any:
    """The compiled evaluator's own answer: an :class:`MCRResult`, ``None`` (no win) or
    ``NotImplemented`` (a case it leaves to Python).  For differential tests; raises
    :class:`RuntimeError` when the extension is not in use."""
    if _compiled is None:
        raise RuntimeError("the compiled MCR evaluator is not in use (not built, or "
                           "TENPAI_PURE_PYTHON is set)")
    return _compiled.evaluate(ctx)


def compiled_available() -> bool:
    """True when :func:`evaluate` uses the compiled evaluator."""
    return _compiled is not None


@lru_cache(maxsize=1 << 14)
def _evaluate(ctx: MCRContext) -> MCRResult | None:
    best: tuple[list[FanHit], int, Shape] | None = None
    seven_pairs = False
    for view in readings(ctx):
        hits, total = _score(view)
        seven_pairs = seven_pairs or view.shape is Shape.SEVEN_PAIRS
        if best is None or total > best[1] or (total == best[1] and _preferred(hits, seven_pairs)):
            best = (hits, total, view.shape)
    if best is None:
        return None
    hits, total, shape = best
    if ctx.flowers:
        hits = [*hits, FanHit(_FLOWERS, ctx.flowers)]
        total += ctx.flowers
    return MCRResult(tuple(hits), total, ctx.flowers, shape)


def clear_hand_caches() -> None:
    """Empty every cache keyed by a whole hand or by a reading's sets: results, tile facts,
    waits, nine gates, chow and pung combinations.

    What stays warm are the per-suit pattern caches (at most a few thousand entries, which a
    running engine holds after its first games).  ``tenpai bench fan`` calls this before each
    "cold" pass, so a hand seen in an earlier pass gains nothing from it.
    """
    from tenpai.rules.mcr import patterns, shapes

    _evaluate.cache_clear()
    for cached in (patterns.tile_facts, patterns.standard_waits, patterns.chow_patterns,
                   patterns.pung_patterns, shapes._unique_wait_cached,
                   shapes._nine_gates_cached):
        cached.cache_clear()


def _preferred(hits: list[FanHit], seven_pairs: bool) -> bool:
    """Tie-break between equal totals: a reading with 一色三同顺 or 三同刻 wins, and a hand
    that reads as seven pairs prefers its standard readings (PyMahjongGB does the same, so the
    fan lists agree as well as the totals)."""
    return seven_pairs or any(h.fan.number in (23, 32) for h in hits)


def _score(view: HandView) -> tuple[list[FanHit], int]:
    excluded = 0
    total = 0
    hits: list[FanHit] = []
    for bit, count, points, mask, fan in _BY_SHAPE[view.shape, view.gates]:
        if excluded & bit:
            continue
        n = count(view)
        if n > 0:
            hits.append(FanHit(fan, n))
            total += points * n
            excluded |= mask
    if not hits:
        return [FanHit(_CHICKEN, 1)], _CHICKEN.points
    return hits, total


# ---------------------------------------------------------------------------
# The compiled evaluator (``_fans.c``).
# ---------------------------------------------------------------------------

#: The extension's ``ABI`` this side is written for; an older build is not used.
_ABI = 1


def _configure_compiled(module: Any) -> None:
    """Hand the fan table to the extension: every declarative attribute comes from the
    classes, so a fan's points, shapes, gate or exclusions are written once."""
    shapes = (Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.SHIFTED_PAIRS, Shape.ORPHANS,
              Shape.HONORS_KNITTED, Shape.KNITTED_STRAIGHT)
    table = [
        (f.number, f.points, sum(1 << i for i, s in enumerate(shapes) if s in f.shapes),
         GATES[f.gate], f.exclude_mask, f)
        for f in FANS
    ]
    module.configure(table, FanHit, MCRResult, shapes, MCRInputError, MCRContext, Meld)


def _load_compiled() -> Any:
    module = native.load("tenpai.rules.mcr._fans", _ABI)
    if module is not None:
        _configure_compiled(module)
    return module


_compiled: Any = _load_compiled()

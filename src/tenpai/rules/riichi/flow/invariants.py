"""Invariants of a Riichi table, checked after every event in tests (and on demand).

Every tile of the set is in exactly one place, and points only move between players and the
deposit pool; a bug that breaks either shows up at the step that caused it, not at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.tiles import counts34

__all__ = ["InvariantError", "check_round"]


class InvariantError(AssertionError):
    """A broken invariant; the message says which and where."""


def check_round(rnd: RiichiRound, tileset: Sequence[int], total_points: int) -> None:
    """Raise InvariantError unless tiles and points are conserved in ``rnd``."""
    where = f"after event {len(rnd.events)} ({rnd.events[-1].type})"
    placed: Counter[int] = Counter()
    for s in range(4):
        placed.update(rnd.hands[s])
        for m in rnd.melds[s]:
            placed.update(m.tiles)
        for t, called in zip(rnd.rivers[s], rnd.river_called[s]):
            if not called:
                placed[t] += 1
    placed.update(rnd.wall.undrawn_tiles())
    want = Counter(tileset)
    if placed != want:
        extra = placed - want
        missing = want - placed
        raise InvariantError(
            f"tiles not conserved {where}: extra {dict(extra)}, missing {dict(missing)}"
        )
    pool = rnd.kyotaku * rnd.rules.riichi_deposit
    if sum(rnd.scores) + pool != total_points:
        raise InvariantError(
            f"points not conserved {where}: scores {rnd.scores} + deposits {pool} != {total_points}"
        )
    for s in range(4):
        n = len(rnd.hands[s]) + 3 * len(rnd.melds[s])
        expected = 14 if (rnd.phase in ("act", "discard") and rnd.turn == s) else 13
        if rnd.phase != "ended" and n != expected:
            raise InvariantError(f"seat {s} holds {n} tiles (counting melds as 3) {where}")
        if rnd.counts[s] != counts34(rnd.hands[s]):
            raise InvariantError(f"seat {s}: incremental counts differ from the hand {where}")

"""Invariants of an MCR table, checked after every step in tests (and on demand).

Every tile of the set is in exactly one place — a hand, a meld, a river, a flower row or the
wall — and points only move between players; a bug that breaks either shows at the step
that caused it, not at the end of the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.tiles import counts34, is_flower

__all__ = ["InvariantError", "check_round"]


class InvariantError(AssertionError):
    """A broken invariant; the message says which and where."""


def check_round(rnd: MCRRound, tileset: Sequence[int], total_points: int = 0) -> None:
    """Raise InvariantError unless tiles and points are conserved in ``rnd``."""
    where = f"after event {len(rnd.events)} ({rnd.events[-1].type})"
    placed: Counter[int] = Counter()
    for s in range(4):
        placed.update(rnd.hands[s])
        placed.update(rnd.flowers[s])
        for m in rnd.melds[s]:
            placed.update(m.tiles)
        for t, called in zip(rnd.rivers[s], rnd.river_called[s]):
            if not called:
                placed[t] += 1
    placed.update(rnd.wall.undrawn_tiles())
    want = Counter(tileset)
    if placed != want:
        raise InvariantError(
            f"tiles not conserved {where}: extra {dict(placed - want)}, "
            f"missing {dict(want - placed)}"
        )
    if sum(rnd.scores) != total_points:
        raise InvariantError(f"points not conserved {where}: scores {rnd.scores}")
    for s in range(4):
        if any(is_flower(t) for t in rnd.hands[s]):
            raise InvariantError(f"position {s} keeps a flower in hand {where}")
        n = len(rnd.hands[s]) + 3 * len(rnd.melds[s])
        expected = 14 if (rnd.phase in ("act", "discard") and rnd.turn == s) else 13
        if rnd.phase != "ended" and n != expected:
            raise InvariantError(f"position {s} holds {n} tiles (melds as 3) {where}")
        if rnd.counts[s] != counts34(rnd.hands[s]):
            raise InvariantError(f"position {s}: incremental counts differ from the hand {where}")

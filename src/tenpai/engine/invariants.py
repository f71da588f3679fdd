"""Invariants of the shared table, checked after every event in tests.

Every tile of the set is in exactly one place (hands, melds, uncalled discards, whatever a rule
set keeps aside such as flowers, and the undrawn wall), every hand has the right size, and the
incremental counts agree with the hands.  A bug that breaks one shows up at the step that caused
it, not at the end of the game.  Rule sets add their own checks (points, deposits, locks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from tenpai.engine.table import TableRound
from tenpai.tiles import counts34

__all__ = ["InvariantError", "check_table"]


class InvariantError(AssertionError):
    """A broken invariant; the message says which and where."""


def check_table(
    table: TableRound,
    tileset: Sequence[int],
    undrawn: Iterable[int],
    *,
    aside: Iterable[int] = (),
    where: str = "",
) -> None:
    """Raise InvariantError unless the table's tiles are all accounted for and hands are sound."""
    where = where or f"after event {len(table.events)} ({table.events[-1].type})"
    placed: Counter[int] = Counter(aside)
    for s in range(table.players):
        placed.update(table.hands[s])
        for m in table.melds[s]:
            placed.update(m.tiles)
        for t, called in zip(table.rivers[s], table.river_called[s]):
            if not called:
                placed[t] += 1
    placed.update(undrawn)
    want = Counter(tileset)
    if placed != want:
        raise InvariantError(
            f"tiles not conserved {where}: extra {dict(placed - want)}, "
            f"missing {dict(want - placed)}"
        )
    for s in range(table.players):
        n = len(table.hands[s]) + 3 * len(table.melds[s])
        expected = 14 if (table.phase in ("act", "discard") and table.turn == s) else 13
        if table.phase != "ended" and n != expected:
            raise InvariantError(f"seat {s} holds {n} tiles (counting melds as 3) {where}")
        if table.counts[s] != counts34(table.hands[s]):
            raise InvariantError(f"seat {s}: incremental counts differ from the hand {where}")

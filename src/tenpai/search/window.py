"""A sampled world's open claim or rob window, rebuilt from the sampled hands.

When the deciding seat answers a discard (or an added kan), the table also holds the other
seats' pending decisions — and which of them may pon, chi or win tells what they hold.  A world
must not keep those: this rebuilds them from the world's own hands with the table's own rules,
for any rule set built on :class:`~tenpai.engine.table.TableRound` (Riichi and MCR searches).
"""

from __future__ import annotations

from tenpai.engine.table import NONE, TableRound
from tenpai.events import Event

__all__ = ["rebuild_window"]


def rebuild_window(rnd: TableRound, seat: int) -> None:
    """In a claim or rob window, the other seats' options from their (sampled) hands."""
    if rnd.phase == "claim":
        assert rnd.last_discard is not None
        discarder, tile = rnd.last_discard
        mine = [d for d in rnd._pending if d.seat == seat]
        others = []
        for s in range(rnd.players):
            if s in (seat, discarder):
                continue
            legal = rnd._claims(s, tile, discarder)
            if legal:
                others.append(rnd._decide(s, (*legal, NONE)))
        rnd._pending = sorted(mine + others, key=lambda d: d.seat)
    elif rnd.phase == "rob":
        assert rnd.kan_in_progress is not None
        kan_seat, tile, closed = rnd.kan_in_progress
        mine = [d for d in rnd._pending if d.seat == seat]
        others = [
            rnd._decide(s, (Event("hora", actor=s, target=kan_seat, pai=tile), NONE))
            for s in range(rnd.players)
            if s not in (seat, kan_seat) and rnd._rule_rob_candidates(s, tile, kan_seat, closed)
        ]
        rnd._pending = sorted(mine + others, key=lambda d: d.seat)

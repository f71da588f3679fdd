"""What a 108-tile table proves about a player's waits, from public events alone.

There is no furiten in these rules (docs/suits108.md), so a player's own discards say nothing
about its waits; a win *not taken* does.  A tile discarded after a player's hand last changed,
followed by the game going on, was not one of its waits.  A declared hand never changes its
waits (only wait-keeping kongs are allowed), so from its declaration on the set only grows:
every tile passed, and every drawn tile the locked hand lets go, stays safe against it for the
rest of the hand.  Two readers need this and must agree exactly: the ``defensive`` agent's
threat model and the normal agent of dropout learning (its safety planes), so it lives here,
below both.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["passed_kinds"]


def passed_kinds(events: Sequence[Event], s: int) -> set[int]:
    """Kinds proven not to be waits of seat ``s`` now: tiles others discarded after ``s``'s
    hand last changed, whose claim window closed without ``s`` winning, and once ``s`` has
    declared, the drawn tiles it discarded (it would have won on them).  This assumes a player
    takes every win it is offered, as all built-in agents except ``random`` do."""
    safe: set[int] = set()
    declaring = declared = False
    last = len(events) - 1
    for i, e in enumerate(events):
        if e.type == "reach" and e.actor == s:
            declaring = True
        elif e.type == "dahai" and e.pai is not None:
            if e.actor != s:
                if i < last:  # a later event: nobody won on it
                    safe.add(T.kind_of(e.pai))
            elif declared:
                safe.add(T.kind_of(e.pai))
            else:
                # A new hand: what it passed before says nothing about its waits now.
                safe.clear()
                declared = declaring
    return safe

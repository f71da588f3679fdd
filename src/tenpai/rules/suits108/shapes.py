"""Which concealed hands win, and on what, under the 108-tile rules.

A hand wins as four sets and a pair (chows and pungs in any mix, called melds included) or, when
closed, as seven pairs.  Seven pairs may hold a four-of-a-kind as two pairs when the rules say
so, which the Riichi kernel (seven *different* pairs) does not allow; that case is added here.
Counts are 34-vectors of concealed tiles; the honour slots simply stay 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.hand import is_complete, shanten

__all__ = ["SUITED_KINDS", "can_become_ready", "is_winning", "ready_discards", "waits"]

#: The 27 kinds of the 108-tile set: 1-9 characters, dots, bamboo.
SUITED_KINDS: tuple[int, ...] = tuple(range(27))


def _all_pairs(counts: Sequence[int]) -> bool:
    return all(c % 2 == 0 for c in counts)


def is_winning(counts: Sequence[int], *, quads_as_pairs: bool = True) -> bool:
    """True for a complete 3k+2 concealed part: sets plus a pair, or (14 tiles) seven pairs."""
    if is_complete(list(counts)):
        return True
    return quads_as_pairs and sum(counts) == 14 and _all_pairs(counts)


def _maybe_ready(counts: list[int], quads_as_pairs: bool) -> bool:
    """A cheap filter: False only when no tile can complete the 3k+1 hand."""
    if shanten(counts) <= 0:
        return True
    return quads_as_pairs and sum(counts) == 13 and sum(c // 2 for c in counts) == 6


def waits(counts: Sequence[int], *, quads_as_pairs: bool = True) -> tuple[int, ...]:
    """Kinds that complete a 3k+1 concealed hand (never a kind already held four times)."""
    c = list(counts)
    if not _maybe_ready(c, quads_as_pairs):
        return ()
    out: list[int] = []
    for k in SUITED_KINDS:
        if c[k] >= 4:
            continue
        c[k] += 1
        if is_winning(c, quads_as_pairs=quads_as_pairs):
            out.append(k)
        c[k] -= 1
    return tuple(out)


def ready_discards(counts: Sequence[int], *, quads_as_pairs: bool = True) -> tuple[int, ...]:
    """Kinds whose discard leaves a 3k+2 hand ready (one tile from winning)."""
    c = list(counts)
    out: list[int] = []
    for k in SUITED_KINDS:
        if not c[k]:
            continue
        c[k] -= 1
        if waits(c, quads_as_pairs=quads_as_pairs):
            out.append(k)
        c[k] += 1
    return tuple(out)


def can_become_ready(counts: Sequence[int], *, quads_as_pairs: bool = True) -> bool:
    """Whether some discard leaves this 3k+2 hand ready (a quick filter first)."""
    c = list(counts)
    loose_pairs = quads_as_pairs and sum(c) == 14 and sum(x // 2 for x in c) >= 6
    if shanten(c) > 0 and not loose_pairs:
        return False
    return bool(ready_discards(c, quads_as_pairs=quads_as_pairs))

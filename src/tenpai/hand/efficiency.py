"""Waits and effective tiles (ukeire): which draws move a hand forward, and how many are left.

Everything here is Riichi-flavoured: "shanten" means :func:`tenpai.hand.shanten.shanten`, the
best of standard form, seven pairs and thirteen orphans.  A kind whose four copies are all in
the hand is never a wait or an effective tile, because it cannot be drawn.

Remaining copies of a kind are ``4 - in hand - visible``, where ``visible`` is an optional
34-vector of copies seen elsewhere (discards, melds, dora indicators).  Kinds that lower the
shanten but have no copy left are still listed, with 0 remaining, so a caller can tell a dead
wait from no wait.
"""

from __future__ import annotations

from typing import NamedTuple

from tenpai.hand import accel
from tenpai.hand._core import INVALID, BadPattern, riichi_raw
from tenpai.hand.counts import HandError, as_count_bytes
from tenpai.hand.shanten import Counts, _invalid, to_count_bytes

__all__ = ["DiscardOption", "Ukeire", "discard_ukeire", "draw_shanten", "ukeire", "waits"]


class Ukeire(NamedTuple):
    """Effective tiles of a 3k+1-tile hand: ``(kind, remaining copies)`` and their sum."""

    tiles: list[tuple[int, int]]
    total: int


_fast_waits = accel.fast("waits") if accel.available() else None
_fast_draw = accel.fast("draw_shanten") if accel.available() else None


class DiscardOption(NamedTuple):
    """What discarding one kind from a 3k+2-tile hand leads to."""

    discard: int
    shanten: int
    tiles: list[tuple[int, int]]
    total: int


def _hand(counts: Counts, remainder: int, what: str) -> tuple[bytes, int]:
    b = to_count_bytes(counts)
    try:
        s = riichi_raw(b)
    except BadPattern:
        raise _invalid(b) from None
    if s == INVALID:
        raise _invalid(b)
    n = sum(b)
    if n % 3 != remainder:
        want = "3k+1 (13, 10, ...)" if remainder == 1 else "3k+2 (14, 11, ...)"
        raise HandError(f"{what} takes a hand of {want} tiles, got {n}")
    return b, s


def _remaining(b: bytes, visible: Counts | None) -> bytes:
    """4 - own - visible per kind, rejecting a kind seen more than four times in all."""
    if visible is None:
        return bytes(4 - c for c in b)
    seen = as_count_bytes(visible, name="visible")
    left = []
    for kind, (own, vis) in enumerate(zip(b, seen)):
        if own + vis > 4:
            raise HandError(
                f"visible[{kind}] = {vis} with {own} in hand: more than four copies of a kind"
            )
        left.append(4 - own - vis)
    return bytes(left)


def draw_shanten(b: bytes) -> list[int]:
    """Shanten after drawing each kind (99 for a kind whose four copies are all held).

    ``b`` is a validated 34-byte vector of 3k+1 tiles; the draw makes it 3k+2.
    """
    out = [99] * 34
    work = bytearray(b)
    for kind in range(34):
        if work[kind] < 4:
            work[kind] += 1
            out[kind] = riichi_raw(bytes(work))
            work[kind] -= 1
    return out


def waits(counts: Counts) -> list[int]:
    """Kinds that complete a tenpai hand of 3k+1 tiles in any Riichi form ([] if not tenpai)."""
    if _fast_waits is not None:
        fast: list[int] | None = _fast_waits(counts)
        if fast is not None:
            return fast
    b, s = _hand(counts, 1, "waits")
    if s != 0:
        return []
    return [kind for kind, after in enumerate(draw_shanten(b)) if after == -1]


def ukeire(counts: Counts, visible: Counts | None = None) -> Ukeire:
    """Effective tiles of a 3k+1-tile hand: kinds whose draw lowers the shanten.

    Returns the kinds with their remaining copies and the total of those copies.
    """
    b, s = _hand(counts, 1, "ukeire")
    left = _remaining(b, visible)
    after_draw = _fast_draw(counts) if _fast_draw is not None else None
    if after_draw is None:
        after_draw = draw_shanten(b)
    tiles = [(k, left[k]) for k, after in enumerate(after_draw) if after < s]
    return Ukeire(tiles, sum(n for _, n in tiles))


def discard_ukeire(counts: Counts, visible: Counts | None = None) -> list[DiscardOption]:
    """For a 3k+2-tile hand, every distinct discard with its shanten and effective tiles.

    Sorted by kind; an efficiency agent picks the lowest shanten, then the largest total.
    """
    b, _ = _hand(counts, 2, "discard_ukeire")
    left = _remaining(b, visible)
    out: list[DiscardOption] = []
    work = bytearray(b)
    for kind in range(34):
        if not b[kind]:
            continue
        work[kind] -= 1
        after = bytes(work)
        work[kind] += 1
        s = riichi_raw(after)
        # The discarded copy is out of the hand but not back in the wall.
        tiles = [(k, left[k]) for k, v in enumerate(draw_shanten(after)) if v < s]
        out.append(DiscardOption(kind, s, tiles, sum(n for _, n in tiles)))
    return out

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

from collections.abc import Sequence
from typing import Final, NamedTuple

from tenpai.hand import accel
from tenpai.hand._core import (
    CLOSED,
    FINAL,
    HONOR,
    INVALID,
    MP,
    SH,
    SUIT,
    TERMINAL_KINDS,
    BadPattern,
    riichi_raw,
    standard_raw,
    terminals_of,
)
from tenpai.hand.counts import HandError, as_count_bytes
from tenpai.hand.shanten import Counts, _invalid, to_count_bytes

__all__ = [
    "DiscardOption",
    "Ukeire",
    "discard_draws",
    "discard_ukeire",
    "draw_shanten",
    "standard_useful",
    "ukeire",
    "waits",
]


class Ukeire(NamedTuple):
    """Effective tiles of a 3k+1-tile hand: ``(kind, remaining copies)`` and their sum."""

    tiles: list[tuple[int, int]]
    total: int


_fast_waits = accel.fast("waits") if accel.available() else None
_fast_draw = accel.fast("draw_shanten") if accel.available() else None
_fast_discard_draws = accel.fast("discard_draws") if accel.available() else None
_fast_standard_useful = accel.fast("standard_useful") if accel.available() else None
# The compiled Riichi shanten (reads bytes itself, calls the Python path for anything else).
_fast_shanten = accel.fast("shanten") if accel.available() else None


class DiscardOption(NamedTuple):
    """What discarding one kind from a 3k+2-tile hand leads to."""

    discard: int
    shanten: int
    tiles: list[tuple[int, int]]
    total: int


def _hand(counts: Counts, remainder: int, what: str) -> tuple[bytes, int]:
    b = to_count_bytes(counts)
    if _fast_shanten is not None:
        s: int = _fast_shanten(b)  # compiled for a valid vector; raises HandError otherwise
    else:
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
    total = [own + vis for own, vis in zip(b, seen)]
    if max(total) > 4:
        kind = next(k for k, t in enumerate(total) if t > 4)
        raise HandError(
            f"visible[{kind}] = {seen[kind]} with {b[kind]} in hand: more than four copies of "
            "a kind"
        )
    return bytes([4 - t for t in total])


class _DrawClasses(dict[bytes, tuple[int, ...]]):
    """Suit pattern -> the class id of the pattern with one more copy of each of its kinds.

    -1 where the kind already holds four copies.  Drawing a tile changes one suit only, so the
    shanten after each of the 34 draws needs these few ids and the other suits' unchanged ones
    instead of 34 fresh hands; filled on first sight like :data:`tenpai.hand._core.SUIT`.
    """

    def __init__(self, classes: dict[bytes, int]) -> None:
        super().__init__()
        self._classes = classes

    def __missing__(self, key: bytes) -> tuple[int, ...]:
        row = tuple(
            -1 if c >= 4 else self._classes[key[:i] + bytes((c + 1,)) + key[i + 1 :]]
            for i, c in enumerate(key)
        )
        self[key] = row
        return row


_SUIT_DRAWS: Final = _DrawClasses(SUIT)
_HONOR_DRAWS: Final = _DrawClasses(HONOR)
#: Per kind, where its entries start in the table of :func:`_seven_pairs_and_orphans`: 0 for
#: kinds outside thirteen orphans, 5 for terminals and honours.
_FORM_OFFSET: Final = tuple(5 if k in TERMINAL_KINDS else 0 for k in range(34))
#: Stands for "no such draw" (four copies held): any code that reaches the closed-hand branch
#: is compared with the table entry for four copies held, which is 99.
_NO_DRAW: Final = 1000


def _seven_pairs_and_orphans(b: bytes) -> list[int]:
    """Ten numbers: the better of seven pairs and thirteen orphans once one more copy of a kind
    is drawn, plus :data:`CLOSED`; entry ``own`` for a kind outside thirteen orphans held
    ``own`` times, entry ``5 + own`` for a terminal or honour; 99 + CLOSED for four held (no
    such draw).

    Both forms depend on the drawn kind only through those two facts, so ten numbers per hand
    replace 34 recounts.  Riichi conventions as ``riichi_raw``: a four-of-a-kind is one pair.
    """
    kinds = 34 - b.count(0)
    pairs = kinds - b.count(1)
    t: tuple[int, ...] = terminals_of(b)
    missing = t.count(0)
    ones = t.count(1)
    short = 7 - kinds if kinds < 7 else 0  # seven pairs also needs seven different kinds
    new_kind = 6 - pairs + (short - 1 if short else 0)  # drawn kind not held yet
    new_pair = 5 - pairs + short  # held once: the draw makes a pair
    held = 6 - pairs + short  # held two or three times: nothing changes
    orphans = missing - 1 if missing + ones < 13 else missing
    # An orphan kind not held fills a gap; held once, it makes thirteen orphans' pair.
    gap = missing - 2 if missing + ones < 13 else missing - 1
    pair = missing - 1
    plain = [min(new_kind, orphans), min(new_pair, orphans), min(held, orphans)]
    orphan = [min(new_kind, gap), min(new_pair, pair), min(held, orphans)]
    c = CLOSED
    return [
        plain[0] + c, plain[1] + c, plain[2] + c, plain[2] + c, 99 + c,
        orphan[0] + c, orphan[1] + c, orphan[2] + c, orphan[2] + c, 99 + c,
    ]  # fmt: skip


def _draw_shanten_py(b: bytes) -> list[int]:
    """:func:`draw_shanten` in pure Python, suit by suit (the same numbers as ``riichi_raw``).

    A draw changes one suit, so each suit's drawn classes (memoised per pattern) are combined
    with the other suits' unchanged ones: 34 list look-ups instead of 34 hands.  A code from
    ``FINAL`` carries the :data:`CLOSED` flag when the hand after the draw has 13/14 tiles;
    then seven pairs and thirteen orphans are tried too (:func:`_seven_pairs_and_orphans`).
    """
    b = bytes(b)  # slices of a bytearray would not be hashable keys
    man, pin, sou, hon = b[0:9], b[9:18], b[18:27], b[27:34]
    cm, cp, cs, ch = SUIT[man], SUIT[pin], SUIT[sou], HONOR[hon]
    mp_row = MP[cm]
    sh_row = SH[cs]
    mp = mp_row[cp]
    sh = sh_row[ch]
    codes = [FINAL[MP[x][cp] + sh] if x >= 0 else _NO_DRAW for x in _SUIT_DRAWS[man]]
    codes += [FINAL[mp_row[x] + sh] if x >= 0 else _NO_DRAW for x in _SUIT_DRAWS[pin]]
    codes += [FINAL[mp + SH[x][ch]] if x >= 0 else _NO_DRAW for x in _SUIT_DRAWS[sou]]
    codes += [FINAL[mp + sh_row[x]] if x >= 0 else _NO_DRAW for x in _HONOR_DRAWS[hon]]
    if max(codes) < CLOSED - 1:
        return codes  # melds called: the standard form only, and every kind drawable
    alt = _seven_pairs_and_orphans(b)
    # Closed codes (and _NO_DRAW) take the better of themselves and the other two forms; both
    # sides carry CLOSED, so it is subtracted once at the end.
    return [
        code
        if code < CLOSED - 1
        else (code if code < (other := alt[own + offset]) else other) - CLOSED
        for code, own, offset in zip(codes, b, _FORM_OFFSET)
    ]


def draw_shanten(b: bytes) -> list[int]:
    """Shanten after drawing each kind (99 for a kind whose four copies are all held).

    ``b`` is a validated 34-byte vector of 3k+1 tiles; the draw makes it 3k+2.  The compiled
    fast path answers when it is built, the suit-wise Python version otherwise; both give
    exactly what ``riichi_raw`` gives for each of the 34 hands.
    """
    if _fast_draw is not None:
        fast: list[int] | None = _fast_draw(b)
        if fast is not None:
            return fast
    return _draw_shanten_py(b)


def _discard_draws_py(b: bytes, weights: Sequence[int]) -> tuple[list[int], list[int]]:
    """:func:`discard_draws` in pure Python (one ``riichi_raw`` and one draw row per discard)."""
    if len(weights) != 34:
        raise HandError(f"discard_draws: expected 34 weights, got {len(weights)}")
    after = [99] * 34
    totals = [0] * 34
    work = bytearray(b)
    for kind in range(34):
        if not b[kind]:
            continue
        work[kind] -= 1
        hand = bytes(work)
        work[kind] += 1
        s = riichi_raw(hand)
        after[kind] = s
        totals[kind] = sum([w for w, v in zip(weights, _draw_shanten_py(hand)) if v < s])
    return after, totals


def discard_draws(b: bytes, weights: Sequence[int]) -> tuple[list[int], list[int]]:
    """For each discard of a validated 3k+2-tile vector ``b``: shanten after it, and the sum of
    ``weights[j]`` over the draws ``j`` that would then lower that shanten.

    Returns ``(after, totals)``, two lists of 34 (99 and 0 for kinds not held).  With
    ``weights`` the unseen copies per kind, ``totals`` is each discard's effective-tile count;
    this is what the efficiency encoders need for every decision, so it is one compiled call
    when the extension is built (the compiled loop moves one tile at a time instead of building
    ~500 hands).  Same numbers on both paths; tests/hand/test_hand_draws.py checks it.
    """
    if _fast_discard_draws is not None:
        fast: tuple[list[int], list[int]] | None = _fast_discard_draws(b, weights)
        if fast is not None:
            return fast
    return _discard_draws_py(b, weights)


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


def standard_useful(counts: Counts) -> tuple[int, list[int]]:
    """Standard-form shanten of a 3k+1-tile hand and the kinds whose draw lowers it.

    The standard form only (k sets and a pair; no seven pairs or thirteen orphans): the work
    PyMahjongGB's ``RegularShanten`` does, so ``tenpai bench hand`` can time the same thing on
    both sides.  A kind held four times cannot be drawn and is never listed (PyMahjongGB does
    list it; see tests/hand/test_hand_vs_mahjonggb.py).
    """
    if _fast_standard_useful is not None:
        fast: tuple[int, list[int]] | None = _fast_standard_useful(counts)
        if fast is not None:
            return fast
    b = to_count_bytes(counts)
    try:
        s = standard_raw(b)
    except BadPattern:
        raise _invalid(b) from None
    if s == INVALID:
        raise _invalid(b)
    n = sum(b)
    if n % 3 != 1:
        raise HandError(f"standard_useful takes a hand of 3k+1 (13, 10, ...) tiles, got {n}")
    useful = []
    work = bytearray(b)
    for kind in range(34):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        if standard_raw(bytes(work)) < s:
            useful.append(kind)
        work[kind] -= 1
    return s, useful

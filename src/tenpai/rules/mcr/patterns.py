"""Pure, cached pattern work shared by every fan: set combinations, tile facts and waits.

Everything here depends only on kinds (0-33), never on the situation of a win, so results are
cached per shape: the engine asks about the same few hands again and again, and a reading's set
combinations repeat across hands.

Set combinations follow the "not counted" principles for chows and pungs:

* a pattern made of four sets hides every smaller pattern among them;
* when three sets form a pattern, the fourth may combine with one of them once (套算一次),
  preferring 一般高 > 喜相逢 > 连六 > 老少副;
* otherwise pairs of chows count, but n chows give at most n - 1 pair patterns, minus one for
  every chow that combines with nothing; surplus patterns are dropped from the kinds that
  repeat, the cheapest kinds first.

When two different triples of the same four sets form patterns, the first triple in the
canonical set order (characters, bamboo, dots, then honours E S W N 中 发 白 — the order
PyMahjongGB uses) is taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

__all__ = [
    "GREEN",
    "KNITTED_STRAIGHTS",
    "RED",
    "WHITE",
    "TileFacts",
    "canonical_key",
    "chow_patterns",
    "pung_patterns",
    "seven_pairs_wait",
    "standard_waits",
    "tile_facts",
]

WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33

# Fan numbers used by the combination tables (see fans/ for the classes themselves).
BIG_FOUR_WINDS: Final = 1
BIG_THREE_DRAGONS: Final = 2
PURE_TERMINAL_CHOWS: Final = 13
QUADRUPLE_CHOW: Final = 14
FOUR_PURE_SHIFTED_PUNGS: Final = 15
FOUR_PURE_SHIFTED_CHOWS: Final = 16
PURE_TRIPLE_CHOW: Final = 23
PURE_SHIFTED_PUNGS: Final = 24
PURE_STRAIGHT: Final = 28
THREE_SUITED_TERMINAL_CHOWS: Final = 29
PURE_SHIFTED_CHOWS: Final = 30
TRIPLE_PUNG: Final = 32
BIG_THREE_WINDS: Final = 38
MIXED_STRAIGHT: Final = 39
MIXED_TRIPLE_CHOW: Final = 41
MIXED_SHIFTED_PUNGS: Final = 42
MIXED_SHIFTED_CHOWS: Final = 50
TWO_DRAGON_PUNGS: Final = 54
DOUBLE_PUNG: Final = 65
PURE_DOUBLE_CHOW: Final = 69
MIXED_DOUBLE_CHOW: Final = 70
SHORT_STRAIGHT: Final = 71
TWO_TERMINAL_CHOWS: Final = 72

# Canonical order: characters, bamboo, dots, winds, then 中 发 白.
_SUIT_RANK: Final = (0, 2, 1)
_HONOR_RANK: Final = {27: 27, 28: 28, 29: 29, 30: 30, RED: 31, GREEN: 32, WHITE: 33}


def canonical_key(kind: int) -> int:
    """Position of a kind in the canonical order used to break ties deterministically."""
    if kind < 27:
        return _SUIT_RANK[kind // 9] * 9 + kind % 9
    return _HONOR_RANK[kind]


# ---------------------------------------------------------------------------
# Chow combinations.  A chow is its lowest kind; suit = kind // 9, rank = kind % 9 + 1.
# ---------------------------------------------------------------------------

def _two_chows(a: int, b: int) -> int:
    sa, ra = divmod(a, 9)
    sb, rb = divmod(b, 9)
    if sa != sb:
        return MIXED_DOUBLE_CHOW if ra == rb else 0
    if ra - rb in (3, -3):
        return SHORT_STRAIGHT
    if {ra, rb} == {0, 6}:
        return TWO_TERMINAL_CHOWS
    if ra == rb:
        return PURE_DOUBLE_CHOW
    return 0


def _three_chows(a: int, b: int, c: int) -> int:
    """The 3-chow pattern of chows given in canonical order (0 for none)."""
    sa, ra = divmod(a, 9)
    sb, rb = divmod(b, 9)
    sc, rc = divmod(c, 9)
    if sa != sb and sa != sc and sb != sc:
        lo, mid, hi = sorted((ra, rb, rc))
        if mid == lo + 1 and hi == mid + 1:
            return MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return MIXED_TRIPLE_CHOW
        if (lo, mid, hi) == (0, 3, 6):
            return MIXED_STRAIGHT
        return 0
    if sa == sb == sc:
        if rb == ra + 3 and rc == rb + 3:
            return PURE_STRAIGHT
        if (rb == ra + 1 and rc == rb + 1) or (rb == ra + 2 and rc == rb + 2):
            return PURE_SHIFTED_CHOWS
        if ra == rb == rc:
            return PURE_TRIPLE_CHOW
    return 0


def _four_chows(a: int, b: int, c: int, d: int) -> int:
    if not a // 9 == b // 9 == c // 9 == d // 9:
        return 0
    if a == b == c == d:
        return QUADRUPLE_CHOW
    for step in (1, 2):
        if b == a + step and c == b + step and d == c + step:
            return FOUR_PURE_SHIFTED_CHOWS
    return 0


def _terminal_chows(chows: tuple[int, ...], pair: int) -> int:
    """一色双龙会 / 三色双龙会: 123 and 789 twice around a pair of fives."""
    if pair < 0 or pair >= 27 or pair % 9 != 4:
        return 0
    ps = pair // 9
    if any(c % 9 not in (0, 6) for c in chows):
        return 0
    suits = [c // 9 for c in chows]
    if all(s == ps for s in suits):
        lows = sum(1 for c in chows if c % 9 == 0)
        return PURE_TERMINAL_CHOWS if lows == 2 else 0
    if all(s != ps for s in suits):
        others = {0, 1, 2} - {ps}
        if {c for c in chows} == {s * 9 + r for s in others for r in (0, 6)}:
            return THREE_SUITED_TERMINAL_CHOWS
    return 0


_EXTRA_PRIORITY: Final = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _extra_chow(triple: tuple[int, int, int], extra: int) -> int:
    found = {_two_chows(t, extra) for t in triple}
    for fan in _EXTRA_PRIORITY:
        if fan in found:
            return fan
    return 0


def _limit_pairs(found: list[int], limit: int) -> dict[int, int]:
    """Keep at most ``limit`` pair patterns, dropping repeats of the cheapest kinds first."""
    table = {fan: found.count(fan) for fan in _EXTRA_PRIORITY}
    total = sum(table.values())
    keep = 1
    while total > limit and keep >= 0:
        for fan in reversed(_EXTRA_PRIORITY):
            while table[fan] > keep and total > limit:
                table[fan] -= 1
                total -= 1
        keep -= 1
    return {f: n for f, n in table.items() if n}


@lru_cache(maxsize=1 << 14)
def chow_patterns(chows: tuple[int, ...], pair: int) -> tuple[tuple[int, int], ...]:
    """(fan number, count) for the chow combinations of a reading.

    ``chows`` are the chows' lowest kinds in canonical order; ``pair`` is the pair's kind (or
    -1), needed by the two terminal-chow patterns.
    """
    n = len(chows)
    if n < 2:
        return ()
    if n == 4:
        special = _terminal_chows(chows, pair)
        if special:
            return ((special, 1),)
        four = _four_chows(*chows)
        if four:
            return ((four, 1),)
        for i, j, k, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            triple = (chows[i], chows[j], chows[k])
            fan = _three_chows(*triple)
            if fan:
                extra = _extra_chow(triple, chows[x])
                return ((fan, 1), (extra, 1)) if extra else ((fan, 1),)
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        found = {p: _two_chows(chows[p[0]], chows[p[1]]) for p in pairs}
        lonely = sum(1 for c in range(4) if not any(found[p] for p in pairs if c in p))
        limit = 3 - lonely
        if limit <= 0:
            return ()
        return tuple(sorted(_limit_pairs([f for f in found.values() if f], limit).items()))
    if n == 3:
        fan = _three_chows(*chows)
        if fan:
            return ((fan, 1),)
        three = [_two_chows(chows[0], chows[1]), _two_chows(chows[0], chows[2]),
                 _two_chows(chows[1], chows[2])]
        return tuple(sorted(_limit_pairs([f for f in three if f], 2).items()))
    fan = _two_chows(chows[0], chows[1])
    return ((fan, 1),) if fan else ()


# ---------------------------------------------------------------------------
# Pung combinations (kongs included).  Pungs are kinds in canonical order.
# ---------------------------------------------------------------------------

def _two_pungs(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return DOUBLE_PUNG if a % 9 == b % 9 else 0
    if a >= WHITE and b >= WHITE:
        return TWO_DRAGON_PUNGS
    return 0


def _three_pungs(a: int, b: int, c: int) -> int:
    if a < 27 and b < 27 and c < 27:
        sa, ra = divmod(a, 9)
        sb, rb = divmod(b, 9)
        sc, rc = divmod(c, 9)
        if sa != sb and sa != sc and sb != sc:
            lo, mid, hi = sorted((ra, rb, rc))
            if mid == lo + 1 and hi == mid + 1:
                return MIXED_SHIFTED_PUNGS
            if ra == rb == rc:
                return TRIPLE_PUNG
            return 0
        if sa == sb == sc and b == a + 1 and c == b + 1:
            return PURE_SHIFTED_PUNGS
        return 0
    if all(27 <= x <= 30 for x in (a, b, c)):
        return BIG_THREE_WINDS
    if all(x >= WHITE for x in (a, b, c)):
        return BIG_THREE_DRAGONS
    return 0


def _four_pungs(a: int, b: int, c: int, d: int) -> int:
    if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return FOUR_PURE_SHIFTED_PUNGS
    if (a, b, c, d) == (27, 28, 29, 30):
        return BIG_FOUR_WINDS
    return 0


@lru_cache(maxsize=1 << 14)
def pung_patterns(pungs: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(fan number, count) for the pung combinations of a reading (pungs in canonical order)."""
    n = len(pungs)
    if n < 2:
        return ()
    out: dict[int, int] = {}
    if n == 4:
        four = _four_pungs(*sorted(pungs))
        if four:
            return ((four, 1),)
        for i, j, k, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_pungs(pungs[i], pungs[j], pungs[k])
            if fan:
                out[fan] = 1
                for other in (i, j, k):
                    extra = _two_pungs(pungs[other], pungs[x])
                    if extra:
                        out[extra] = out.get(extra, 0) + 1
                        break
                return tuple(sorted(out.items()))
    elif n == 3:
        fan = _three_pungs(*pungs)
        if fan:
            return ((fan, 1),)
    for i in range(n):
        for j in range(i + 1, n):
            fan = _two_pungs(pungs[i], pungs[j])
            if fan:
                out[fan] = out.get(fan, 0) + 1
    return tuple(sorted(out.items()))


# ---------------------------------------------------------------------------
# Tile facts: what every tile of the hand has in common.
# ---------------------------------------------------------------------------

def _mask(kinds: Iterable[int]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


_HONOR_MASK: Final = _mask(range(27, 34))
_WIND_MASK: Final = _mask(range(27, 31))
_DRAGON_MASK: Final = _mask(range(31, 34))
_TERMINAL_MASK: Final = _mask(k for k in range(27) if k % 9 in (0, 8))
_SIMPLE_MASK: Final = _mask(k for k in range(27) if k % 9 not in (0, 8))
_GREEN_MASK: Final = _mask((19, 20, 21, 23, 25, GREEN))
_REVERSIBLE_MASK: Final = _mask((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE))
_SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(3))
#: Count byte -> "0" (kind absent) or "1" (present): see :class:`TileFacts`.
_PRESENT_DIGITS: Final = bytes.maketrans(bytes(range(5)), b"01111")


class TileFacts:
    """Facts about the multiset of all tiles of a hand (melds included, a kong as 4 tiles)."""

    __slots__ = (
        "all_green",
        "all_honors",
        "all_simples",
        "all_terminals",
        "all_terminals_or_honors",
        "counts",
        "has_dragons",
        "has_winds",
        "quads",
        "rank_bits",
        "ranks",
        "reversible",
        "suits",
    )

    def __init__(self, counts: tuple[int, ...]) -> None:
        # Bit k set when kind k is present, in C: "0"/"1" per kind, read as a base-2 number.
        present = int(bytes(counts).translate(_PRESENT_DIGITS)[::-1], 2)
        self.counts = counts
        self.suits = frozenset(s for s in range(3) if present & _SUIT_MASKS[s])
        self.has_winds = bool(present & _WIND_MASK)
        self.has_dragons = bool(present & _DRAGON_MASK)
        self.all_honors = not present & ~_HONOR_MASK
        self.all_simples = not present & ~_SIMPLE_MASK
        self.all_terminals = not present & ~_TERMINAL_MASK
        self.all_terminals_or_honors = not present & _SIMPLE_MASK
        self.all_green = not present & ~_GREEN_MASK
        self.reversible = not present & ~_REVERSIBLE_MASK
        #: Ranks (1-9) present among numbered tiles; empty when there are honours too.
        ranks: frozenset[int] = frozenset()
        rank_bits = 0
        if not present & _HONOR_MASK:
            bits = (present | present >> 9 | present >> 18) & 0x1FF
            ranks = frozenset(r + 1 for r in range(9) if bits >> r & 1)
            rank_bits = bits << 1
        self.ranks = ranks
        #: The same ranks as bits (bit r for rank r), for quick "only these ranks" tests.
        self.rank_bits = rank_bits
        #: Kinds with all four copies in the hand.
        self.quads = counts.count(4)


@lru_cache(maxsize=1 << 14)
def tile_facts(counts: tuple[int, ...]) -> TileFacts:
    return TileFacts(counts)


# ---------------------------------------------------------------------------
# Waits.
# ---------------------------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _suit_forms(seg: tuple[int, ...], honors: bool) -> int:
    """Bit 0: ``seg`` reads as sets only; bit 1: as sets plus one pair (0 when neither)."""
    total = sum(seg)
    if total % 3 == 1:
        return 0
    want_pair = total % 3 == 2
    work = list(seg)

    def rec(i: int, pair: bool) -> bool:
        while i < len(work) and work[i] == 0:
            i += 1
        if i == len(work):
            return pair == want_pair
        if work[i] >= 3:
            work[i] -= 3
            ok = rec(i, pair)
            work[i] += 3
            if ok:
                return True
        if not pair and work[i] >= 2:
            work[i] -= 2
            ok = rec(i, True)
            work[i] += 2
            if ok:
                return True
        if not honors and i + 2 < len(work) and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            ok = rec(i, pair)
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
            if ok:
                return True
        return False

    if not rec(0, False):
        return 0
    return 2 if want_pair else 1


@lru_cache(maxsize=1 << 14)
def _suit_waits(seg: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """(offset, form after adding it) for every tile that leaves this suit complete."""
    out = []
    work = list(seg)
    for i in range(len(seg)):
        if not (seg[i] or (not honors and any(seg[max(0, i - 2) : i + 3]))):
            continue
        work[i] += 1
        form = _suit_forms(tuple(work), honors)
        work[i] -= 1
        if form:
            out.append((i, form))
    return tuple(out)


_SEGMENTS: Final = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


@lru_cache(maxsize=1 << 16)
def standard_waits(standing: tuple[int, ...]) -> frozenset[int]:
    """Kinds that complete ``standing`` (3n+1 tiles) into sets and a pair, by shape alone.

    Suits are independent: a kind is a wait when its suit becomes complete and every other suit
    already is, with exactly one pair in the whole hand.  A kind whose four copies are all in
    the hand still counts: the wait fans judge the shape.
    """
    segs = [standing[a:b] for a, b, _ in _SEGMENTS]
    forms = [_suit_forms(seg, h) if any(seg) else 1 for seg, (_, _, h) in zip(segs, _SEGMENTS)]
    out = []
    for s, (a, _, honors) in enumerate(_SEGMENTS):
        others = [forms[t] for t in range(4) if t != s]
        if 0 in others:
            continue
        others_pairs = others.count(2)
        if others_pairs > 1:
            continue
        for offset, form in _suit_waits(segs[s], honors):
            if (form == 2) + others_pairs == 1:
                out.append(a + offset)
    return frozenset(out)


def seven_pairs_wait(standing: tuple[int, ...]) -> int:
    """The kind a 13-tile hand waits on for seven pairs (a quad is two pairs), or -1."""
    pairs = sum(c // 2 for c in standing)
    if pairs != 6:
        return -1
    for k, c in enumerate(standing):
        if c % 2:
            return k
    return -1


def _knitted_straights() -> tuple[tuple[int, ...], ...]:
    out = []
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        tiles = [order[i] * 9 + i + 3 * j for i in range(3) for j in range(3)]
        out.append(tuple(sorted(tiles)))
    return tuple(out)


#: The six knitted straights (组合龙): 147 in one suit, 258 in another, 369 in the third.
KNITTED_STRAIGHTS: Final = _knitted_straights()

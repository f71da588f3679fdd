"""Random legal winning hands of every MCR shape, for differential tests and benchmarks.

Uniformly random tiles almost never win, and uniformly random wins almost never show the rare
fans, so hands are built from their structure: pick a shape, draw its sets from a tile pool
that is sometimes narrowed (one suit, terminals, greens, evens …) or seeded with a chow/pung
pattern, turn some sets into melds of every kind, pick the winning tile and a consistent win
situation.  No kind is ever used more than four times.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from tenpai.rules.mcr.context import MCRContext, MCRInputError, Meld, MeldKind
from tenpai.rules.mcr.patterns import KNITTED_STRAIGHTS

__all__ = ["SHAPE_WEIGHTS", "random_context", "random_contexts"]

#: How often each shape is generated.
SHAPE_WEIGHTS: Final = {
    "standard": 70,
    "seven_pairs": 9,
    "shifted_pairs": 3,
    "orphans": 3,
    "honors_knitted": 5,
    "knitted_straight": 10,
    "rare": 3,
}

_ALL: Final = tuple(range(34))
_POOLS: Final[tuple[tuple[int, ...], ...]] = (
    _ALL,
    _ALL,
    _ALL,
    tuple(range(9)) + tuple(range(27, 34)),  # characters + honours
    tuple(range(9, 18)),  # dots
    (*range(18, 27), 27, 28),  # bamboo + two winds
    tuple(k for k in range(27) if k % 9 in (0, 8)) + tuple(range(27, 34)),  # terminals, honours
    tuple(k for k in range(27) if k % 9 in (0, 8)),  # terminals
    tuple(range(27, 34)),  # honours
    (19, 20, 21, 23, 25, 32),  # greens
    (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31),  # reversible
    tuple(k for k in range(27) if k % 9 < 4),  # 1-4
    tuple(k for k in range(27) if k % 9 > 4),  # 6-9
    tuple(k for k in range(27) if 3 <= k % 9 <= 5),  # 4-6
    tuple(k for k in range(27) if k % 9 in (1, 3, 5, 7)),  # evens
    tuple(k for k in range(27) if 2 <= k % 9 <= 6),  # around 5
    tuple(range(27)),  # no honours
    tuple(range(9)) + tuple(range(18, 27)) + tuple(range(27, 34)),  # one suit missing
)
_ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# A standard set: (is_chow, lowest kind).
_Set = tuple[bool, int]


def random_contexts(n: int, seed: int) -> Iterator[MCRContext]:
    """``n`` random winning contexts, reproducible from ``seed``."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_context(rng)


def random_context(rng: random.Random) -> MCRContext:
    """One random legal winning hand with a consistent win situation."""
    shapes = list(SHAPE_WEIGHTS)
    weights = list(SHAPE_WEIGHTS.values())
    while True:
        shape = rng.choices(shapes, weights)[0]
        built = _BUILDERS[shape](rng)
        if built is None:
            continue
        concealed, melds = built
        ctx = _situation(rng, concealed, melds)
        if ctx is not None:
            return ctx


def _fits(counts: list[int], tiles: list[int]) -> bool:
    for t in tiles:
        counts[t] += 1
    ok = all(c <= 4 for c in counts)
    if not ok:
        for t in tiles:
            counts[t] -= 1
    return ok


def _random_set(rng: random.Random, pool: tuple[int, ...]) -> _Set:
    starts = [k for k in pool if k < 27 and k % 9 < 7 and k + 1 in pool and k + 2 in pool]
    if starts and rng.random() < 0.55:
        return True, rng.choice(starts)
    return False, rng.choice(pool)


def _set_tiles(s: _Set) -> list[int]:
    chow, k = s
    return [k, k + 1, k + 2] if chow else [k, k, k]


def _pattern_sets(rng: random.Random) -> list[_Set]:
    """Two to four sets forming a chow or pung pattern, to reach the rarer combination fans."""
    suits = rng.sample((0, 1, 2), 3)
    size = rng.choice((2, 3, 3, 4))
    chow = rng.random() < 0.6
    step = rng.choice((0, 1, 2, 3) if chow else (0, 1))
    mixed = rng.random() < 0.5
    top = 6 if chow else 8
    start = rng.randint(0, max(0, top - step * (size - 1)))
    out = []
    for i in range(size):
        suit = suits[i % 3] if mixed else suits[0]
        rank = start + step * i if step else start
        if mixed and chow and step == 3:
            rank = 3 * (i % 3)
        out.append((chow, suit * 9 + min(rank, top)))
    return out


def _standard(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    pool = rng.choice(_POOLS)
    counts = [0] * 34
    sets: list[_Set] = []
    if rng.random() < 0.3:
        for s in _pattern_sets(rng):
            if len(sets) < 4 and _fits(counts, _set_tiles(s)):
                sets.append(s)
    tries = 0
    while len(sets) < 4:
        tries += 1
        if tries > 40:
            return None
        s = _random_set(rng, pool)
        if _fits(counts, _set_tiles(s)):
            sets.append(s)
    pair = rng.choice(pool)
    if not _fits(counts, [pair, pair]):
        return None
    rng.shuffle(sets)
    n_melds = rng.choices((0, 1, 2, 3, 4), (30, 25, 20, 15, 10))[0]
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for i, s in enumerate(sets):
        if i < n_melds:
            melds.append(_meld(rng, s, counts))
        else:
            concealed += _set_tiles(s)
    return concealed, melds


def _meld(rng: random.Random, s: _Set, counts: list[int]) -> Meld:
    chow, k = s
    if chow:
        return Meld.chow(k)
    if counts[k] == 3 and rng.random() < 0.45:
        counts[k] += 1
        how: MeldKind = rng.choice(("exposed_kong", "concealed_kong", "promoted_kong"))
        return Meld.kong(k, how, rng.randint(1, 3))
    return Meld.pung(k, rng.randint(1, 3))


def _seven_pairs(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    pool = rng.choice(_POOLS)
    if len(pool) < 6:
        return None
    kinds = rng.sample(pool, min(7, len(pool)))
    if len(kinds) < 7 or rng.random() < 0.2:
        kinds = [*kinds[:6], kinds[0]]
    return [k for k in kinds for _ in range(2)], []


def _shifted_pairs(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    start = rng.randint(0, 2) * 9 + rng.randint(0, 2)
    return [k for k in range(start, start + 7) for _ in range(2)], []


def _orphans(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    return [*_ORPHANS, rng.choice(_ORPHANS)], []


def _honors_knitted(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    straight = rng.choice(KNITTED_STRAIGHTS)
    n_honors = rng.choice((5, 6, 7, 7))
    numbered = rng.sample(straight, 14 - n_honors)
    honors = rng.sample(range(27, 34), n_honors)
    return [*numbered, *honors], []


def _knitted_straight(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    counts = [0] * 34
    straight = list(rng.choice(KNITTED_STRAIGHTS))
    _fits(counts, straight)
    pool = rng.choice(_POOLS)
    s = _random_set(rng, pool)
    pair = rng.choice(pool)
    if not _fits(counts, _set_tiles(s)) or not _fits(counts, [pair, pair]):
        return None
    if rng.random() < 0.4:
        return [*straight, pair, pair], [_meld(rng, s, counts)]
    return [*straight, *_set_tiles(s), pair, pair], []


def _rare(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    """Templates for the rarest standard hands: nine gates, terminal chows, winds, kongs."""
    suit = rng.randint(0, 2) * 9
    choice = rng.randrange(5)
    if choice == 0:  # 九莲宝灯
        ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randint(0, 8)]
        return [suit + r for r in ranks], []
    if choice == 1:  # 一色双龙会
        sets: list[_Set] = [(True, suit), (True, suit), (True, suit + 6), (True, suit + 6)]
        pair = suit + 4
    elif choice == 2:  # 三色双龙会
        a, b, c = (s * 9 for s in rng.sample((0, 1, 2), 3))
        sets = [(True, a), (True, a + 6), (True, b), (True, b + 6)]
        pair = c + 4
    elif choice == 3:  # four wind pungs
        sets = [(False, k) for k in (27, 28, 29, 30)]
        pair = rng.choice([k for k in range(34) if k not in (27, 28, 29, 30)])
    else:  # four kongs
        sets = [(False, k) for k in rng.sample(range(34), 4)]
        pair = rng.choice([k for k in range(34) if (False, k) not in sets])
    counts = [0] * 34
    for s in sets:
        _fits(counts, _set_tiles(s))
    _fits(counts, [pair, pair])
    rng.shuffle(sets)
    n_melds = 4 if choice == 4 else rng.randint(0, 4)
    melds = []
    concealed = [pair, pair]
    for i, s in enumerate(sets):
        if i < n_melds:
            if choice == 4:
                counts[s[1]] = 3
            melds.append(_meld(rng, s, counts) if choice != 4 else Meld.kong(
                s[1], rng.choice(("exposed_kong", "concealed_kong", "promoted_kong")),
                rng.randint(1, 3)))
        else:
            concealed += _set_tiles(s)
    return concealed, melds


_BUILDERS: Final = {
    "standard": _standard,
    "seven_pairs": _seven_pairs,
    "shifted_pairs": _shifted_pairs,
    "orphans": _orphans,
    "honors_knitted": _honors_knitted,
    "knitted_straight": _knitted_straight,
    "rare": _rare,
}


def _situation(rng: random.Random, concealed: list[int], melds: list[Meld]) -> MCRContext | None:
    """Pick a winning tile and a win situation consistent with the tiles."""
    win = rng.choice(concealed)
    total = concealed.count(win) + sum(m.tiles.count(win) for m in melds)
    self_drawn = rng.random() < 0.45
    has_kong = any(m.is_kong for m in melds)
    kong_replacement = self_drawn and has_kong and rng.random() < 0.3
    robbing = (not self_drawn and total == 1 and rng.random() < 0.15)
    last_copy = (concealed.count(win) == 1 and not robbing and rng.random() < 0.15)
    rng.shuffle(concealed)
    try:
        return MCRContext(
            tuple(concealed),
            win,
            tuple(melds),
            self_drawn=self_drawn,
            seat_wind=rng.randint(0, 3),
            prevalent_wind=rng.randint(0, 3),
            last_tile=rng.random() < 0.08,
            kong_replacement=kong_replacement,
            robbing_kong=robbing,
            last_copy=last_copy,
            flowers=rng.choice((0, 0, 0, 1, 2, 3)),
        )
    except MCRInputError:
        return None

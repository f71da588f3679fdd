"""Seeded hand generators shared by the hand tests: uniform draws and near-complete hands."""

from __future__ import annotations

import random

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
TERMINALS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def uniform(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles drawn without replacement from the 136-tile wall."""
    counts = [0] * 34
    for t in rng.sample(range(136), size):
        counts[t // 4] += 1
    return counts


def _complete(rng: random.Random, sets: int) -> list[int]:
    """A complete closed part: ``sets`` sets and a pair (standard), honouring four copies."""
    while True:
        counts = [0] * 34
        for _ in range(sets):
            if rng.random() < 0.6:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(9 * suit + start, 9 * suit + start + 3):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def _special(rng: random.Random) -> list[int]:
    """A complete seven pairs or thirteen orphans hand."""
    counts = [0] * 34
    if rng.random() < 0.5:
        for k in rng.sample(range(34), 7):
            counts[k] = 2
    else:
        for k in TERMINALS:
            counts[k] = 1
        counts[rng.choice(TERMINALS)] += 1
    return counts


def near_complete(rng: random.Random) -> list[int]:
    """A complete hand, then 0-3 random tile swaps and maybe one tile removed.

    Uniform draws are almost never near complete; these cover shanten -1..3 densely,
    including four-of-a-kind cases where the fifth copy matters.
    """
    size = rng.choice((2, 5, 8, 11, 14, 14, 14))
    counts = _special(rng) if size == 14 and rng.random() < 0.15 else _complete(rng, size // 3)
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        held = [k for k in range(34) if counts[k]]
        counts[rng.choice(held)] -= 1
        free = [k for k in range(34) if counts[k] < 4]
        counts[rng.choice(free)] += 1
    if rng.random() < 0.5:
        held = [k for k in range(34) if counts[k]]
        counts[rng.choice(held)] -= 1
    return counts


def quad_heavy(rng: random.Random) -> list[int]:
    """Hands built around four-of-a-kinds, where a fifth copy would be needed naively."""
    size = rng.choice((13, 14, 10, 11, 7, 8))
    counts = [0] * 34
    for k in rng.sample(range(34), rng.choice((1, 2, 3))):
        if sum(counts) + 4 <= size:
            counts[k] = 4
    while sum(counts) < size:
        k = rng.randrange(34) if rng.random() < 0.5 else rng.randrange(9)
        if counts[k] < 4:
            counts[k] += 1
    return counts


def mixed(seed: int, n: int) -> list[list[int]]:
    """``n`` hands: 60% uniform (sizes weighted to 13/14), 30% near complete, 10% quads."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.6:
            size = rng.choice((*SIZES, 13, 14, 13, 14, 13, 14))
            out.append(uniform(rng, size))
        elif r < 0.9:
            out.append(near_complete(rng))
        else:
            out.append(quad_heavy(rng))
    return out

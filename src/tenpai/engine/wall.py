"""Tile sets and seeded walls.

The same seed always gives the same wall, on every machine and Python version (the shuffle
uses its own PCG-style generator rather than ``random``, whose algorithm is not promised to stay
fixed).  Tournaments rely on this to deal duplicate walls with the seats rotated.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T

__all__ = ["SplitMix64", "hand_shuffle", "seeded_shuffle", "standard_tileset"]

_MASK = (1 << 64) - 1


def standard_tileset(
    *, red_fives: int = 3, honors: bool = True, flowers: bool = False
) -> list[int]:
    """Tile codes of a full set: 4 of each kind, ``red_fives`` of the fives replaced by red ones
    (0-3: 1 = man only, 2 = man and pin, as some rules use), honours optional (the 108-tile
    variant has none), and the 8 MCR flowers optional."""
    kinds = range(34 if honors else 27)
    out: list[int] = []
    for k in kinds:
        out += [k] * 4
    for i in range(red_fives):
        five = (4, 13, 22)[i]
        out.remove(five)
        out.append(T.red_of(five))
    if flowers:
        out += list(range(37, 45))
    out.sort()
    return out


class SplitMix64:
    """A tiny, fixed pseudo-random generator (SplitMix64) so walls never depend on ``random``."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection, so no value is favoured.

        :meth:`next` is written out here (same arithmetic): random agents and every wall
        shuffle call this in their inner loop, and the method call was a third of its cost.
        """
        limit = _MASK - (_MASK + 1) % n
        state = self.state
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                self.state = state
                return x % n


def seeded_shuffle(tiles: Sequence[int], seed: int) -> list[int]:
    """A Fisher-Yates shuffle of ``tiles`` driven by ``seed``; the input is not modified.

    The generator is SplitMix64 (:meth:`SplitMix64.below`), written out in the loop: one wall
    per round made the method calls a visible share of a random game.
    """
    out = list(tiles)
    state = seed & _MASK
    mask = _MASK
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = mask - (mask + 1) % n
        while True:
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            x = z ^ (z >> 31)
            if x <= limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def hand_shuffle(tiles: Sequence[int], seed: int, index: int) -> list[int]:
    """The tiles of hand ``index`` (0-based) of the game dealt from ``seed``: shuffled with the
    ``index + 1``-th number of the seed's :class:`SplitMix64` stream.

    Every rule set's game deals this way, so the n-th hand of a seed always gets the same wall
    whatever the agents did before it (duplicate deals rely on that).
    """
    rng = SplitMix64(seed)
    for _ in range(index):
        rng.next()
    return seeded_shuffle(tiles, rng.next())

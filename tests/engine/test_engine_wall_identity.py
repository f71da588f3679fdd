"""The written-out SplitMix64 loops give exactly the walls and draws of the plain generator.

Walls must never change for a seed (duplicate tournaments, stored results and replays depend
on it), so the inlined ``below`` and ``seeded_shuffle`` are compared with the straightforward
versions kept here verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.engine.wall import SplitMix64, hand_shuffle, seeded_shuffle, standard_tileset

_MASK = (1 << 64) - 1


class _Reference:
    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next()
            if x <= limit:
                return x % n


def _reference_shuffle(tiles: Sequence[int], seed: int) -> list[int]:
    out = list(tiles)
    rng = _Reference(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffle_matches_reference() -> None:
    tiles = standard_tileset()
    for seed in [0, 1, 2, 12345, 2**63 + 7, -5, *range(100, 300)]:
        assert seeded_shuffle(tiles, seed) == _reference_shuffle(tiles, seed)


def test_below_matches_reference_and_keeps_state() -> None:
    for seed in range(50):
        ours, ref = SplitMix64(seed), _Reference(seed)
        for n in [1, 2, 3, 7, 34, 136, 2**40 + 3, 2**63 + 1, *range(1, 60)]:
            assert ours.below(n) == ref.below(n)
            assert ours.state == ref.state
            assert ours.next() == ref.next()


def test_hand_n_of_a_seed_is_shuffled_by_its_n_plus_first_number() -> None:
    """The deal every rule set's game uses: hand ``i`` takes the ``i + 1``-th number of the
    seed's stream, whatever came before it (pinned for the seeds games are stored under)."""
    tiles = standard_tileset(red_fives=0)
    for seed in [0, 1, 7, 2**63 + 7]:
        ref = _Reference(seed)
        for index in range(6):
            assert hand_shuffle(tiles, seed, index) == _reference_shuffle(tiles, ref.next())

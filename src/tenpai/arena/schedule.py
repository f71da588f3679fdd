"""Duplicate deals: which agent sits where in each game, and the seeds every game uses.

A tournament of ``N`` games is ``N / 4`` *deal sets* (``N / 3`` at a three-player table: one
rotation per seat).  Every game of a deal set plays the same walls (one wall seed per deal);
game ``(deal, rotation)`` seats the lineup shifted by ``rotation`` places, so over the
rotations each lineup entry plays each seat once with the same tiles.  The luck of the deal
then falls on every agent alike and cancels out of rank differences; what remains is skill
(and the agents' own random choices).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from tenpai.engine.wall import SplitMix64

__all__ = [
    "ROTATIONS",
    "GameKey",
    "agent_seed",
    "all_keys",
    "deal_seed",
    "iter_keys",
    "rounded_games",
    "seating",
]

ROTATIONS = 4


class GameKey(NamedTuple):
    """The deterministic identity of one game in a run: its deal and its seat rotation."""

    deal: int
    rotation: int


def rounded_games(games: int, rotations: int = ROTATIONS) -> int:
    """``games`` rounded up to whole deal sets (a multiple of the rotations: one per seat);
    at least one set."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    return -(-games // rotations) * rotations


def all_keys(games: int, rotations: int = ROTATIONS) -> list[GameKey]:
    """Every game of a run of ``games`` games (a multiple of the rotations), deal by deal."""
    if games % rotations:
        raise ValueError(f"games must be a multiple of {rotations}, got {games}")
    return [GameKey(d, r) for d in range(games // rotations) for r in range(rotations)]


def iter_keys(games: int, rotations: int = ROTATIONS) -> Iterator[GameKey]:
    """:func:`all_keys` one at a time: a run's schedule is never held in memory whole (a huge
    ``games`` must not cost memory before the first game)."""
    if games % rotations:
        raise ValueError(f"games must be a multiple of {rotations}, got {games}")
    for d in range(games // rotations):
        for r in range(rotations):
            yield GameKey(d, r)


def seating(lineup: Sequence[str], rotation: int) -> list[str]:
    """Agent names by seat for a rotation: seat ``s`` gets ``lineup[(s - rotation) % n]``."""
    n = len(lineup)
    return [lineup[(s - rotation) % n] for s in range(n)]


def _mix(*parts: int) -> int:
    rng = SplitMix64(0x7E4A1)
    value = 0
    for p in parts:
        rng = SplitMix64(rng.next() ^ (p & 0xFFFF_FFFF_FFFF_FFFF))
        value = rng.next()
    return value


def deal_seed(run_seed: int, deal: int) -> int:
    """The wall seed of a deal: the same for its four rotations, different across deals."""
    return _mix(run_seed, deal, 0xDEA1)


def agent_seed(run_seed: int, key: GameKey, seat: int) -> int:
    """A distinct seed for each agent instance, so random agents are reproducible too."""
    return _mix(run_seed, key.deal, key.rotation, seat, 0xA6E7)

"""Duplicate deals: which agent sits where in each game, and the seeds every game uses.

A tournament of ``N`` games is ``N / 4`` *deal sets* (``N / 3`` at a three-player table: one
rotation per seat).  Every game of a deal set plays the same walls (one wall seed per deal);
game ``(deal, rotation)`` seats the lineup shifted by ``rotation`` places, so over the
rotations each lineup entry plays each seat once with the same tiles.  The luck of the deal
then falls on every agent alike and cancels out of rank differences; what remains is skill
(and the agents' own random choices).

Two seatings of a deal set (:data:`SEATINGS`): ``rotations`` (the default) shifts the lineup
once per seat; ``permutations`` plays every distinct order of the lineup over the seats, which
is the duplicate format's full form (24 orders for four different agents).  Copies of one agent
are interchangeable, so orders that seat the same names in the same places are played once:
one agent against three copies of another has 4 distinct orders (exactly the rotations), two
against two copies each has 6.  ``GameKey.rotation`` is then the index of the order in the
deal set, in the lexicographic order of the permutations.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Final, NamedTuple

from tenpai.engine.wall import SplitMix64

__all__ = [
    "ROTATIONS",
    "SEATINGS",
    "GameKey",
    "agent_seed",
    "all_keys",
    "deal_seed",
    "iter_keys",
    "rounded_games",
    "seat_orders",
    "seating",
    "seatings_per_deal",
]

ROTATIONS = 4
#: How the seats change between the games of one deal set (see the module docstring).
SEATINGS: Final = ("rotations", "permutations")


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


def seat_orders(lineup: Sequence[str], mode: str = "rotations") -> tuple[tuple[int, ...], ...]:
    """The lineup indices by seat of each game of a deal set, in game order.

    ``rotations``: game ``r`` seats ``lineup[(s - r) % n]`` at seat ``s``.  ``permutations``:
    every order of the lineup, lexicographic, the ones that repeat an earlier order's names
    seat by seat left out (copies of one agent are the same player).
    """
    return _seat_orders(tuple(lineup), mode)


@lru_cache(maxsize=64)
def _seat_orders(lineup: tuple[str, ...], mode: str) -> tuple[tuple[int, ...], ...]:
    n = len(lineup)
    if mode == "rotations":
        return tuple(tuple((s - r) % n for s in range(n)) for r in range(n))
    if mode == "permutations":
        seen: set[tuple[str, ...]] = set()
        out: list[tuple[int, ...]] = []
        for order in permutations(range(n)):
            names = tuple(lineup[i] for i in order)
            if names not in seen:
                seen.add(names)
                out.append(order)
        return tuple(out)
    raise ValueError(f"unknown seating {mode!r}; choose {', '.join(SEATINGS)}")


def seatings_per_deal(lineup: Sequence[str], mode: str = "rotations") -> int:
    """Games in one deal set: one per distinct seating."""
    return len(seat_orders(lineup, mode))


def seating(lineup: Sequence[str], rotation: int, mode: str = "rotations") -> list[str]:
    """Agent names by seat for game ``rotation`` of a deal set (see :func:`seat_orders`)."""
    return [lineup[i] for i in seat_orders(lineup, mode)[rotation]]


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

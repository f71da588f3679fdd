"""Seed 000's tournament measure: one agent against three copies of a baseline, stable dan.

The paper rates its agents (§4.3, formula 13; Fig. 8; Table A3) by games in which one seat is
the agent and the other three the baseline engine, scored as Tenhou's stable dan
``(5·n1 + 2·n2) / n4 − 2``.  It picks the agent's seat at random; we play every deal four times
with the agent in each seat once, so the luck of the deal and of the seat cancels (the
duplicate idea of the arena) and a rating needs fewer games for the same spread.

The agent object is shared by the four runs (one batched forward per step for a network); the
baseline seats are registry names made fresh per game from the game seed, so a rating depends
on the agent and the seeds only, not on how many tables ran together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tenpai.arena.stats import stable_dan
from tenpai.engine.agent import Agent
from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

__all__ = ["Rating", "rate_against"]


@dataclass(frozen=True, slots=True)
class Rating:
    """The agent's places over ``games`` games (``deals`` deals × 4 seats) against
    ``baseline``."""

    baseline: str
    deals: int
    games: int
    rank_counts: tuple[int, int, int, int]
    mean_rank: float
    stable_dan: float

    def as_dict(self) -> dict[str, Any]:
        return {"baseline": self.baseline, "deals": self.deals, "games": self.games,
                "rank_counts": list(self.rank_counts), "mean_rank": self.mean_rank,
                "stable_dan": self.stable_dan}


def rate_against(
    agent: Agent,
    baseline: str,
    rules: str,
    seeds: Sequence[int],
    *,
    options: Mapping[str, str] | None = None,
    tables: int = 16,
) -> Rating:
    """Play every seed four times, ``agent`` in seat 0, 1, 2, 3 against three ``baseline``
    seats, and rate its places.  Raises ``ValueError`` for an unknown baseline or rule set,
    or no seeds."""
    counts = [0, 0, 0, 0]
    for seat in range(4):
        seats = [SeatSpec(baseline, record=False) for _ in range(4)]
        seats[seat] = SeatSpec(agent, record=False)
        spec = SelfPlaySpec(rules, tuple(seats), tuple(seeds), dict(options or {}))
        for game in VectorRunner(spec, tables=tables).run():
            counts[game.ranks[seat] - 1] += 1
    games = sum(counts)
    mean = sum((k + 1) * n for k, n in enumerate(counts)) / games
    return Rating(baseline, len(seeds), games, (counts[0], counts[1], counts[2], counts[3]),
                  mean, stable_dan(counts))

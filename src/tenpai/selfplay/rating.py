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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tenpai.arena.stats import Estimate, clustered_ratio, stable_dan
from tenpai.engine.agent import Agent
from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

__all__ = ["Rating", "rate_against"]


@dataclass(frozen=True, slots=True)
class Rating:
    """The agent's places over ``games`` games (``deals`` deals × 4 seats) against
    ``baseline``; ``rank`` is the mean place with its 95 % interval over deals (the four
    games of a deal share the walls, so the deal is the independent unit)."""

    baseline: str
    deals: int
    games: int
    rank_counts: tuple[int, int, int, int]
    rank: Estimate
    stable_dan: float

    @property
    def mean_rank(self) -> float:
        return self.rank.mean

    def as_dict(self) -> dict[str, Any]:
        return {"baseline": self.baseline, "deals": self.deals, "games": self.games,
                "rank_counts": list(self.rank_counts), "rank": self.rank.as_dict(),
                "stable_dan": self.stable_dan if math.isfinite(self.stable_dan) else None}


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
    per_deal = [0.0] * len(seeds)
    for seat in range(4):
        seats = [SeatSpec(baseline, record=False) for _ in range(4)]
        seats[seat] = SeatSpec(agent, record=False)
        spec = SelfPlaySpec(rules, tuple(seats), tuple(seeds), dict(options or {}))
        for game in VectorRunner(spec, tables=tables).run():
            counts[game.ranks[seat] - 1] += 1
            per_deal[game.index] += game.ranks[seat]
    rank = clustered_ratio(per_deal, [4.0] * len(per_deal))
    return Rating(baseline, len(seeds), sum(counts), (counts[0], counts[1], counts[2], counts[3]),
                  rank, stable_dan(counts))

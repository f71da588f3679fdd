"""The learning curve's measure: the learner against its start, two seats each, seats rotated.

Seed 002 reports that its RL model "wins 75 % over 100000 games" against the supervised start,
without saying what a win is.  We define it for a game of two learner seats against two seats of
the start model: the learner pair **wins** when its two seats end with more points in total
than the other pair's two seats (a tie counts one half).  Each deal is played twice with the
pairs' seats swapped (``L S L S`` and ``S L S L``), so both pairs meet the same tiles; the
interval is over deals (the two games of a deal are not independent).

It lives with self-play rather than with one learner because every learner measures itself
this way: policy gradient (:mod:`tenpai.rl.pg`) and the search's gate (:mod:`tenpai.mcts.train`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.engine.agent import Agent
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import VectorRunner

__all__ = ["PairResult", "pair_win_rate", "play_pairs"]


@dataclass(frozen=True, slots=True)
class PairResult:
    """The learner pair's win rate over ``deals`` deals (two games each) with a 95 % interval,
    and the mean rank of each side (1 = first)."""

    deals: int
    win_rate: float
    low: float
    high: float
    learner_rank: float
    start_rank: float


def pair_win_rate(
    games: Sequence[PlayedGame], learner_seats: Sequence[Sequence[int]]
) -> PairResult:
    """Score games played in deal pairs: ``games[2k]`` and ``games[2k + 1]`` share a deal, the
    learner sat in ``learner_seats[i]`` of game ``i``."""
    per_deal: list[float] = []
    l_ranks: list[int] = []
    s_ranks: list[int] = []
    for k in range(0, len(games) - 1, 2):
        deal = 0.0
        for g, mine in ((games[k], learner_seats[k]), (games[k + 1], learner_seats[k + 1])):
            others = [s for s in range(len(g.final_scores)) if s not in mine]
            ours = sum(g.final_scores[s] for s in mine)
            theirs = sum(g.final_scores[s] for s in others)
            deal += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
            l_ranks += [g.ranks[s] for s in mine]
            s_ranks += [g.ranks[s] for s in others]
        per_deal.append(deal / 2)
    n = len(per_deal)
    if n == 0:
        raise ValueError("no complete deal pair to score")
    mean = sum(per_deal) / n
    var = sum((v - mean) ** 2 for v in per_deal) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return PairResult(
        deals=n,
        win_rate=mean,
        low=mean - half,
        high=mean + half,
        learner_rank=sum(l_ranks) / len(l_ranks),
        start_rank=sum(s_ranks) / len(s_ranks),
    )


def play_pairs(
    learner: Agent,
    start: Agent,
    rules: str,
    options: dict[str, str],
    seeds: Sequence[int],
    tables: int = 16,
) -> PairResult:
    """Play every seed twice (learner in seats 0 and 2, then 1 and 3) and score the pairs."""
    a = SelfPlaySpec.series(rules, [learner, start, learner, start], 0, 1, options)
    a = SelfPlaySpec(rules, a.seats, tuple(seeds), a.options)
    b = SelfPlaySpec(rules, (a.seats[1], a.seats[0], a.seats[1], a.seats[0]), a.seeds, a.options)
    first = VectorRunner(a, tables=tables).run()
    second = VectorRunner(b, tables=tables).run()
    games: list[PlayedGame] = []
    seats: list[tuple[int, ...]] = []
    for g1, g2 in zip(first, second):
        games += [g1, g2]
        seats += [(0, 2), (1, 3)]
    return pair_win_rate(games, seats)

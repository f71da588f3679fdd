"""Tournament statistics with honest uncertainty.

Games of one deal are not independent: the four rotations share the walls, so a lucky deal
helps whichever agent sits in the lucky seat in every rotation.  Every interval here therefore
treats the *deal* as the independent unit (a cluster): an agent's per-deal totals are the
observations, and a mean over seat-games is a ratio of sums whose standard error comes from the
cluster-robust (sandwich) formula

    se² = G / (G - 1) · Σ_g (y_g - m·x_g)² / (Σ_g x_g)²

with ``G`` deals, ``y_g`` the agent's total (ranks, points, wins …) in deal ``g`` and ``x_g`` its
count (seat-games or hands) there.  Intervals use Student's t with ``G - 1`` degrees of freedom.
When an agent plays the same number of seats in every deal (always true of a duplicate
schedule) this is exactly the t interval of its per-deal means.

Stable rank (段位) comes in the two readings documented in docs/arena.md:
:func:`stable_dan` pools all games, :func:`stable_dan_blocks` averages independent blocks as
the paper's §4.3 experiments do.  :func:`paired_test` compares two agents deal by deal, as the
other paper's §VII compares two players game by game.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tenpai.arena.distributions import normal_cdf, student_t_cdf, student_t_ppf
from tenpai.arena.store import SeatRow

__all__ = [
    "MIN_INTERVAL_DEALS",
    "TOO_FEW",
    "AgentStats",
    "BlockedStableDan",
    "Estimate",
    "PairedTest",
    "agent_stats",
    "clustered_ratio",
    "interval_shown",
    "pair_win_rate",
    "paired_test",
    "stable_dan",
    "stable_dan_blocks",
]

#: Tenhou's special (tokujou) lobby weighs 1st/2nd places 5:2 (uma +75/+30 … in dan points);
#: the phoenix (houou) lobby 6:3.  The formula the issue and the paper's §4.3 print is 5:2.
TOKUJOU = (5.0, 2.0)
HOUOU = (6.0, 3.0)



#: Fewer deals than this give no interval worth printing: a t interval over two to four
#: clusters is either far wider than the possible range (12.5% [-146.3, 171.3]) or, when the
#: few deals happen to agree, zero wide (2.75±0.00) - neither says anything.
MIN_INTERVAL_DEALS = 5
#: What reports print instead of such an interval.
TOO_FEW = "too few games for an interval"


def interval_shown(low: float, high: float, deals: int) -> bool:
    """Whether an interval over ``deals`` clusters is worth printing (see MIN_INTERVAL_DEALS)."""
    return deals >= MIN_INTERVAL_DEALS and not math.isnan(low) and high > low

@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its standard error and 95 % interval (``nan`` when undefined)."""

    mean: float
    se: float
    low: float
    high: float
    clusters: int

    def as_dict(self) -> dict[str, float | int | None]:
        def clean(v: float) -> float | None:
            return None if math.isnan(v) or math.isinf(v) else v

        return {
            "mean": clean(self.mean),
            "se": clean(self.se),
            "low": clean(self.low),
            "high": clean(self.high),
            "clusters": self.clusters,
        }


def clustered_ratio(
    totals: Sequence[float], counts: Sequence[float], confidence: float = 0.95
) -> Estimate:
    """Mean of ``Σ totals / Σ counts`` with a cluster-robust interval (one entry per cluster)."""
    if len(totals) != len(counts):
        raise ValueError("totals and counts need one entry per cluster each")
    g = len(totals)
    n = float(sum(counts))
    if g == 0 or n == 0:
        nan = math.nan
        return Estimate(nan, nan, nan, nan, g)
    mean = sum(totals) / n
    if g < 2:
        return Estimate(mean, math.nan, math.nan, math.nan, g)
    ss = sum((y - mean * x) ** 2 for y, x in zip(totals, counts))
    se = math.sqrt(g / (g - 1) * ss) / n
    half = student_t_ppf(0.5 + confidence / 2, g - 1) * se
    return Estimate(mean, se, mean - half, mean + half, g)


def stable_dan(rank_counts: Sequence[int], weights: tuple[float, float] = TOKUJOU) -> float:
    """Tenhou's stable dan ``(w1·n1 + w2·n2) / n4 − 2`` from the counts of 1st…4th places.

    It is the dan at which a player with these placement rates neither gains nor loses dan
    points on average; ``inf`` when the player never finished last.
    """
    n1, n2, _, n4 = rank_counts
    if n4 == 0:
        return math.inf
    return (weights[0] * n1 + weights[1] * n2) / n4 - 2.0


@dataclass(frozen=True, slots=True)
class BlockedStableDan:
    """Stable dan per block of games, as in the §4.3 experiments: mean, median and quartiles."""

    block_size: int
    values: tuple[float, ...]
    skipped: int
    mean: float
    median: float
    q25: float
    q75: float


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default) of sorted finite values."""
    if not sorted_values:
        return math.nan
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def stable_dan_blocks(
    ranks: Sequence[int], block_size: int = 100, weights: tuple[float, float] = TOKUJOU
) -> BlockedStableDan:
    """Split ``ranks`` (in play order) into whole blocks, rate each, and summarise.

    The paper ran 10 independent experiments of 100 games and averaged their ratings (and
    plotted median and quartiles).  A block without a last place has no finite rating; it is
    counted in ``skipped`` rather than silently averaged as infinity.  A trailing partial block
    is left out.
    """
    if block_size < 1:
        raise ValueError(f"block_size must be positive, got {block_size}")
    values: list[float] = []
    skipped = 0
    for start in range(0, len(ranks) - block_size + 1, block_size):
        block = ranks[start : start + block_size]
        v = stable_dan([block.count(r) for r in (1, 2, 3, 4)], weights)
        if math.isinf(v):
            skipped += 1
        else:
            values.append(v)
    ordered = sorted(values)
    mean = sum(values) / len(values) if values else math.nan
    return BlockedStableDan(
        block_size,
        tuple(values),
        skipped,
        mean,
        _quantile(ordered, 0.5),
        _quantile(ordered, 0.25),
        _quantile(ordered, 0.75),
    )


@dataclass(frozen=True, slots=True)
class AgentStats:
    """Everything the report shows about one agent name (all its seats together)."""

    agent: str
    games: int
    hands: int
    rank_counts: tuple[int, int, int, int]
    avg_rank: Estimate
    rank_rates: tuple[Estimate, Estimate, Estimate, Estimate]
    avg_score: Estimate
    win_rate: Estimate
    deal_in_rate: Estimate
    riichi_rate: Estimate
    call_rate: Estimate
    stable_dan: float
    stable_dan_houou: float
    stable_dan_blocks: BlockedStableDan

    def as_dict(self) -> dict[str, object]:
        def finite(v: float | None) -> float | None:
            return None if v is None or math.isnan(v) or math.isinf(v) else v

        b = self.stable_dan_blocks
        return {
            "agent": self.agent,
            "games": self.games,
            "hands": self.hands,
            "rank_counts": list(self.rank_counts),
            "avg_rank": self.avg_rank.as_dict(),
            "rank_rates": [e.as_dict() for e in self.rank_rates],
            "avg_score": self.avg_score.as_dict(),
            "win_rate": self.win_rate.as_dict(),
            "deal_in_rate": self.deal_in_rate.as_dict(),
            "riichi_rate": self.riichi_rate.as_dict(),
            "call_rate": self.call_rate.as_dict(),
            "stable_dan": finite(self.stable_dan),
            "stable_dan_houou": finite(self.stable_dan_houou),
            "stable_dan_blocks": {
                "block_size": b.block_size,
                "blocks": len(b.values),
                "skipped": b.skipped,
                "mean": finite(b.mean),
                "median": finite(b.median),
                "q25": finite(b.q25),
                "q75": finite(b.q75),
            },
        }


def _by_deal(rows: Iterable[SeatRow]) -> dict[int, list[SeatRow]]:
    out: dict[int, list[SeatRow]] = defaultdict(list)
    for r in rows:
        out[r.deal].append(r)
    return dict(sorted(out.items()))


def _per_deal(
    deals: Sequence[Sequence[SeatRow]],
    value: Callable[[SeatRow], float],
    count: Callable[[SeatRow], float] | None = None,
) -> Estimate:
    """A clustered mean of ``value`` per unit of ``count`` (seat-games or hands)."""
    return clustered_ratio(
        [sum(value(r) for r in d) for d in deals],
        [sum(count(r) for r in d) if count else float(len(d)) for d in deals],
    )


def _hands(r: SeatRow) -> float:
    return float(r.hands)


def agent_stats(rows: Sequence[SeatRow], block_size: int = 100) -> list[AgentStats]:
    """Statistics for every agent name in ``rows`` (in order of first appearance)."""
    names = list(dict.fromkeys(r.agent for r in rows))
    out = []
    for name in names:
        mine = [r for r in rows if r.agent == name]
        deals = list(_by_deal(mine).values())

        per_deal = functools.partial(_per_deal, deals)

        ranks = [r.rank for r in sorted(mine, key=lambda r: (r.deal, r.rotation, r.seat))]
        counts = (ranks.count(1), ranks.count(2), ranks.count(3), ranks.count(4))
        out.append(
            AgentStats(
                agent=name,
                games=len(mine),
                hands=sum(r.hands for r in mine),
                rank_counts=counts,
                avg_rank=per_deal(lambda r: float(r.rank)),
                rank_rates=(
                    per_deal(lambda r: float(r.rank == 1)),
                    per_deal(lambda r: float(r.rank == 2)),
                    per_deal(lambda r: float(r.rank == 3)),
                    per_deal(lambda r: float(r.rank == 4)),
                ),
                avg_score=per_deal(lambda r: float(r.score)),
                win_rate=per_deal(lambda r: float(r.wins), _hands),
                deal_in_rate=per_deal(lambda r: float(r.deal_ins), _hands),
                riichi_rate=per_deal(lambda r: float(r.riichi), _hands),
                call_rate=per_deal(lambda r: float(r.calls), _hands),
                stable_dan=stable_dan(counts),
                stable_dan_houou=stable_dan(counts, HOUOU),
                stable_dan_blocks=stable_dan_blocks(ranks, block_size),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class PairedTest:
    """Mean rank of ``a`` minus mean rank of ``b``, deal by deal (negative: ``a`` ranks better).

    ``p_a_better`` is the one-sided p-value of "``a`` ranks better than ``b``" (Student's t with
    ``deals - 1`` degrees of freedom); ``p_a_better_normal`` the same from the normal
    approximation the paper's §VII uses; ``p_two_sided`` tests any difference.

    ``pair_win_rate`` is seed 002's "win" made precise (docs/rl.md): in a game where ``a`` and
    ``b`` hold as many seats each, ``a`` wins when its seats end with more points in total than
    ``b``'s (a tie counts one half); the rate is the mean over deals of each deal's mean, with
    a Student-t interval over deals.  None when no game seats them equally (e.g. ``A,B,B,B``).

    ``score_diff`` is the same comparison on the final score instead of the place (``a``'s
    mean score per game minus ``b``'s, deal by deal; positive: ``a`` scores more), with its
    Student-t interval: the measure a contest that ranks by score (Botzone's MCR) cares about.
    """

    a: str
    b: str
    deals: int
    mean_diff: float
    sd: float
    se: float
    t: float
    low: float
    high: float
    p_a_better: float
    p_a_better_normal: float
    p_two_sided: float
    pair_win_rate: float | None = None
    pair_win_low: float | None = None
    pair_win_high: float | None = None
    score_diff: float | None = None
    score_low: float | None = None
    score_high: float | None = None

    def as_dict(self) -> dict[str, object]:
        def finite(v: float | None) -> float | None:
            return None if v is None or math.isnan(v) or math.isinf(v) else v

        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            **{
                k: finite(getattr(self, k))
                for k in (
                    "mean_diff",
                    "sd",
                    "se",
                    "t",
                    "low",
                    "high",
                    "p_a_better",
                    "p_a_better_normal",
                    "p_two_sided",
                    "pair_win_rate",
                    "pair_win_low",
                    "pair_win_high",
                    "score_diff",
                    "score_low",
                    "score_high",
                )
            },
        }


def _per_deal_diffs(
    rows: Sequence[SeatRow], a: str, b: str, value: Callable[[SeatRow], float]
) -> list[float]:
    """Per deal both played: mean ``value`` of ``a``'s seat-games minus ``b``'s."""
    diffs: list[float] = []
    for deal_rows in _by_deal(rows).values():
        va = [value(r) for r in deal_rows if r.agent == a]
        vb = [value(r) for r in deal_rows if r.agent == b]
        if va and vb:
            diffs.append(sum(va) / len(va) - sum(vb) / len(vb))
    return diffs


def _t_interval(values: Sequence[float], confidence: float) -> tuple[float, float, float, float]:
    """Mean, standard deviation, standard error and half-width of a Student-t interval
    (nan where fewer than two values leave them undefined)."""
    n = len(values)
    nan = math.nan
    if n < 2:
        return (sum(values) / n if n else nan), nan, nan, nan
    mean = sum(values) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in values) / (n - 1))
    se = sd / math.sqrt(n)
    return mean, sd, se, student_t_ppf(0.5 + confidence / 2, n - 1) * se


def paired_test(rows: Sequence[SeatRow], a: str, b: str, confidence: float = 0.95) -> PairedTest:
    """Compare ``a`` and ``b`` on the deals both played: one rank difference per deal (and
    one score difference, see :class:`PairedTest`)."""
    if a == b:
        raise ValueError("a paired test needs two different agents")
    diffs = _per_deal_diffs(rows, a, b, lambda r: float(r.rank))
    n = len(diffs)
    nan = math.nan
    if n < 2:
        mean = sum(diffs) / n if n else nan
        return PairedTest(a, b, n, mean, nan, nan, nan, nan, nan, nan, nan, nan)
    mean, sd, se, half = _t_interval(diffs, confidence)
    if se == 0:
        t = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    else:
        t = mean / se
    p_one = student_t_cdf(t, n - 1)
    p_norm = normal_cdf(t)
    # From the lower tail of -|t| directly: 1 - p_one loses all precision when p_one ~ 1.
    p_two = min(1.0, 2 * student_t_cdf(-abs(t), n - 1))
    score_mean, _, _, score_half = _t_interval(
        _per_deal_diffs(rows, a, b, lambda r: float(r.score)), confidence)
    return PairedTest(a, b, n, mean, sd, se, t, mean - half, mean + half, p_one, p_norm, p_two,
                      *pair_win_rate(rows, a, b, confidence),
                      score_mean, score_mean - score_half, score_mean + score_half)


def pair_win_rate(
    rows: Sequence[SeatRow], a: str, b: str, confidence: float = 0.95
) -> tuple[float | None, float | None, float | None]:
    """Seed 002's win rate of ``a`` against ``b`` (see :class:`PairedTest`), with its interval;
    Nones when fewer than two deals have a game seating them equally."""
    per_deal: list[float] = []
    for deal_rows in _by_deal(rows).values():
        games: dict[int, list[SeatRow]] = defaultdict(list)
        for r in deal_rows:
            games[r.rotation].append(r)
        outcomes = []
        for seats in games.values():
            pa = [r.score for r in seats if r.agent == a]
            pb = [r.score for r in seats if r.agent == b]
            if pa and len(pa) == len(pb):
                outcomes.append(1.0 if sum(pa) > sum(pb) else 0.5 if sum(pa) == sum(pb) else 0.0)
        if outcomes:
            per_deal.append(sum(outcomes) / len(outcomes))
    n = len(per_deal)
    if n < 2:
        return None, None, None
    mean = sum(per_deal) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in per_deal) / (n - 1) / n)
    half = student_t_ppf(0.5 + confidence / 2, n - 1) * se
    return mean, max(0.0, mean - half), min(1.0, mean + half)

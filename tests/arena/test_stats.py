"""Statistics against cases computed by hand."""

from __future__ import annotations

import math

import pytest

from tenpai.arena.distributions import normal_cdf, student_t_cdf, student_t_ppf
from tenpai.arena.stats import (
    HOUOU,
    agent_stats,
    clustered_ratio,
    pair_win_rate,
    paired_test,
    stable_dan,
    stable_dan_blocks,
)
from tenpai.arena.store import SeatRow

from .helpers import row


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        (0.975, 1, 12.7062),
        (0.975, 2, 4.3027),
        (0.975, 4, 2.7764),
        (0.975, 30, 2.0423),
        (0.95, 10, 1.8125),
        (0.975, 10_000, 1.9602),
    ],
)
def test_t_quantiles_match_printed_tables(p: float, df: int, expected: float) -> None:
    assert student_t_ppf(p, df) == pytest.approx(expected, abs=1e-4)


def test_t_cdf_closed_form_for_two_degrees_of_freedom() -> None:
    # With df = 2 the CDF is 1/2 + t / (2 sqrt(2 + t²)).
    for t in (-3.0, -1.0, 0.0, 0.5, 2.5):
        assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)))
    assert normal_cdf(1.959964) == pytest.approx(0.975, abs=1e-6)


def test_clustered_ratio_equal_clusters_is_the_t_interval_of_cluster_means() -> None:
    # Cluster means 2, 3, 4: mean 3, sd 1, se 1/sqrt(3), t(0.975, 2) = 4.302653.
    e = clustered_ratio([4, 6, 8], [2, 2, 2])
    assert e.mean == pytest.approx(3.0)
    assert e.se == pytest.approx(1 / math.sqrt(3))
    assert e.high - e.mean == pytest.approx(4.302653 / math.sqrt(3), rel=1e-5)
    assert e.clusters == 3


def test_clustered_ratio_unequal_clusters() -> None:
    # m = 5/3; residuals 3 - 10/3 = -1/3 and 2 - 5/3 = 1/3; se² = 2/1 · (2/9) / 3² = 4/81.
    e = clustered_ratio([3, 2], [2, 1])
    assert e.mean == pytest.approx(5 / 3)
    assert e.se == pytest.approx(2 / 9)


def test_clustered_ratio_with_one_cluster_has_no_interval() -> None:
    e = clustered_ratio([5], [2])
    assert e.mean == 2.5
    assert math.isnan(e.low) and math.isnan(e.se)


def test_stable_dan_formulas() -> None:
    assert stable_dan([30, 25, 25, 20]) == pytest.approx((5 * 30 + 2 * 25) / 20 - 2)  # 8.0
    assert stable_dan([30, 25, 25, 20], HOUOU) == pytest.approx((6 * 30 + 3 * 25) / 20 - 2)
    # Equal placements: 7·n/n − 2 = 5 dan, the tokujou "average player".
    assert stable_dan([10, 10, 10, 10]) == pytest.approx(5.0)
    assert stable_dan([3, 1, 0, 0]) == math.inf


def test_stable_dan_blocks_average_whole_blocks_and_skip_undefined_ones() -> None:
    ranks = [*(1, 2, 3, 4), *(1, 1, 4, 4), *(1, 1, 1, 1), 2, 4]  # 3 whole blocks, 1 partial
    b = stable_dan_blocks(ranks, block_size=4)
    # Block 1: (5 + 2)/1 − 2 = 5; block 2: 10/2 − 2 = 3; block 3 has no 4th: skipped.
    assert b.values == (5.0, 3.0)
    assert b.skipped == 1
    assert b.mean == pytest.approx(4.0)
    assert b.median == pytest.approx(4.0)
    assert (b.q25, b.q75) == pytest.approx((3.5, 4.5))
    # The pooled formula on the same 12 whole-block games differs: (5·7 + 2·1)/3 − 2.
    assert stable_dan([7, 1, 1, 3]) == pytest.approx(37 / 3 - 2)


def _three_deals() -> list[SeatRow]:
    """Lineup A,B,C,C: per deal A's and B's mean ranks are chosen by hand."""
    rows: list[SeatRow] = []
    # deal 0: A ranks 1,1,2,1 (mean 1.25), B ranks 2,2,1,3 (mean 2.0): diff −0.75
    # deal 1: A 2,2,2,2 (2.0), B 1,3,1,3 (2.0): diff 0
    # deal 2: A 4,1,1,2 (2.0), B 1,2,3,1 (1.75): diff +0.25
    plan = {
        0: ([1, 1, 2, 1], [2, 2, 1, 3]),
        1: ([2, 2, 2, 2], [1, 3, 1, 3]),
        2: ([4, 1, 1, 2], [1, 2, 3, 1]),
    }
    for deal, (ra, rb) in plan.items():
        for rot in range(4):
            others = sorted({1, 2, 3, 4} - {ra[rot], rb[rot]})
            rows.append(row(deal, rot, rot % 4, "A", ra[rot], wins=1 if rot == 0 else 0))
            rows.append(row(deal, rot, (rot + 1) % 4, "B", rb[rot]))
            rows.append(row(deal, rot, (rot + 2) % 4, "C", others[0]))
            rows.append(row(deal, rot, (rot + 3) % 4, "C", others[1]))
    return rows


def test_paired_test_by_deal() -> None:
    p = paired_test(_three_deals(), "A", "B")
    diffs = [-0.75, 0.0, 0.25]
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2)
    se = sd / math.sqrt(3)
    assert p.deals == 3
    assert p.mean_diff == pytest.approx(mean)
    assert p.sd == pytest.approx(sd)
    assert p.t == pytest.approx(mean / se)
    t = mean / se
    assert p.p_a_better == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)))  # df = 2
    assert p.p_a_better_normal == pytest.approx(normal_cdf(t))
    assert p.high - p.mean_diff == pytest.approx(4.302653 * se, rel=1e-5)
    reverse = paired_test(_three_deals(), "B", "A")
    assert reverse.mean_diff == pytest.approx(-mean)
    assert reverse.p_a_better == pytest.approx(1 - p.p_a_better)


def _pairs(scores: list[list[tuple[int, int]]]) -> list[SeatRow]:
    """A,B,A,B games: ``scores[deal][rotation]`` is (each A seat's points, each B seat's)."""
    rows = []
    for deal, games in enumerate(scores):
        for rot, (pa, pb) in enumerate(games):
            # A's two seats share pa, B's two share pb; ranks do not matter here.
            for seat, (agent, pts) in enumerate((("A", pa), ("B", pb), ("A", pa), ("B", pb))):
                rows.append(row(deal, rot, seat, agent, 1 + seat, score=pts))
    return rows


def test_pair_win_rate_is_002s_win_by_deal() -> None:
    # Deal 0: A's pair ahead in both games (1.0); deal 1: ahead, tie (0.75); deal 2: behind (0).
    rows = _pairs([[(30, 20), (26, 24)], [(40, 10), (25, 25)], [(10, 40), (20, 30)]])
    rate, low, high = pair_win_rate(rows, "A", "B")
    per_deal = [1.0, 0.75, 0.0]
    mean = sum(per_deal) / 3
    se = math.sqrt(sum((v - mean) ** 2 for v in per_deal) / 2 / 3)
    assert rate == pytest.approx(mean)
    assert low == pytest.approx(max(0.0, mean - 4.302653 * se), rel=1e-5)
    assert high == pytest.approx(min(1.0, mean + 4.302653 * se), rel=1e-5)
    assert paired_test(rows, "A", "B").pair_win_rate == pytest.approx(mean)
    assert pair_win_rate(rows, "B", "A")[0] == pytest.approx(1 - mean)


def test_paired_score_difference_by_deal() -> None:
    # Per deal, A's mean score minus B's: deal 0 (30+26)/2-(20+24)/2 = 6, deal 1 15, deal 2 -20.
    rows = _pairs([[(30, 20), (26, 24)], [(40, 10), (25, 25)], [(10, 40), (20, 30)]])
    p = paired_test(rows, "A", "B")
    diffs = [6.0, 15.0, -20.0]
    mean = sum(diffs) / 3
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2 / 3)
    assert p.score_diff == pytest.approx(mean)
    assert p.score_low == pytest.approx(mean - 4.302653 * se, rel=1e-5)
    assert p.score_high == pytest.approx(mean + 4.302653 * se, rel=1e-5)
    assert paired_test(rows, "B", "A").score_diff == pytest.approx(-mean)
    d = p.as_dict()
    assert d["score_diff"] == pytest.approx(mean)
    assert d["score_low"] is not None and d["score_high"] is not None


def test_pair_win_rate_needs_equal_seats() -> None:
    # A,B,B,B (the third agent rows of _three_deals) has no equal-seat game: no rate.
    assert pair_win_rate(_three_deals(), "A", "C") == (None, None, None)
    assert paired_test(_three_deals(), "A", "C").as_dict()["pair_win_rate"] is None


def test_agent_stats_counts_and_rates() -> None:
    stats = {s.agent: s for s in agent_stats(_three_deals(), block_size=4)}
    a = stats["A"]
    assert a.games == 12
    assert a.rank_counts == (5, 6, 0, 1)
    assert a.avg_rank.mean == pytest.approx((1.25 + 2.0 + 2.0) / 3)
    # Per-deal means 1.25, 2, 2: the clustered interval is the t interval of those three.
    sd = math.sqrt(((1.25 - 1.75) ** 2 + 2 * 0.25**2) / 2)
    assert a.avg_rank.se == pytest.approx(sd / math.sqrt(3))
    assert a.win_rate.mean == pytest.approx(3 / 48)  # one win per deal, 4 hands × 12 games
    assert a.rank_rates[0].mean == pytest.approx(5 / 12)
    assert a.stable_dan == pytest.approx((5 * 5 + 2 * 6) / 1 - 2)
    assert stats["C"].games == 24
    assert sum(s.games for s in stats.values()) == 48

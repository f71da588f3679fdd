"""Seed 000's rating: one agent in every seat of each deal against three baseline seats."""

from __future__ import annotations

import pytest

from tenpai.agents import make_agent
from tenpai.arena.stats import stable_dan
from tenpai.selfplay.rating import rate_against


def test_every_deal_is_played_in_four_seats_and_rated_by_stable_dan() -> None:
    agent = make_agent("efficiency", 7)
    r = rate_against(agent, "random", "suits108", [3, 4], tables=2)
    assert r.games == 8 and r.deals == 2 and sum(r.rank_counts) == 8
    assert r.mean_rank == pytest.approx(sum((k + 1) * n for k, n in enumerate(r.rank_counts)) / 8)
    assert r.stable_dan == stable_dan(r.rank_counts)
    again = rate_against(make_agent("efficiency", 7), "random", "suits108", [3, 4], tables=1)
    assert again == r  # the seeds decide; the table count does not


def test_an_unknown_baseline_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        rate_against(make_agent("random", 0), "nobody", "suits108", [1])

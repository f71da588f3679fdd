"""The benchmarks' inputs are what their rows say they are (speed itself is never asserted).

``bench hand``'s is_complete row claims a stated share of complete hands; ``bench scoring``
claims every side scores the same wins and reports agreement.  These tests keep those claims
true when the generators change.
"""

from __future__ import annotations

import random

import pytest

from tenpai.bench.hand import COMPLETE_SHARE, _complete_draw, complete_mix
from tenpai.bench.scoring import _our_key, ours, plain_wins
from tenpai.hand import is_complete


def test_complete_draws_are_complete_and_physical() -> None:
    rng = random.Random(5)
    for _ in range(2_000):
        ids = _complete_draw(rng)
        assert len(ids) == 14 and len(set(ids)) == 14 and all(0 <= i < 136 for i in ids)
        counts = [0] * 34
        for i in ids:
            counts[i // 4] += 1
        assert is_complete(counts)


def test_complete_mix_has_the_stated_share() -> None:
    mix = complete_mix(4_000, 1)
    assert all(sum(c) == 14 for c in mix.counts)
    complete = sum(1 for c in mix.counts if is_complete(c))
    # Uniform 14-tile draws are almost never complete, so the share is the drawn share.
    assert abs(complete / len(mix.counts) - COMPLETE_SHARE) < 0.03
    assert complete_mix(300, 1).counts == complete_mix(300, 1).counts  # seeded


def test_scoring_wins_are_legal_and_mostly_scored() -> None:
    wins = plain_wins(400, 2)
    for w in wins:
        ids = list(w.closed) + [i for _, m, _ in w.melds for i in m]
        assert len(ids) == len(set(ids)) and w.win in w.closed
        assert len(w.closed) + 3 * len(w.melds) == 14
    scored = [_our_key(ours(w)) for w in wins]
    with_yaku = sum(1 for k in scored if k is not None)
    assert 0.4 * len(wins) < with_yaku < len(wins)  # some hands have no yaku, by design
    assert plain_wins(50, 2) == wins[:50]


def test_scoring_bench_reports_agreement_with_mahjong() -> None:
    pytest.importorskip("mahjong")
    from tenpai.bench.scoring import run_scoring_bench

    result = run_scoring_bench(n=150, seed=3, repeat=1)
    summary = result.summary()
    assert summary["hands"] == 150
    assert summary["agree_mahjong"] == 150  # the differential suite holds this on 10k hands
    assert summary["hands_per_s"] > 0 and summary["mahjong_per_s"] > 0

"""Differential test: our fans and totals against PyMahjongGB on random legal winning hands.

Hands come from :mod:`tenpai.rules.mcr.handgen` (every shape, melds of every kind, random win
situations).  The only translation is PyMahjongGB's 明暗杠 (5) into the official 明杠 + 暗杠;
everything else must agree exactly, fan by fan.

The CI sample is seeded and small; the full run (``-m slow``) checks 50,000 hands:

    .venv/bin/pytest tests/mcr_scoring/test_vs_mahjonggb.py -m slow
"""

from __future__ import annotations

from collections import Counter

import pytest

from tenpai.bench.fan import from_mahjonggb, to_mahjonggb
from tenpai.rules.mcr import evaluate
from tenpai.rules.mcr.handgen import random_contexts
from tenpai.tiles import to_compact

mahjonggb = pytest.importorskip("MahjongGB")


def _disagreements(n: int, seed: int) -> tuple[list[str], Counter[str]]:
    bad: list[str] = []
    seen: Counter[str] = Counter()
    for ctx in random_contexts(n, seed):
        ours = evaluate(ctx)
        assert ours is not None, f"generated hand does not win: {ctx}"
        theirs, total = from_mahjonggb(
            mahjonggb.MahjongFanCalculator(*to_mahjonggb(ctx), verbose=True))
        seen.update(ours.counts())
        if Counter(ours.counts()) != theirs or ours.total != total:
            melds = " ".join(f"{m.kind}:{to_compact(m.tiles)}" for m in ctx.melds)
            bad.append(f"{to_compact(ctx.concealed)} [{melds}] win {to_compact([ctx.win_tile])}"
                       f" ours {ours.counts()} theirs {dict(theirs)}")
    return bad, seen


def test_ci_sample_agrees() -> None:
    bad, seen = _disagreements(6000, seed=20240601)
    assert not bad, "\n".join(bad[:10])
    # The sample reaches every shape's headline fans, not just the common ones.
    for name in ("七对", "十三幺", "连七对", "全不靠", "七星不靠", "组合龙", "九莲宝灯",
                 "一色双龙会", "三色双龙会", "大四喜", "四杠", "杠上开花", "抢杠和"):
        assert seen[name], f"the sample never produced {name}"


@pytest.mark.slow
def test_fifty_thousand_hands_agree(request: pytest.FixtureRequest) -> None:
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long check: run with -m slow")
    bad, seen = _disagreements(50_000, seed=7)
    assert not bad, f"{len(bad)} disagreements:\n" + "\n".join(bad[:20])
    assert len(seen) >= 80, f"only {len(seen)} different fans reached"

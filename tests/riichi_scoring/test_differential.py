"""Differential test against the `mahjong` library on random winning hands.

The CI sample (a few thousand seeded hands per rule set) runs in seconds; the full run is

    .venv/bin/pytest tests/riichi_scoring/test_differential.py -m slow

(20,000 hands for each of the three rule sets).  Zero disagreements are expected: han, fu
(below yakuman), the payment split and the yaku list must all match; docs/riichi.md maps our
flags to the library's options.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tenpai.rules.riichi import MAHJONG_SOUL, TENHOU, RiichiRules, evaluate
from tenpai.rules.riichi.random_wins import random_win

from .library_oracle import compare, describe

VARIANT = TENHOU.with_(
    name="variant", kiriage_mangan=True, open_tanyao=False, kazoe_yakuman=False, red_fives=0
)
RULES = {"tenhou": TENHOU, "mahjong_soul": MAHJONG_SOUL, "variant": VARIANT}


def _run(rules: RiichiRules, seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    failures = []
    for _ in range(n):
        hand = random_win(rng, rules)
        problem = compare(hand)
        if problem:
            failures.append(f"{describe(hand)}\n    {problem}")
    return failures


@pytest.mark.parametrize(("name", "seed", "n"),
                         [("tenhou", 11, 3000), ("mahjong_soul", 12, 1500), ("variant", 13, 1500)])
def test_agrees_with_the_mahjong_library_sample(name: str, seed: int, n: int) -> None:
    failures = _run(RULES[name], seed, n)
    assert not failures, f"{len(failures)} disagreements, first:\n" + "\n".join(failures[:5])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULES))
def test_agrees_with_the_mahjong_library_full(name: str) -> None:
    failures = _run(RULES[name], 2024, 20_000)
    assert not failures, f"{len(failures)} disagreements, first:\n" + "\n".join(failures[:5])


def test_generator_reaches_every_yaku() -> None:
    """The sample is only worth something if the rare yaku and yakuman actually occur."""
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for _ in range(4000):
        result = evaluate(random_win(rng, MAHJONG_SOUL).ctx)
        if result is not None:
            seen.update(name for name, _ in result.yaku)
    missing = {
        "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "pinfu", "iipeikou", "ryanpeikou",
        "tanyao", "yakuhai_seat_wind", "yakuhai_round_wind", "yakuhai_haku", "yakuhai_hatsu",
        "yakuhai_chun", "haitei", "houtei", "rinshan", "chankan", "chiitoitsu", "ittsu",
        "sanshoku", "sanshoku_doukou", "toitoi", "sanankou", "sankantsu", "chanta", "junchan",
        "honroutou", "shousangen", "honitsu", "chinitsu", "dora", "aka_dora", "ura_dora",
        "kokushi", "kokushi_13", "suuankou", "suuankou_tanki", "daisangen", "tsuuiisou",
        "ryuuiisou", "chinroutou", "chuuren", "junsei_chuuren", "tenhou", "chiihou",
    } - set(seen)
    assert not missing

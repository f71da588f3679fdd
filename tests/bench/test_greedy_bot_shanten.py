"""The greedy Botzone bot's per-suit shanten gives exactly the answers of its first,
whole-hand search (kept here as the reference), so the faster bot makes the same choices.

The bot's choices depend on its hands only through ``shanten``: equal answers on every hand
mean equal discards, calls and wins.  Hands: seeded random ones of every size the bot meets
(0-4 melds, waiting or about to discard), half of them drawn from one or two suits so that
the long runs and many-way splits where a per-suit split could go wrong are common.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

BOT = Path(__file__).resolve().parents[2] / "src" / "tenpai" / "bench" / "botzone_greedy_bot.py"


def _bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("greedy_bot_under_test", BOT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def reference_shanten(c: list[int], melds: int) -> int:
    """The bot's original whole-hand search (every split of every tile, in one recursion)."""
    best = [8]

    def rec(i: int, sets: int, parts: int, pair: int) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            s = sets + melds
            best[0] = min(best[0], 8 - 2 * s - min(parts, 4 - s) - pair)
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(i, sets + 1, parts, pair)
            c[i] += 3
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets + 1, parts, pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not pair:
                rec(i, sets, parts, 1)
            rec(i, sets, parts + 1, pair)
            c[i] += 2
        for d in (1, 2):
            if i < 27 and i % 9 + d <= 8 and c[i + d]:
                c[i] -= 1
                c[i + d] -= 1
                rec(i, sets, parts + 1, pair)
                c[i] += 1
                c[i + d] += 1
        c[i] -= 1
        rec(i + 1, sets, parts, pair)
        c[i] += 1

    rec(0, 0, 0, 0)
    out = best[0]
    if melds == 0:
        pairs = sum(1 for x in c if x >= 2)
        kinds = sum(1 for x in c if x)
        out = min(out, 6 - pairs + max(0, 7 - kinds))
    return out


def _hands(n: int, seed: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    out: list[tuple[list[int], int]] = []
    while len(out) < n:
        melds = rng.randrange(5)
        size = 14 - 3 * melds - rng.randrange(2)
        wall = [k for k in range(34) for _ in range(4)]
        if rng.random() < 0.5:
            suits = rng.sample(range(4), rng.randrange(1, 3))
            wall = [k for k in wall if min(k // 9, 3) in suits]
        if len(wall) < size:
            continue
        counts = [0] * 34
        for k in rng.sample(wall, size):
            counts[k] += 1
        out.append((counts, melds))
    return out


def test_the_per_suit_search_answers_as_the_whole_hand_search() -> None:
    bot = _bot()
    hands = _hands(1500, seed=43)
    got = [bot.shanten(list(c), m) for c, m in hands]
    want = [reference_shanten(list(c), m) for c, m in hands]
    assert got == want
    # the sample reaches complete hands, ready hands and far ones alike
    assert {-1, 0, 1, 2, 3} <= set(want)


def test_known_hands() -> None:
    bot = _bot()
    nine_gates = [3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25
    assert bot.shanten(nine_gates, 0) == 0
    seven_pairs = [2] * 7 + [0] * 27
    assert bot.shanten(seven_pairs, 0) == -1
    honours = [0] * 27 + [2, 2, 2, 2, 2, 2, 1]
    assert bot.shanten(honours, 0) == reference_shanten(list(honours), 0) == 0

"""Timing our fan evaluator against PyMahjongGB (C++) on the same random winning hands.

PyMahjongGB is a test and benchmark dependency only: it is imported lazily here, and
``tenpai.rules.mcr`` itself never needs it.  :func:`to_mahjonggb` / :func:`from_mahjonggb`
translate a context and a result, and are shared with the differential tests.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from tenpai.rules.mcr.context import MCRContext
from tenpai.rules.mcr.evaluate import clear_hand_caches, evaluate
from tenpai.rules.mcr.handgen import random_contexts
from tenpai.tiles import kind_of

__all__ = ["ORACLE_NAMES", "bench_fan", "from_mahjonggb", "to_mahjonggb"]

#: PyMahjongGB names that differ from the official names we use.
ORACLE_NAMES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def _gb_tile(kind: int) -> str:
    """PyMahjongGB's tile name: W/B/T = characters/dots/bamboo, J1-J3 = 中 发 白."""
    if kind < 27:
        return "WBT"[kind // 9] + str(kind % 9 + 1)
    if kind < 31:
        return f"F{kind - 26}"
    return {31: "J3", 32: "J2", 33: "J1"}[kind]


def to_mahjonggb(ctx: MCRContext) -> tuple[Any, ...]:
    """The positional arguments of ``MahjongGB.MahjongFanCalculator`` for a context."""
    packs = []
    for m in ctx.melds:
        if m.kind == "chow":
            packs.append(("CHI", _gb_tile(m.base + 1), 1))
        elif m.kind == "pung":
            packs.append(("PENG", _gb_tile(m.base), m.claimed_from))
        else:
            packs.append(("GANG", _gb_tile(m.base), m.claimed_from))
    hand = [kind_of(t) for t in ctx.concealed]
    hand.remove(ctx.win_kind)
    return (
        tuple(packs),
        tuple(_gb_tile(k) for k in sorted(hand)),
        _gb_tile(ctx.win_kind),
        ctx.flowers,
        ctx.self_drawn,
        ctx.last_copy,
        ctx.kong_replacement or ctx.robbing_kong,
        ctx.last_tile,
        ctx.seat_wind,
        ctx.prevalent_wind,
    )


def from_mahjonggb(fans: tuple[tuple[int, int, str, str], ...]) -> tuple[Counter[str], int]:
    """Fan counts by official name and the total from PyMahjongGB's verbose output.

    PyMahjongGB scores one melded plus one concealed kong as 明暗杠 (5); the official table
    has no such fan and counts 明杠 (1) + 暗杠 (2).  It is translated here so the comparison
    shows only real disagreements.
    """
    counts: Counter[str] = Counter()
    total = 0
    for points, cnt, name, _en in fans:
        if name == "明暗杠":
            counts["明杠"] += 1
            counts["暗杠"] += 1
            total += 3
            continue
        counts[ORACLE_NAMES.get(name, name)] += cnt
        total += points * cnt
    return counts, total


def bench_fan(n: int = 2000, seed: int = 0, repeats: int = 3) -> dict[str, float]:
    """Time ``evaluate`` and PyMahjongGB on ``n`` random winning hands (best of ``repeats``).

    Both sides are timed the same way: a bare loop calling the function on prepared inputs, no
    ``try`` or context manager around either call (an earlier version wrapped only
    PyMahjongGB's call in ``contextlib.suppress``, which added about 15 % to its time and
    flattered our ratio).  A hand PyMahjongGB refuses would raise, so every hand is first put
    to PyMahjongGB once, untimed, and any it refuses is dropped from *both* sides
    (``peer_refused``).  That untimed pass also checks agreement of the totals
    (``agree_total``).

    ``ours_cold_us`` clears every cache keyed by a whole hand or a reading before each pass
    (:func:`~tenpai.rules.mcr.evaluate.clear_hand_caches`: results, tile facts, waits, set
    combinations), so every hand is new to us; only the small per-suit caches stay warm, as they
    do in a running engine.  It is what ``ratio`` uses.  ``ours_first_pass_us`` is the very
    first pass of the process (the per-suit caches cold too); ``ours_warm_us`` asks about the
    same hands again (the engine asks about the same hands repeatedly).  ``ratio`` is our cold
    speed as a fraction of PyMahjongGB's (1.0 = as fast).
    """
    import MahjongGB

    calc = MahjongGB.MahjongFanCalculator
    contexts: list[MCRContext] = []
    args: list[tuple[Any, ...]] = []
    refused = agree = 0
    for c in random_contexts(n, seed):
        a = to_mahjonggb(c)
        try:
            theirs = calc(*a, verbose=True)
        except TypeError:
            refused += 1
            continue
        contexts.append(c)
        args.append(a)
        ours = evaluate(c)
        if ours is not None and ours.total == from_mahjonggb(theirs)[1]:
            agree += 1
    clear_hand_caches()
    count = len(contexts)
    gb = cold = warm = first = float("inf")
    for i in range(max(1, repeats)):
        t0 = time.perf_counter()
        for a in args:
            calc(*a)
        gb = min(gb, time.perf_counter() - t0)

        clear_hand_caches()
        t0 = time.perf_counter()
        for c in contexts:
            evaluate(c)
        elapsed = time.perf_counter() - t0
        if i == 0:
            first = elapsed
        cold = min(cold, elapsed)

        t0 = time.perf_counter()
        for c in contexts:
            evaluate(c)
        warm = min(warm, time.perf_counter() - t0)
    per = 1e6 / max(1, count)
    return {
        "hands": float(count),
        "peer_refused": float(refused),
        "agree_total": float(agree),
        "mahjonggb_us": gb * per,
        "ours_cold_us": cold * per,
        "ours_first_pass_us": first * per,
        "ours_warm_us": warm * per,
        "ratio": gb / cold if cold else float("inf"),
    }

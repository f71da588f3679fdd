"""``tenpai bench efficiency``: the ``gao86e`` efficiency channels, timed and profiled.

Usage: ``tenpai bench efficiency [--views N] [--seed S] [--top K] [--no-profile]``.

Self-play spends most of its batched time in
:func:`tenpai.learn.encoders.efficiency.efficiency_rows`, so this measures that function alone,
on the same hands every run (docs/performance_runs.md keeps the figures).  The views imitate a game:
80 % are 14-tile discard decisions, 10 % 13-tile claim windows, 10 % hands with called melds
(11 or 10 tiles); the tiles the viewer has "seen" elsewhere are a seeded draw from the rest of
the wall, so the unseen copies per kind vary like they do at a table.  Run it once with
``TENPAI_PURE_PYTHON=1`` to time the pure-Python path.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import time

import numpy as np

from tenpai.hand import accel
from tenpai.learn.encoders.efficiency import efficiency_rows

__all__ = ["make_views", "profile_efficiency", "run"]


def make_views(count: int, seed: int) -> list[tuple[bytes, list[int]]]:
    """``count`` (hand bytes, unseen copies per kind) pairs, the same for the same seed."""
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    views = []
    for _ in range(count):
        rng.shuffle(wall)
        roll = rng.random()
        size = 14 if roll < 0.8 else 13 if roll < 0.9 else rng.choice((11, 10))
        hand = [0] * 34
        for k in wall[:size]:
            hand[k] += 1
        seen = list(hand)
        for k in wall[size : size + rng.randint(0, 60)]:
            seen[k] += 1
        views.append((bytes(hand), [max(0, 4 - s) for s in seen]))
    return views


def run(views: list[tuple[bytes, list[int]]]) -> float:
    """Seconds to compute the four channels of every view once."""
    out = np.zeros((4, 34), dtype=np.uint8)
    start = time.perf_counter()
    for hand, left in views:
        out[:] = 0
        efficiency_rows(hand, left, out, 0)
    return time.perf_counter() - start


def profile_efficiency(views: int = 2000, seed: int = 13, top: int = 8,
                       profile: bool = True) -> str:
    """The report: the best of three timed passes over ``views`` seeded views (after a
    warm-up on other views, so table building is not timed), then, with ``profile``, the
    ``top`` functions by own time of one more pass."""
    hands = make_views(views, seed)
    run(make_views(200, seed + 1))  # warm-up: tables built, suit patterns seen
    best = min(run(hands) for _ in range(3))
    path = "C fast path" if accel.available() else "pure Python"
    report = (f"{path}: {len(hands)} views, best of 3 = {best:.3f} s, "
              f"{1e6 * best / len(hands):.1f} µs per view")
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        run(hands)
        prof.disable()
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(top)
        report += "\n" + text.getvalue()
    return report

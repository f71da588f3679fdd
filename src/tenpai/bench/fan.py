"""Timing our fan evaluator against PyMahjongGB (C++) on the same random winning hands.

PyMahjongGB is a test and benchmark dependency only: it is imported lazily here, and
``tenpai.rules.mcr`` itself never needs it.  :func:`to_mahjonggb` / :func:`from_mahjonggb`
translate a context and a result, and are shared with the differential tests.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tenpai.rules.mcr.context import MCRContext
from tenpai.rules.mcr.evaluate import (
    clear_hand_caches,
    compiled_available,
    evaluate,
    evaluate_python,
)
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


def _pass_us(fn: Callable[[Any], object], inputs: list[Any],
             before: Callable[[], None] | None = None) -> float:
    """CPU microseconds per call of one bare pass (``before`` runs untimed first)."""
    if before is not None:
        before()
    t0 = time.process_time()
    for x in inputs:
        fn(x)
    return (time.process_time() - t0) * 1e6 / max(1, len(inputs))


def bench_fan(n: int = 5000, seed: int = 0, repeats: int = 9) -> dict[str, float | str]:
    """Time ``evaluate`` and PyMahjongGB on ``n`` random winning hands, interleaved.

    Both sides are timed the same way: a bare loop calling the function on prepared inputs
    (contexts for us, PyMahjongGB's argument tuples for it), no ``try`` around either call.  A
    hand PyMahjongGB refuses would raise, so every hand is first put to PyMahjongGB once,
    untimed, and any it refuses is dropped from *both* sides (``peer_refused``); that pass
    also checks agreement of the totals (``agree_total``).

    The sides take turns within each of ``repeats`` rounds (the one going first alternates),
    so a change of machine load hits both; each pass is timed in process CPU time (other
    processes on a shared machine do not count).  Reported: the median per-hand time of each
    side over the rounds with its range (``_min`` / ``_max``), and ``ratio`` = PyMahjongGB's
    median / ours (1.0 = as fast), with the range of the per-round ratios.

    Caches are cold on both sides: before each of our passes every cache keyed by a whole hand
    or a reading is cleared (:func:`~tenpai.rules.mcr.evaluate.clear_hand_caches`); the
    compiled evaluator keeps none.  PyMahjongGB keeps no cache between calls.  ``ours_us`` is
    the entry point :func:`evaluate` (compiled when built, ``ours_path`` says which);
    ``python_cold_us`` is the Python specification itself, ``python_warm_us`` the Python path
    asked about the same hands again (what an engine that repeats questions gets).
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

    def gb_one(a: tuple[Any, ...]) -> object:
        return calc(*a)

    sides: dict[str, tuple[Callable[[Any], object], list[Any], Callable[[], None] | None]] = {
        "mahjonggb": (gb_one, args, None),
        "ours": (evaluate, contexts, clear_hand_caches),
        "python_cold": (evaluate_python, contexts, clear_hand_caches),
        "python_warm": (evaluate_python, contexts, None),
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for r in range(max(1, repeats)):
        order = names if r % 2 == 0 else names[::-1]
        for name in order:
            fn, inputs, before = sides[name]
            if name == "python_warm":
                for c in contexts:  # fill the caches, untimed
                    evaluate_python(c)
            times[name].append(_pass_us(fn, inputs, before))
    out: dict[str, float | str] = {
        "hands": float(len(contexts)),
        "peer_refused": float(refused),
        "agree_total": float(agree),
        "repeats": float(max(1, repeats)),
        "ours_path": "compiled" if compiled_available() else "python",
    }
    for name, values in times.items():
        out[f"{name}_us"] = statistics.median(values)
        out[f"{name}_min_us"] = min(values)
        out[f"{name}_max_us"] = max(values)
    per_round = [g / o for g, o in zip(times["mahjonggb"], times["ours"], strict=True) if o]
    out["ratio"] = statistics.median(times["mahjonggb"]) / statistics.median(times["ours"])
    out["ratio_min"] = min(per_round)
    out["ratio_max"] = max(per_round)
    for side in ("python_cold", "python_warm"):
        # the Python specification against the peer, cold (caches cleared before each pass)
        # and warm (asked about the same hands again), with the range of the per-round ratios
        rounds = [g / o for g, o in zip(times["mahjonggb"], times[side], strict=True) if o]
        out[f"ratio_{side}"] = (statistics.median(times["mahjonggb"])
                                / statistics.median(times[side]))
        out[f"ratio_{side}_min"] = min(rounds)
        out[f"ratio_{side}_max"] = max(rounds)
    return out

"""``tenpai bench rollout --rules mcr``: complete MCR hands per CPU second in the compiled core.

What ``search_mcr`` spends with ``POLICY=c:greedy``: a world played to the end of its hand
with one policy in every seat.  The worlds are the hand starts (the dealer's first draw) of
seeded one-hand games of the ``botzone`` preset, the only preset the compiled MCR playouts
play.  Both sides play the same worlds with the same policy: the compiled core
(:func:`tenpai.search.mcr.compiled.run`) with ``greedy`` and ``greedy-fold`` on the state
exported once per world outside the timed loop, as the search exports a decision's worlds
once; the Python engine with :class:`~tenpai.search.mcr.playout.MCRPlayout` of the same
policy, which copies the world and steps it to the end (the specification: the hand ends are
proven equal in ``tests/search/test_mcr_rollout.py``, and an untimed pass here compares them
again on the Python worlds).  ``python:efficiency``, ``search_mcr``'s default policy, has no
compiled twin: its row is the price of the Python default, with no ratio.

Honest timing, as in the Riichi bench (:mod:`tenpai.bench.rollout`): the sides run
interleaved in one process, ``repeat`` passes, the order turning every pass; each figure is
the CPU time of the pass (``time.process_time``) divided by the hands it played, reported as
medians and ranges.  The core plays each of the ``worlds`` worlds ``seeds`` times per pass
(its policies are deterministic and ``run`` takes no seed, so each is a full replay of the
hand); the Python side, about fifty times slower, plays the first ``python_worlds`` once per
pass.  Hand lengths differ from world to world, so the ratio is not the core's rate over all
the worlds against Python's over a few: in the same pass the core plays the Python worlds too
(``seeds`` times each), world by world beside the Python engine, the first of the two turning
every world -- this machine's speed falls into two clusters and can switch within a pass, which
the sides then meet alike -- and the ratio is taken per pass on those same worlds (medians and
ranges of the per-pass ratios).  It still moves with which worlds those are (55x on the first
10, 47x on the first 80 in session 36's runs), hence 40 Python worlds by default.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tenpai.bench.rollout import rate_fields
from tenpai.engine.snapshot import clone
from tenpai.rules.mcr.flow.round import HandResult, MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE
from tenpai.rules.mcr.game import MCRGame
from tenpai.search.mcr import compiled
from tenpai.search.mcr.playout import MCRPlayout

__all__ = ["COMPILED_POLICIES", "MCRRolloutBench", "hand_starts", "render", "run_mcr_rollout_bench"]

#: The compiled policies timed, each beside its Python reference.
COMPILED_POLICIES = tuple(compiled.POLICY_CODES)
#: The preset the compiled MCR playouts play (and so the only one this bench takes).
PRESET = BOTZONE.name
#: What one side's timing of one pass gives: side -> (hands played, CPU seconds).
_Timed = dict[str, tuple[int, float]]


def hand_starts(count: int, seed: int = 0) -> list[MCRRound]:
    """The hand starts of ``count`` seeded ``botzone`` games (copies): under ``botzone`` a game
    is one hand, so each seed gives one world, its dealer to act on the first draw."""
    out: list[MCRRound] = []
    for g in range(seed, seed + count):
        rnd = MCRGame(BOTZONE, seed=g).round
        assert rnd is not None
        out.append(clone(rnd))
    return out


def _key(r: HandResult | None) -> tuple[Any, ...]:
    """What the differential tests compare of a hand's end: kind, deltas, winner, discarder,
    fan total and fans."""
    assert r is not None, "the hand has not ended"
    return r.kind, tuple(r.deltas), r.winner, r.target, r.fan, tuple(r.fans)


@dataclass
class MCRRolloutBench:
    """Per side: hands per CPU second of every pass; hands played per pass; the per-pass
    ratios on the Python worlds; the untimed agreement count."""

    worlds: int
    seeds: int
    python_worlds: int
    repeat: int
    rates: dict[str, list[float]] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)
    ratios: dict[str, list[float]] = field(default_factory=dict)
    #: Per policy: Python worlds whose hand ended alike on both sides (untimed pass).
    agree: dict[str, int] = field(default_factory=dict)
    #: Per policy: worlds the core did not cover (played by nobody in the timed loop).
    uncovered: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": "mcr", "preset": PRESET, "worlds": self.worlds,
                               "seeds": self.seeds, "python_worlds": self.python_worlds,
                               "repeat": self.repeat}
        for side, values in self.rates.items():
            out.update(rate_fields(side, values))
            out[f"{side} hands/pass"] = self.hands[side]
            out[f"{side} hands/cpu_s per pass"] = [round(v, 1) for v in values]
        for policy, values in self.ratios.items():
            out[f"{policy} speed-up"] = statistics.median(values)
            out[f"{policy} speed-up min"] = min(values)
            out[f"{policy} speed-up max"] = max(values)
            out[f"{policy} speed-up per pass"] = [round(v, 2) for v in values]
            out[f"{policy} agreement"] = self.agree[policy]
            out[f"{policy} uncovered"] = self.uncovered[policy]
        return out


def run_mcr_rollout_bench(worlds: int = 200, seeds: int = 10, python_worlds: int = 40,
                          repeat: int = 5, seed: int = 0) -> MCRRolloutBench:
    """Time the sides (module docstring); raises
    :class:`~tenpai.search.mcr.compiled.MCRRolloutUnavailable` when the core is not built."""
    if not compiled.available():
        raise compiled.MCRRolloutUnavailable(compiled.unavailable_reason())
    starts = hand_starts(max(worlds, python_worlds), seed)
    states = [compiled.export_state(w) for w in starts]
    all_states, few_states = states[:worlds], states[:python_worlds]
    few_worlds = starts[:python_worlds]
    bench = MCRRolloutBench(worlds, seeds, python_worlds, repeat)

    for policy in COMPILED_POLICIES:
        bench.uncovered[policy] = sum(compiled.run(st, None, policy) is None for st in all_states)
        py = MCRPlayout(policy)
        agree = 0
        for i, (world, st) in enumerate(zip(few_worlds, few_states)):
            end = compiled.run(st, None, policy)
            want = py.play_out(world, {}, i).result
            agree += end is not None and _key(end.hand_result()) == _key(want)
        bench.agree[policy] = agree

    clock, run, reps = time.process_time, compiled.run, range(seeds)

    def core(name: str, policy: str) -> Callable[[int], _Timed]:
        def go(_: int) -> _Timed:
            played, t0 = 0, clock()
            for st in all_states:
                for _ in reps:
                    played += run(st, None, policy) is not None
            return {name: (played, clock() - t0)}
        return go

    def paired(policy: str) -> Callable[[int], _Timed]:
        """The core and the Python engine on the same worlds, world by world, the first side
        turning every world (and every pass): the ratio's two sides, finely interleaved."""
        playout = MCRPlayout(policy)
        c_name, p_name = f"c:{policy} on the Python worlds", f"python:{policy}"

        def go(r: int) -> _Timed:
            c_hands, c_dt, p_dt = 0, 0.0, 0.0
            for i, (world, st) in enumerate(zip(few_worlds, few_states)):
                for side in ((0, 1) if (i + r) % 2 == 0 else (1, 0)):
                    t0 = clock()
                    if side == 0:
                        for _ in reps:
                            c_hands += run(st, None, policy) is not None
                        c_dt += clock() - t0
                    else:
                        playout.play_out(world, {}, i)
                        p_dt += clock() - t0
            return {c_name: (c_hands, c_dt), p_name: (len(few_worlds), p_dt)}
        return go

    def python(name: str, policy: str) -> Callable[[int], _Timed]:
        playout = MCRPlayout(policy)

        def go(_: int) -> _Timed:
            t0 = clock()
            for i, world in enumerate(few_worlds):
                playout.play_out(world, {}, i)
            return {name: (len(few_worlds), clock() - t0)}
        return go

    sides: list[Callable[[int], _Timed]] = []
    for policy in COMPILED_POLICIES:
        sides += [core(f"c:{policy}", policy), paired(policy)]
    sides.append(python("python:efficiency", "efficiency"))
    for r in range(repeat):
        for go in sides[r % len(sides):] + sides[: r % len(sides)]:
            for name, (hands, dt) in go(r).items():
                bench.hands[name] = hands
                bench.rates.setdefault(name, []).append(hands / dt if dt > 0 else float("inf"))
    for policy in COMPILED_POLICIES:
        c, p = bench.rates[f"c:{policy} on the Python worlds"], bench.rates[f"python:{policy}"]
        bench.ratios[policy] = [a / b for a, b in zip(c, p)]
    return bench


def render(bench: MCRRolloutBench) -> None:
    from rich.table import Table

    from tenpai.textout import stdout_console

    s = bench.summary()
    table = Table(title=f"Complete MCR ({PRESET}) hands per CPU second: {bench.worlds} worlds x "
                        f"{bench.seeds} replays in C, {bench.python_worlds} worlds in Python "
                        f"(and x {bench.seeds} in C), medians (ranges) of {bench.repeat} "
                        f"interleaved passes")
    table.add_column("side")
    table.add_column("hands / CPU s", justify="right")
    table.add_column("range", justify="right")
    table.add_column("hands / pass", justify="right")
    for side, values in bench.rates.items():
        table.add_row(side, f"{statistics.median(values):,.0f}",
                      f"{min(values):,.0f} - {max(values):,.0f}", f"{bench.hands[side]:,}")
    for policy in COMPILED_POLICIES:
        table.add_row(f"{policy}: C / Python, same worlds", f"{s[f'{policy} speed-up']:,.1f}x",
                      f"{s[f'{policy} speed-up min']:,.1f} - {s[f'{policy} speed-up max']:,.1f}",
                      "")
    stdout_console().print(table)
    for policy in COMPILED_POLICIES:
        stdout_console().print(
            f"{policy}: {bench.agree[policy]} / {bench.python_worlds} Python worlds ended alike "
            f"on both sides (untimed); {bench.uncovered[policy]} of {bench.worlds} worlds not "
            f"covered by the core")

"""``tenpai bench rollout``: complete Riichi hands per CPU second inside the compiled core.

What search spends: a world (a table with the hidden tiles filled in) played to the end of its
hand with a built-in policy in every seat.  The worlds are the first draws of the hands of
seeded ``efficiency`` games (so each playout is a whole hand, about 70 decisions), under the
preset asked for.  The sides play the same worlds: the core with ``fast`` (chi and pon),
``fast-kan`` (kans too), ``greedy``, ``greedy-fold`` and ``efficiency``
(:mod:`tenpai.rules.riichi.rollout`), and the Python engine with the Python reference of
``fast``, ``fast-kan``, ``greedy`` and ``greedy-fold``
(:class:`~tenpai.search.policies.FastPolicy`), whose hand ends the tests prove equal.
(``efficiency`` has no whole-hand Python twin: the agent kans and calls; its discards are
proven position by position.)  The ``+solo`` sides are the search's one-player leaf
(:mod:`tenpai.search.leaves`): the dealer plays ``greedy-fold`` and the others are passive
(they discard what they draw and never win, call or declare riichi), in C (policy
``passive``) and in Python (:class:`~tenpai.search.passive.PassivePolicy`), so the hand ends
in the dealer's win or an exhaustive draw; ``greedy-fold solo / playout`` is the C side's rate
against the full ``greedy-fold`` playout's on the same hand starts.

Honest timing: the sides run interleaved in one process, ``repeat`` passes, the order of the
sides turning every pass; each figure is the CPU time of the pass (``time.process_time``: the
machine is shared) divided by the hands it played; the table gives medians and ranges.  The
core plays every world ``seeds`` times per pass (the seeds drive nothing in these two
deterministic policies, so each is a full replay of the hand); the Python side, a hundred times
slower, plays the first ``python_worlds`` worlds once per pass.  The state is exported once per
world outside the timed loop, as a search that plays many seeds per world would.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai.agents.registry import make_agent
from tenpai.engine.snapshot import clone
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import PRESETS
from tenpai.search.passive import PassivePolicy
from tenpai.search.policies import FastPolicy

__all__ = ["RolloutBench", "hand_starts", "rate_fields", "render", "run_rollout_bench"]


def hand_starts(count: int, preset: str = "tenhou", seed: int = 0) -> list[RiichiRound]:
    """The first draw of ``count`` hands of seeded ``efficiency`` games (copies)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown Riichi preset {preset!r}; known: {', '.join(sorted(PRESETS))}")
    rules = PRESETS[preset]
    out: list[RiichiRound] = []
    g = seed
    while len(out) < count:
        game = RiichiGame(rules, seed=g)
        agent = make_agent("efficiency", g)
        last: RiichiRound | None = None
        while not game.done and len(out) < count:
            rnd = game.round
            assert rnd is not None
            if rnd is not last:
                out.append(clone(rnd))
                last = rnd
            game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
        g += 1
    return out


def _python_hand(world: RiichiRound, fold: bool, calls: bool, kans: bool = False,
                 solo: bool = False) -> int:
    rnd = clone(world)
    agents: list[Any] = [
        FastPolicy(s, fold=fold, calls=calls, kans=kans) if not solo or s == world.turn
        else PassivePolicy(s) for s in range(rnd.players)]
    while not rnd.done:
        rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
    return 1


def rate_fields(side: str, values: list[float]) -> dict[str, float]:
    """A side's hands per CPU second over the passes as the JSON of both rollout benches names
    them (median, then the range), so ``bench all`` reads the Riichi and MCR rows alike."""
    return {f"{side} hands/cpu_s median": statistics.median(values),
            f"{side} hands/cpu_s min": min(values),
            f"{side} hands/cpu_s max": max(values)}


@dataclass
class RolloutBench:
    """Per side: hands per CPU second of every pass."""

    preset: str
    worlds: int
    seeds: int
    python_worlds: int
    repeat: int
    rates: dict[str, list[float]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"preset": self.preset, "worlds": self.worlds,
                               "seeds": self.seeds, "python_worlds": self.python_worlds,
                               "repeat": self.repeat}
        for side, values in self.rates.items():
            out.update(rate_fields(side, values))
        for policy in ("fast", "fast-kan", "greedy", "greedy-fold"):
            c, p = self.rates.get(f"c:{policy}"), self.rates.get(f"python:{policy}")
            if c and p:
                out[f"{policy} speed-up"] = statistics.median(c) / statistics.median(p)
        solo, full = self.rates.get("c:greedy-fold+solo"), self.rates.get("c:greedy-fold")
        if solo and full:
            out["greedy-fold solo / playout"] = statistics.median(solo) / statistics.median(full)
        return out


def run_rollout_bench(
    worlds: int = 200, seeds: int = 10, python_worlds: int = 10, repeat: int = 5,
    preset: str = "tenhou", seed: int = 0,
) -> RolloutBench:
    """Time the three sides (see the module docstring); raises ``RolloutUnavailable`` when
    the core is not built."""
    if not rollout.available():
        rollout._need()
    starts = hand_starts(max(worlds, python_worlds), preset, seed)
    states = [rollout.export_state(w) for w in starts[:worlds]]
    rules = PRESETS[preset]
    seed_list = list(range(seeds))

    def compiled(policy: str, solo: bool = False) -> Callable[[], int]:
        # solo: the player to move (the dealer at a hand start) alone, the others passive
        per_state = [[policy if not solo or s == w.turn else "passive" for s in range(w.players)]
                     for w in starts[:worlds]]

        def go() -> int:
            for st, policies in zip(states, per_state):
                rollout.run(st, rules, policies, seed_list)
            return len(states) * len(seed_list)
        return go

    def python(fold: bool, calls: bool = False, kans: bool = False,
               solo: bool = False) -> Callable[[], int]:
        def go() -> int:
            return sum(_python_hand(w, fold, calls, kans, solo) for w in starts[:python_worlds])
        return go

    sides: Sequence[tuple[str, Callable[[], int]]] = (
        ("c:fast", compiled("fast")),
        ("c:fast-kan", compiled("fast-kan")),
        ("c:greedy", compiled("greedy")),
        ("c:greedy-fold", compiled("greedy-fold")),
        ("c:greedy-fold+solo", compiled("greedy-fold", solo=True)),
        ("c:efficiency", compiled("efficiency")),
        ("python:fast", python(False, calls=True)),
        ("python:fast-kan", python(False, kans=True)),
        ("python:greedy", python(False)),
        ("python:greedy-fold", python(True)),
        ("python:greedy-fold+solo", python(True, solo=True)),
    )
    bench = RolloutBench(preset, len(states), seeds, python_worlds, repeat,
                         {name: [] for name, _ in sides})
    for r in range(repeat):
        order = list(sides[r % len(sides):]) + list(sides[: r % len(sides)])
        for name, go in order:
            t0 = time.process_time()
            hands = go()
            dt = time.process_time() - t0
            bench.rates[name].append(hands / dt if dt > 0 else float("inf"))
    return bench


def render(bench: RolloutBench) -> None:
    from rich.table import Table

    from tenpai.textout import stdout_console

    s = bench.summary()
    table = Table(title=f"Complete {bench.preset} hands per CPU second: {bench.worlds} worlds x "
                        f"{bench.seeds} seeds in C, {bench.python_worlds} in Python, medians "
                        f"(ranges) of {bench.repeat} interleaved passes")
    table.add_column("side")
    table.add_column("hands / CPU s", justify="right")
    table.add_column("range", justify="right")
    for side, values in bench.rates.items():
        table.add_row(side, f"{statistics.median(values):,.0f}",
                      f"{min(values):,.0f} - {max(values):,.0f}")
    for policy in ("fast", "fast-kan", "greedy", "greedy-fold"):
        key = f"{policy} speed-up"
        if key in s:
            table.add_row(f"{policy}: C / Python", f"{s[key]:,.0f}x", "")
    if "greedy-fold solo / playout" in s:
        table.add_row("greedy-fold: solo / playout (C)", f"{s['greedy-fold solo / playout']:.2f}x",
                      "")
    stdout_console().print(table)

"""Decision latency of a playing agent, with the ``efficiency`` agent timed in the same run.

Issue 8 sets a budget of 10 ms per ``sl`` decision on two CPU cores.  The agent plays seat 0
of seeded tonpuu games against three ``efficiency`` agents; every request it answers is timed
alone (``act``), and the same requests are then answered again in batches of ``batch`` tables
(``act_batch``) to show what batching buys.  The efficiency agent's own latency on the same
kind of requests is the in-run reference: absolute times move with the machine's load.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from tenpai.agents.registry import make_agent
from tenpai.agents.rulesets import check_agent_rules, check_built_agent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

__all__ = ["AgentBenchResult", "run_agent_bench"]


@dataclass(frozen=True, slots=True)
class AgentBenchResult:
    agent: str
    decisions: int
    single_ms: list[float]
    reference_ms: list[float]
    batch: int
    batched_ms_per_decision: float
    #: CPU milliseconds of the single-request phase per decision (steadier than wall time
    #: on a loaded machine, where a process waits for a core).
    cpu_ms_per_decision: float = 0.0

    def summary(self) -> dict[str, Any]:
        def pct(v: list[float], q: float) -> float:
            s = sorted(v)
            return s[min(len(s) - 1, int(q * len(s)))]

        return {
            "agent": self.agent,
            "decisions": self.decisions,
            "median_ms": statistics.median(self.single_ms),
            "mean_ms": statistics.fmean(self.single_ms),
            "p95_ms": pct(self.single_ms, 0.95),
            "efficiency_median_ms": statistics.median(self.reference_ms),
            "ratio_median": statistics.median(self.single_ms)
            / max(statistics.median(self.reference_ms), 1e-9),
            "batch": self.batch,
            "batched_ms_per_decision": self.batched_ms_per_decision,
            "cpu_ms_per_decision": self.cpu_ms_per_decision,
        }


def run_agent_bench(
    agent: str = "sl", games: int = 2, seed: int = 1, batch: int = 16
) -> AgentBenchResult:
    """Time ``agent`` on every request of seat 0 in ``games`` games (see the module docstring)."""
    check_agent_rules(agent, "riichi")  # the bench plays Riichi tables
    subject = make_agent(agent, 0)
    check_built_agent(agent, subject, "riichi")
    reference = make_agent("efficiency", 0)
    others = [make_agent("efficiency", i) for i in range(1, 4)]
    single: list[float] = []
    ref: list[float] = []
    cpu = 0.0
    for g in range(games):
        game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed + g)
        while not game.done:
            answers: dict[int, Event] = {}
            for d in game.pending():
                if d.seat != 0:
                    answers[d.seat] = others[d.seat - 1].act(d.observation, d.legal)
                    continue
                t, c = time.perf_counter(), time.process_time()
                answers[0] = subject.act(d.observation, d.legal)
                single.append(1000 * (time.perf_counter() - t))
                cpu += time.process_time() - c
                t = time.perf_counter()
                reference.act(d.observation, d.legal)
                ref.append(1000 * (time.perf_counter() - t))
            game.step(answers)
    per_cpu = 1000 * cpu / max(len(single), 1)
    batched = _batched(subject, batch, seed)
    return AgentBenchResult(agent, len(single), single, ref, batch, batched, per_cpu)


def _batched(subject: Any, tables: int, seed: int) -> float:
    """Milliseconds per decision when seat 0 of ``tables`` lockstep games is one act_batch call.

    Observations are live views of their game, so requests are answered as they arise rather
    than collected and replayed later.
    """
    others = [make_agent("efficiency", i) for i in range(1, 4)]
    games = [RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed + 1000 + i) for i in range(tables)]
    spent, decisions = 0.0, 0
    while any(not g.done for g in games):
        live = [g for g in games if not g.done]
        pending = [(g, d) for g in live for d in g.pending()]
        mine = [(g, d) for g, d in pending if d.seat == 0]
        t = time.perf_counter()
        answers = subject.act_batch([(d.observation, d.legal) for _g, d in mine]) if mine else []
        spent += time.perf_counter() - t
        decisions += len(mine)
        chosen = {(id(g), 0): a for (g, _d), a in zip(mine, answers)}
        for g, d in pending:
            if d.seat != 0:
                chosen[(id(g), d.seat)] = others[d.seat - 1].act(d.observation, d.legal)
        for g in live:
            g.step({seat: a for (gid, seat), a in chosen.items() if gid == id(g)})
    return 1000 * spent / max(decisions, 1)

"""Search speed: simulations per CPU second, one search at a time vs many searched together.

CPU time (``time.process_time``) rather than wall time, so the figure is per core and holds on
a loaded, shared machine.  Positions are the first decisions of seeded random-agent games of
the 108-tile rules; each is searched with the given model and simulations.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from tenpai.engine.agent import RandomAgent
from tenpai.env.actions import SUITS108_ACTIONS
from tenpai.mcts.features import encode_table
from tenpai.mcts.model import MCTSModel, NetEvaluator
from tenpai.mcts.search import SearchConfig, SearchRequest, run_searches
from tenpai.rules.suits108 import make_game

__all__ = ["SearchBench", "bench_search", "positions"]


@dataclass(frozen=True, slots=True)
class SearchBench:
    """Simulations per CPU second and network calls of one way of searching."""

    label: str
    searches: int
    simulations: int
    cpu_seconds: float
    network_calls: int

    @property
    def sims_per_cpu_second(self) -> float:
        return self.searches * self.simulations / self.cpu_seconds

    @property
    def seconds_per_decision(self) -> float:
        return self.cpu_seconds / self.searches


def positions(count: int, seed: int = 0) -> list[SearchRequest]:
    """``count`` decision points (planes and legal ids) from seeded random games."""
    out: list[SearchRequest] = []
    g = seed
    while len(out) < count:
        game = make_game(g, ("a", "b", "c", "d"))
        agents = [RandomAgent(g * 4 + i) for i in range(4)]
        while not game.done and len(out) < count:
            pending = game.pending()
            for d in pending:
                assert game.round is not None
                ids = SUITS108_ACTIONS.legal_ids(d.legal)
                out.append(SearchRequest(encode_table(game.round, d.seat),
                                         np.array(sorted(ids)), np.random.default_rng(len(out))))
            game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})
        g += 1
    return out[:count]


def bench_search(
    model: MCTSModel, simulations: int = 50, count: int = 32, parallel: int = 4
) -> list[SearchBench]:
    """One search per network call (``parallel=1``, the unbatched baseline) against all
    ``count`` searches together with ``parallel`` leaves each per round."""
    torch.set_num_threads(1)
    reqs = positions(count)
    out = []
    for label, together, par in (("unbatched", 1, 1), ("batched", count, parallel)):
        ev = NetEvaluator(model.net)
        cfg = SearchConfig(simulations=simulations, parallel=par)
        t0 = time.process_time()
        for i in range(0, count, together):
            run_searches(ev, reqs[i : i + together], cfg)
        out.append(SearchBench(label, count, simulations, time.process_time() - t0, ev.calls))
    return out

"""Think-time figures of ``mcts_pg``: ``python -m tenpai.mcts.pg_measure``.

The twin of :mod:`tenpai.search.measure` (which cannot import this package: it sits below):
seeded tonpuu games with ``mcts_pg`` in one seat (rotating over the games) and ``pg`` in the
others; the share of decisions searched, how often the search overturned ``pg``, and the CPU
time per searched decision (median, 90th and 99th percentile) from the agent's own log.
Settings come from ``$TENPAI_MCTS_PG_*`` as in the arena.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

import numpy as np

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    from tenpai.agents.pg import PGAgent
    from tenpai.mcts.pg_agent import make_mcts_pg_agent
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import TENHOU

    ap = argparse.ArgumentParser(prog="python -m tenpai.mcts.pg_measure")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rules = dataclasses.replace(TENHOU, length="tonpuu")
    pg = PGAgent()
    log = []
    cpu0 = time.process_time()
    identity = ""
    for g in range(args.games):
        agent = make_mcts_pg_agent(args.seed + g)
        identity = agent.identity
        seat = g % 4
        game = RiichiGame(rules, seed=args.seed * 1000 + g)
        while not game.done:
            game.step({d.seat: (agent if d.seat == seat else pg).act(d.observation, d.legal)
                       for d in game.pending()})
        log += agent.log
    searched = [s for s in log if s.searched]
    cpu = np.array([s.cpu_seconds for s in searched]) if searched else np.zeros(1)
    out = {
        "games": args.games,
        "seed": args.seed,
        "agent": identity,
        "decisions": len(log),
        "searched": len(searched),
        "searched_share": round(len(searched) / max(1, len(log)), 3),
        "changed_share_of_searched": round(sum(s.changed for s in searched)
                                           / max(1, len(searched)), 3),
        "cpu_per_searched_median_s": round(float(np.median(cpu)), 3),
        "cpu_per_searched_p90_s": round(float(np.percentile(cpu, 90)), 3),
        "cpu_per_searched_p99_s": round(float(np.percentile(cpu, 99)), 3),
        "simulations_median": float(np.median([s.simulations for s in searched]))
        if searched else 0.0,
        "cpu_seconds_total": round(time.process_time() - cpu0, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Think-time figures of the ``search`` agent: ``python -m tenpai.search.measure``.

Plays seeded tonpuu games with ``search`` in one seat (rotating over the games) and ``pg`` in
the others, and reports the share of decisions searched and the CPU time per searched decision
(median, 90th and 99th percentile), from the agent's own log.  Settings come from
``$TENPAI_SEARCH_*`` as in the arena.
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
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import TENHOU
    from tenpai.search.agent import make_search_agent

    ap = argparse.ArgumentParser(prog="python -m tenpai.search.measure")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rules = dataclasses.replace(TENHOU, length="tonpuu")
    pg = PGAgent()
    log = []
    cpu0 = time.process_time()
    identity = ""
    for g in range(args.games):
        search = make_search_agent(args.seed + g)
        identity = search.identity
        seat = g % 4
        game = RiichiGame(rules, seed=args.seed * 1000 + g)
        while not game.done:
            game.step({d.seat: (search if d.seat == seat else pg).act(d.observation, d.legal)
                       for d in game.pending()})
        log += search.log
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
        "worlds_median": float(np.median([s.worlds for s in searched])) if searched else 0.0,
        # weighted worlds (TENPAI_SEARCH_WORLDS_MODE=weighted): the pool's sampling and
        # weighting per searched decision, and the effective number of worlds of its weights
        "weigh_cpu_median_ms": round(1000 * float(np.median(
            [s.weigh_seconds for s in searched])), 1) if searched else 0.0,
        "effective_worlds_median": round(float(np.median(
            [s.effective_worlds for s in searched])), 2) if searched else 0.0,
        "cpu_seconds_total": round(time.process_time() - cpu0, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Think-time figures of ``search_mcr``: ``python -m tenpai.search.mcr.measure``.

Plays seeded one-hand games of a preset (``botzone`` by default) with ``search_mcr`` in one
position (rotating over the games) and ``planner`` in the others, and reports the share of
decisions searched, the share where the search left the planner's choice, and the CPU time per
searched decision (median, 90th and 99th percentile) from the agent's own log (counted as
:func:`tenpai.search.measure.searched_figures` counts them for the Riichi searches), beside the CPU
time of a playout of each policy on worlds of those games: the policies take turns on each
world (interleaved, so a change in the machine's load hits them alike), and the median and the
mean per playout are reported; the compiled policies join them where the compiled core is
built and the preset is ``botzone``.  Settings come from ``$TENPAI_SEARCH_MCR_*`` as in the arena.
With ``WORLDS_MODE=weighted`` or ``speed`` it also reports the weighted pools' effective size
(Kish's, median and 10th / 90th percentile over the searched decisions): how many of the
``POOL`` × ``WORLDS`` draws the weights leave in play; with ``history``, the mean over a
world's opponents of how many of the ``POOL`` hands tried for each the weights leave in play,
per played world.

With a compiled ``POLICY`` it also reports how the candidates' playouts started (on a world drawn
into the core's state, or on a copied round: a call) and, on those same positions, the CPU cost
of a world both ways — the agent's :meth:`~tenpai.search.mcr.agent.MCRSearchAgent.values` with
worlds drawn into the core's state and with every world a copy of the round, taking turns per
position at the settings' world count (the planner's top candidates; about 32 of the search seat's
discard decisions spread over the games; median and mean per world).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from tenpai.argtypes import non_negative_int
from tenpai.search.measure import searched_figures

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    from tenpai.agents.planner import PlannerAgent
    from tenpai.engine.snapshot import clone
    from tenpai.rules.mcr.flow.round import MCRRound
    from tenpai.rules.mcr.flow.rules import PRESETS
    from tenpai.rules.mcr.game import MCRGame
    from tenpai.search.mcr import compiled
    from tenpai.search.mcr.agent import make_search_mcr_agent
    from tenpai.search.mcr.playout import COMPILED_MCR_POLICIES, MCR_POLICIES, MCRPlayout
    from tenpai.search.mcr.playout_backends import make_playout
    from tenpai.search.mcr.settings import MCRSearchSettings
    from tenpai.search.mcr.worlds import MCRWorldSampler

    ap = argparse.ArgumentParser(prog="python -m tenpai.search.mcr.measure",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=non_negative_int, default=4,
                    help="one-hand games played (0: none, the figures' names with zeros; "
                    "default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the agents and the games (default %(default)s)")
    ap.add_argument("--preset", default="botzone", choices=sorted(PRESETS),
                    help="MCR preset (default %(default)s)")
    args = ap.parse_args(argv)
    rules = PRESETS[args.preset]
    log = []
    cpu0 = time.process_time()
    identity = ""
    tables: list[tuple[MCRRound, int]] = []
    hands = 0
    routes = [0, 0]  # candidate playouts on exported worlds, on copied rounds (c:greedy)
    positions: list[tuple[MCRRound, int]] = []  # the search seat's tables, for world costs
    pools: list[float] = []  # effective sizes of the weighted pools (WORLDS_MODE not uniform)
    for g in range(args.games):
        search = make_search_mcr_agent(args.seed + g)
        identity = search.identity
        seat = g % 4
        planner = PlannerAgent(args.seed + g)
        game = MCRGame(rules, seed=args.seed * 1000 + g)
        while not game.done:
            pending = game.pending()
            if game.round is not None and any(d.seat == seat and len(d.legal) > 3
                                              for d in pending):
                if len(tables) < 2 * (g + 1):
                    tables.append((MCRWorldSampler().sample(game.round, seat, g).round, seat))
                positions.append((clone(game.round), seat))
            game.step({d.seat: (search if d.seat == seat else planner).act(
                d.observation, d.legal) for d in pending})
        hands += len(game.results)
        log += search.log
        pools += search.effective_sizes
        routes[0] += getattr(search.playout, "exported", 0)
        routes[1] += getattr(search.playout, "copied", 0)
    total = time.process_time() - cpu0
    playouts: dict[str, Any] = {name: MCRPlayout(name) for name in MCR_POLICIES}
    if compiled.available() and rules.per_seat_walls and not rules.flowers:
        for name in COMPILED_MCR_POLICIES:
            playouts[name] = make_playout(name)
    spent: dict[str, list[float]] = {name: [] for name in playouts}
    for world, seat in tables:
        d = next(d for d in world.pending() if d.seat == seat)
        for rep in range(5):
            for name, po in playouts.items():
                t0 = time.process_time()
                po.play_out(world, {seat: d.legal[-1]}, rep)
                spent[name].append(1000 * (time.process_time() - t0))
    playout_ms = {name: round(float(np.mean(v)), 3) if v else 0.0 for name, v in spent.items()}
    playout_median_ms = {name: round(float(np.median(v)), 3) if v else 0.0
                         for name, v in spent.items()}
    extra: dict[str, Any] = {}
    settings = MCRSearchSettings.from_env()  # what every game's agent was made with
    if settings.policy in COMPILED_MCR_POLICIES:
        extra["candidate_playouts_exported_copied"] = routes
        step = max(1, len(positions) // 32)  # about 32 positions spread over the hands
        extra["world_cpu_ms_exported_copied"] = _world_costs(positions[::step], settings)
    if settings.worlds_mode != "uniform":
        extra["effective_pool_median_p10_p90"] = (
            [round(float(np.percentile(pools, q)), 2) for q in (50, 10, 90)] if pools else [])
    searched = [s for s in log if s.searched]
    out = {
        "games": args.games,
        "hands": hands,
        "seed": args.seed,
        "preset": args.preset,
        "agent": identity,
        **searched_figures(log),
        "worlds_median": float(np.median([s.worlds for s in searched])) if searched else 0.0,
        "worlds_p10_p90": ([float(np.percentile([s.worlds for s in searched], q))
                            for q in (10, 90)] if searched else []),
        "cpu_seconds_games": round(total, 1),
        "playout_cpu_ms": playout_ms,
        "playout_cpu_ms_median": playout_median_ms,
        "playouts_timed": len(next(iter(spent.values()), [])),
        **extra,
    }
    print(json.dumps(out))


def _world_costs(tables: list[tuple[Any, int]], settings: Any) -> dict[str, Any]:
    """CPU ms per world of a searched decision with worlds drawn into the compiled core's state
    and with copied rounds, taking turns per position (module docstring)."""
    from dataclasses import replace

    from tenpai.agents.planner import PlannerAgent
    from tenpai.search.mcr.agent import MCRSearchAgent

    capped = replace(settings, budget_ms=1e9)  # the world count binds: both play every world
    spent: dict[str, list[float]] = {"exported": [], "copied": []}
    agents = {way: MCRSearchAgent(capped, seed=0, exported_worlds=way == "exported")
              for way in spent}
    planner = PlannerAgent(0)
    for table, seat in tables:
        d = next(d for d in table.pending() if d.seat == seat)
        _choice, ranked = planner.ranking(d.observation, d.legal)
        cands = [e for e, _v in ranked[: settings.top_k]]
        if len(cands) < 2:
            continue
        for way, agent in agents.items():
            t0 = time.process_time()
            n = len(agent.values(table, seat, cands, d.legal))
            spent[way].append(1000 * (time.process_time() - t0) / n)
    return {way: {"median": round(float(np.median(v)), 3) if v else 0.0,
                  "mean": round(float(np.mean(v)), 3) if v else 0.0, "positions": len(v)}
            for way, v in spent.items()}


if __name__ == "__main__":
    main()

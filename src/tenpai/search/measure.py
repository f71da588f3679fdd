"""Think-time figures of the ``search`` agent: ``python -m tenpai.search.measure``.

Plays seeded tonpuu games with ``search`` in one seat (rotating over the games) and ``pg`` in
the others (four seats, or three with ``--preset tenhou_sanma``), and reports the share of
decisions searched and the CPU time per searched decision (median, 90th and 99th percentile),
from the agent's own log, and how many offers to call it met, searched and answered otherwise
than the prior.  Settings come from ``$TENPAI_SEARCH_*`` as in the arena.

The games and the figures every searching agent logs are here, below the searches that use
them (:mod:`tenpai.mcts.pg_measure` for ``mcts_pg``, :mod:`tenpai.search.mcr.measure` for
``search_mcr``), so the three measurements count a decision the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from tenpai.argtypes import non_negative_int
from tenpai.events import Event

__all__ = ["MeasuredAgent", "SearchedDecision", "call_offer_figures", "main",
           "measure_against_pg", "searched_figures"]


class SearchedDecision(Protocol):
    """What a searching agent logs of one decision, as far as the figures need it."""

    @property
    def searched(self) -> bool: ...
    @property
    def changed(self) -> bool: ...
    @property
    def cpu_seconds(self) -> float: ...


class MeasuredAgent(Protocol):
    """A searching agent that keeps a log of its decisions (``search``, ``mcts_pg``)."""

    @property
    def identity(self) -> str: ...
    @property
    def log(self) -> Sequence[Any]: ...
    def act(self, observation: Any, legal: Sequence[Event]) -> Event: ...


def searched_figures(log: Sequence[SearchedDecision]) -> dict[str, object]:
    """The decisions, the share searched, how often the search left the prior's choice, and
    the CPU time per searched decision (median, 90th and 99th percentile; 0 when none was)."""
    searched = [s for s in log if s.searched]
    cpu = np.array([s.cpu_seconds for s in searched]) if searched else np.zeros(1)
    return {
        "decisions": len(log),
        "searched": len(searched),
        "searched_share": round(len(searched) / max(1, len(log)), 3),
        "changed_share_of_searched": round(sum(s.changed for s in searched)
                                           / max(1, len(searched)), 3),
        "cpu_per_searched_median_s": round(float(np.median(cpu)), 3),
        "cpu_per_searched_p90_s": round(float(np.percentile(cpu, 90)), 3),
        "cpu_per_searched_p99_s": round(float(np.percentile(cpu, 99)), 3),
    }


def measure_against_pg(
    prog: str,
    make_agent: Callable[[int], MeasuredAgent],
    extra: Callable[[list[Any]], dict[str, object]],
    argv: list[str] | None = None,
) -> None:
    """Play ``--games`` seeded tonpuu games of ``--preset`` (Tenhou's four-player rules by
    default) with ``make_agent(seed + game)`` in seat ``game % players`` and ``pg`` in the
    others, and print one JSON line: the run, the agent's
    identity, :func:`searched_figures` of its log, ``extra`` of its searched decisions (the
    agent's own figures) and the run's CPU time."""
    from tenpai.agents.pg import PGAgent
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import PRESETS

    ap = argparse.ArgumentParser(
        prog=prog, description="Think time and searched decisions of one agent in seeded tonpuu "
        "games against pg (one JSON line)")
    ap.add_argument("--games", type=non_negative_int, default=2,
                    help="tonpuu games, the measured agent in a rotating seat (0: none, the "
                    "figures' names with zeros; default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the agents and the games (default %(default)s)")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="tenhou",
                    help="Riichi preset (tenhou_sanma: three seats)")
    args = ap.parse_args(argv)
    rules = dataclasses.replace(PRESETS[args.preset], length="tonpuu")
    pg = PGAgent()
    log: list[Any] = []
    cpu0 = time.process_time()
    identity = ""
    for g in range(args.games):
        agent = make_agent(args.seed + g)
        identity = agent.identity
        seat = g % rules.players
        game = RiichiGame(rules, seed=args.seed * 1000 + g)
        while not game.done:
            game.step({d.seat: (agent if d.seat == seat else pg).act(d.observation, d.legal)
                       for d in game.pending()})
        log += agent.log
    out = {
        "games": args.games,
        "seed": args.seed,
        "preset": args.preset,
        "agent": identity,
        **searched_figures(log),
        **extra([s for s in log if s.searched]),
        "cpu_seconds_total": round(time.process_time() - cpu0, 1),
    }
    print(json.dumps(out))


def _search_figures(searched: list[Any]) -> dict[str, object]:
    """``search``'s own figures: worlds played, the share of searched decisions valued by the
    one-player leaf (TENPAI_SEARCH_LEAF: where each leaf is used) and, for weighted worlds
    (TENPAI_SEARCH_WORLDS_MODE=weighted), the pool's sampling and weighting per searched
    decision and the effective number of worlds of its weights."""
    return {
        "worlds_median": float(np.median([s.worlds for s in searched])) if searched else 0.0,
        "solo_leaf_share_of_searched": round(sum(s.leaf == "solo" for s in searched)
                                             / max(1, len(searched)), 3),
        "weigh_cpu_median_ms": round(1000 * float(np.median(
            [s.weigh_seconds for s in searched])), 1) if searched else 0.0,
        "effective_worlds_median": round(float(np.median(
            [s.effective_worlds for s in searched])), 2) if searched else 0.0,
    }


def call_offer_figures(log: Sequence[Any]) -> dict[str, object]:
    """The offers to call (pon, chi, open kan) among ``search``'s decisions, how many were
    searched, and how many of those the search answered otherwise than the prior — the gate
    that ``TENPAI_SEARCH_CALL_OFFERS`` opens."""
    offers = [s for s in log if s.call_offer]
    searched = [s for s in offers if s.searched]
    return {
        "call_offers": len(offers),
        "call_offers_searched": len(searched),
        "call_offers_changed": sum(s.changed for s in searched),
    }


def main(argv: list[str] | None = None) -> None:
    from tenpai.search.agent import SearchAgent, make_search_agent

    agents: list[SearchAgent] = []

    def make(seed: int) -> SearchAgent:
        agents.append(make_search_agent(seed))
        return agents[-1]

    def extra(searched: list[Any]) -> dict[str, object]:
        return {**_search_figures(searched),
                **call_offer_figures([s for a in agents for s in a.log])}

    measure_against_pg("python -m tenpai.search.measure", make, extra, argv)


if __name__ == "__main__":
    main()

"""Seeded games for the environment tests: every decision's legal events, played by agents."""

from __future__ import annotations

from collections.abc import Iterator

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.engine.flow import Decision


def decisions(
    rules: str, seed: int, agent: str, options: dict[str, str] | None = None
) -> Iterator[Decision]:
    """Every decision of one seeded game in which ``agent`` plays all four seats."""
    game = make_game(rules, seed, ["a", "b", "c", "d"], options or {})
    agents = [make_agent(agent, seed * 4 + i) for i in range(4)]
    while not game.done:
        pending = list(game.pending())
        yield from pending
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})

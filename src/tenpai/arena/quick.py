"""A small in-process match with seat rotation, for the demo and quick checks.

Each group of four games plays the same walls (the same seed) with the agents rotated one seat
each time, so no agent profits from a lucky seat or deal; the full arena generalises this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tenpai.agents import make_agent
from tenpai.engine.runner import play
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

__all__ = ["AgentTally", "run_quick_match"]


@dataclass(slots=True)
class AgentTally:
    """Running totals for one agent name."""

    games: int = 0
    rank_sum: int = 0
    points_sum: int = 0
    ranks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0

    def row(self, name: str) -> list[str]:
        g = max(self.games, 1)
        h = max(self.hands, 1)
        return [
            name,
            str(self.games),
            f"{self.rank_sum / g:.2f}",
            f"{self.points_sum / g:,.0f}",
            " / ".join(str(r) for r in self.ranks),
            f"{self.wins / h:.1%}",
            f"{self.deal_ins / h:.1%}",
            f"{self.riichi / h:.1%}",
        ]


def _ranks(scores: Sequence[int]) -> list[int]:
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    ranks = [0] * 4
    for r, s in enumerate(order):
        ranks[s] = r + 1
    return ranks


def run_quick_match(
    agent_names: Sequence[str],
    *,
    games: int,
    seed: int,
    length: str = "tonpuu",
    console: Console | None = None,
) -> dict[str, AgentTally]:
    """Play ``games`` games (seats rotated each game, walls repeated per rotation group)."""
    console = console or Console()
    rules = TENHOU.with_(length=length)
    tallies: dict[str, AgentTally] = {n: AgentTally() for n in dict.fromkeys(agent_names)}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playing", total=games)
        for g in range(games):
            shift = g % 4
            wall_seed = seed + g // 4
            seats = [agent_names[(i - shift) % 4] for i in range(4)]
            agents = [make_agent(n, seed * 7919 + g * 4 + i) for i, n in enumerate(seats)]
            game = RiichiGame(rules, seed=wall_seed, names=seats)
            play(game, agents)
            for s, r in enumerate(_ranks(game.final_scores)):
                t = tallies[seats[s]]
                t.games += 1
                t.rank_sum += r
                t.ranks[r - 1] += 1
                t.points_sum += game.final_scores[s]
            hands = sum(1 for e in game.events if e.type == "start_kyoku")
            for s in range(4):
                tallies[seats[s]].hands += hands
            for e in game.events:
                if e.type == "hora" and e.actor is not None:
                    tallies[seats[e.actor]].wins += 1
                    if e.target is not None and e.target != e.actor:
                        tallies[seats[e.target]].deal_ins += 1
                elif e.type == "reach_accepted" and e.actor is not None:
                    tallies[seats[e.actor]].riichi += 1
            progress.advance(task)
    table = Table(title=f"{games} {length} games, seed {seed}, seats rotated")
    for col in (
        "agent",
        "seats played",
        "avg rank",
        "avg points",
        "1st/2nd/3rd/4th",
        "win",
        "deal-in",
        "riichi",
    ):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for name, t in tallies.items():
        table.add_row(*t.row(name))
    console.print(table)
    console.print("Win, deal-in and riichi rates are per hand played.")
    return tallies

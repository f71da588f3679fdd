"""Agents and comparisons shared by the self-play tests (module level, so workers can pickle)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai.agents import make_agent
from tenpai.engine.flow import GameFlow
from tenpai.events import Event
from tenpai.selfplay import PlayedGame


class CountingAgent:
    """Efficiency play that numbers its own decisions and offers them as ``info``.

    The runner must store exactly these numbers, 0, 1, 2, … per seat and game, in ``Step.info``:
    a missing or reordered step breaks the sequence.
    """

    def __init__(self, seed: int) -> None:
        self.inner = make_agent("efficiency", seed)
        self.name = "counting"
        self.asked = 0

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [a for a, _ in self.act_batch_with_info(requests)]

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, tuple[int, int]]]:
        out = []
        for obs, legal in requests:
            out.append((self.inner.act(obs, legal), (self.asked, len(legal))))
            self.asked += 1
        return out


def counting_factory(seed: int) -> CountingAgent:
    return CountingAgent(seed)


def fingerprint(games: Sequence[PlayedGame]) -> list[tuple[Any, ...]]:
    """What must not change between runs of one spec: results, events and decisions."""
    return [
        (
            g.index,
            g.seed,
            g.names,
            g.final_scores,
            g.ranks,
            g.events,
            g.decisions,
            tuple((s.seat, s.legal, s.action, s.event_index, s.turn) for s in g.steps),
        )
        for g in games
    ]


def riichi_checker(game: GameFlow) -> None:
    from tenpai.rules.riichi.flow.invariants import check_round
    from tenpai.rules.riichi.game import RiichiGame

    assert isinstance(game, RiichiGame)
    if game.round is not None and not game.done:
        check_round(game.round, game.tileset, 100_000)

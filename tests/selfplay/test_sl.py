"""The sl network agent in self-play: one batched agent for two tables, incremental tracking."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

from tenpai.agents import make_agent
from tenpai.agents.sl import SLAgent, TrackerStreams, rebuilt_tracker
from tenpai.engine.agent import Agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU
from tenpai.selfplay import SeatSpec, SelfPlaySpec, VectorRunner, run_selfplay

from .helpers import fingerprint


def test_sl_on_two_tables_equals_one_table_and_the_rebuilding_agent() -> None:
    spec = SelfPlaySpec.series(
        "riichi", [SeatSpec("sl", shared=True)] * 4, first_seed=2, games=2, options={}
    )
    runner = VectorRunner(spec, tables=2)
    batched = runner.run()
    assert runner.calls < runner.answered  # several tables per network call
    # The first game again, one table, with the agent that rebuilds its tracker every decision.
    rebuilding = SLAgent(incremental=False)
    plain = SelfPlaySpec("riichi", (SeatSpec(rebuilding),) * 4, spec.seeds[:1], spec.options)
    assert fingerprint(run_selfplay(plain, tables=1)) == fingerprint(batched[:1])


def test_incremental_tracker_equals_a_rebuild_at_every_decision() -> None:
    streams = TrackerStreams(limit=2)  # small: evictions and re-creations are exercised too
    checked = 0

    class Checking:
        name = "checking"

        def __init__(self, inner: Agent) -> None:
            self.inner = inner

        def act(self, obs: RiichiObservation, legal: Sequence[Event]) -> Event:
            nonlocal checked
            fresh = rebuilt_tracker(obs)
            kept = streams.tracker(obs)
            assert kept.view(obs.seat) == fresh.view(obs.seat)
            checked += 1
            return self.inner.act(obs, legal)

        def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
            return [self.act(o, legal) for o, legal in requests]

    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=4)
    play(game, [Checking(make_agent("efficiency", s)) for s in range(4)])
    assert checked > 100
    assert len(streams) <= 2


def test_a_pickled_agent_starts_with_no_streams() -> None:
    streams = TrackerStreams()
    game = RiichiGame(TENHOU, seed=1)
    streams.tracker(game.pending()[0].observation)
    assert len(streams) == 1
    assert len(pickle.loads(pickle.dumps(streams))) == 0

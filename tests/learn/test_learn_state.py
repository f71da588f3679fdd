"""The event tracker sees the same table as the engine's own observation, at every decision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.engine.agent import Agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.learn.state import RoundTracker, StateError
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU


class _Checking:
    """Wraps an agent and compares a tracker fed with the masked events to the observation."""

    name = "checking"

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.checked = 0

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        tracker = RoundTracker(watch=(obs.seat,))
        for e in obs.events:
            tracker.apply(e)
        view = tracker.view(obs.seat)
        assert list(view.hand) == obs.counts
        assert view.wall_remaining == obs.wall_remaining
        assert view.scores == tuple(obs.scores[(obs.seat + i) % 4] for i in range(4))
        # The tracker marks riichi at the declaration (the engine at its acceptance).
        declared = {e.actor for e in obs.events if e.type == "reach"}
        assert all(s in declared for s in range(4) if obs.riichi[s])
        assert view.riichi == tuple((obs.seat + i) % 4 in declared for i in range(4))
        reds = [sum(1 for t in obs.hand if t == 34 + i) for i in range(3)]
        assert list(view.red) == reds
        for rel in range(4):
            seat = (obs.seat + rel) % 4
            melds = [0] * 34
            for m in obs.melds[seat]:
                for t in m.tiles:
                    melds[T.kind_of(t)] += 1
            assert list(view.melds[rel]) == melds
        # A river without the called tiles plus all meld tiles never exceeds four copies.
        total = [sum(v[k] for v in (*view.rivers, *view.melds)) + view.hand[k] for k in range(34)]
        assert max(total) <= 4
        dora = [0] * 34
        for t in obs.dora_markers:
            dora[T.kind_of(t)] += 1
        assert list(view.dora) == dora
        assert 27 + view.seat_wind == obs.seat_wind and view.bakaze == obs.bakaze
        self.checked += 1
        return self.inner.act(obs, legal)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


@pytest.mark.parametrize("seed", [3, 11])
def test_tracker_matches_observation_in_seeded_games(seed: int) -> None:
    agents = [_Checking(make_agent("efficiency", seed * 4 + i)) for i in range(4)]
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    play(game, agents)
    assert sum(a.checked for a in agents) > 200


def test_history_keeps_the_last_six_turns_most_recent_first() -> None:
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=7)
    agents = [make_agent("efficiency", i) for i in range(4)]
    while game.round is not None and sum(e.type == "dahai" for e in game.round.events) < 40:
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
    assert game.round is not None
    tracker = RoundTracker()
    for e in game.round.events:
        tracker.apply(e)
    view = tracker.view(0)
    assert len(view.history) == 6
    walls = [h.wall_remaining for h in view.history]
    assert walls == sorted(walls)  # most recent (fewest tiles left) first
    assert all(h.history == () for h in view.history)


def test_unknown_tile_raises_a_state_error() -> None:
    tracker = RoundTracker()
    start = Event(
        "start_kyoku",
        bakaze=0,
        kyoku=0,
        honba=0,
        kyotaku=0,
        oya=0,
        scores=(25000,) * 4,
        dora_marker=0,
        tehais=tuple(tuple(range(13)) for _ in range(4)),
    )
    tracker.apply(start)
    with pytest.raises(StateError, match="does not hold"):
        tracker.apply(Event("dahai", actor=1, pai=33, tsumogiri=False))

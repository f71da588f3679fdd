"""Whole games between random and efficiency agents, with invariants checked after every step."""

from __future__ import annotations

import pytest

from tenpai.agents import make_agent
from tenpai.engine import GameFlow, RandomAgent, play
from tenpai.events import Event
from tenpai.rules.riichi.flow.invariants import check_round
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU


def _checker(game: GameFlow) -> None:
    assert isinstance(game, RiichiGame)
    if game.round is not None:
        check_round(game.round, game.tileset, 100_000)


@pytest.mark.parametrize("seed", range(6))
def test_random_hanchan_keeps_invariants(seed: int) -> None:
    game = RiichiGame(TENHOU, seed=seed)
    play(game, [RandomAgent(seed * 10 + i) for i in range(4)], check=lambda g: _checker(g))
    assert game.done
    assert sum(game.final_scores) == 100_000


@pytest.mark.parametrize("seed", range(6))
def test_efficiency_tonpuu_keeps_invariants(seed: int) -> None:
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    agents = [make_agent("efficiency", seed * 10 + i) for i in range(4)]
    play(game, agents, check=lambda g: _checker(g))
    assert sum(game.final_scores) == 100_000
    wins = [e for e in game.events if e.type == "hora"]
    for w in wins:
        assert w.han is not None and w.han >= 1 and sum(w.deltas) >= 0


def _events(seed: int) -> list[Event]:
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    play(game, [make_agent("efficiency", i) for i in range(4)])
    return game.events


def test_same_seed_same_game() -> None:
    assert _events(42) == _events(42)
    assert _events(42) != _events(43)


def test_same_seed_same_walls_whatever_the_agents() -> None:
    """Duplicate deals: the first hand's deal depends on the seed only."""
    a = RiichiGame(TENHOU, seed=7)
    b = RiichiGame(TENHOU, seed=7)
    play(b, [RandomAgent(i) for i in range(4)])
    assert a.events[1] == b.events[1]


def test_observation_hides_other_hands() -> None:
    game = RiichiGame(TENHOU, seed=3)
    (d,) = game.pending()
    obs = d.observation
    start = obs.events[0]
    assert start.type == "start_kyoku"
    assert sum(h is not None for h in start.tehais) == 1
    assert start.tehais[obs.seat] is not None
    assert not hasattr(obs, "hands") and not hasattr(obs, "wall")


def test_invariant_checker_catches_a_lost_tile_and_points() -> None:
    from tenpai.engine.invariants import InvariantError

    game = RiichiGame(TENHOU, seed=5)
    rnd = game.round
    assert rnd is not None
    check_round(rnd, game.tileset, 100_000)
    rnd.hands[1].pop()
    with pytest.raises(InvariantError, match="tiles not conserved"):
        check_round(rnd, game.tileset, 100_000)
    rnd.hands[1].append(rnd.wall.live[-1])
    rnd.wall.live[-1] = -1
    rnd.scores[0] += 100
    with pytest.raises(InvariantError):
        check_round(rnd, game.tileset, 100_000)

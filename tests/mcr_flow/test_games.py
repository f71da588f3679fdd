"""Whole MCR games between generic agents, invariants checked after every step (seeded)."""

from __future__ import annotations

import pytest

from tenpai.agents import make_agent
from tenpai.engine import RandomAgent, play
from tenpai.engine.flow import GameFlow
from tenpai.events import Event
from tenpai.rules.mcr.flow import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.flow.invariants import check_round
from tenpai.rules.mcr.flow.seating import POSITION_OF, dealer_position, players_at
from tenpai.rules.mcr.game import MCRGame


def _check(game: GameFlow) -> None:
    assert isinstance(game, MCRGame)
    if game.round is not None:
        check_round(game.round, game.tileset, 0)
    assert sum(game.scores) == 0


def _wins_are_legal(events: list[Event], rules: MCRRules) -> None:
    for e in events:
        if e.type == "hora":
            flowers = dict(e.yaku).get("花牌", 0)
            assert e.han is not None and e.han - flowers >= rules.min_fan
            assert sum(e.deltas) == 0


@pytest.mark.parametrize("seed", range(3))
def test_random_official_game_keeps_invariants(seed: int) -> None:
    game = MCRGame(MCR_OFFICIAL, seed=seed)
    play(game, [RandomAgent(seed * 10 + i) for i in range(4)], check=_check)
    assert game.done and len(game.results) == 16 and sum(game.final_scores) == 0
    assert sum(e.type == "start_kyoku" for e in game.events) == 16
    _wins_are_legal(game.events, MCR_OFFICIAL)


def test_random_official_games_see_flowers_and_kongs() -> None:
    seen: set[str] = set()
    for seed in range(3):
        game = MCRGame(MCR_OFFICIAL, seed=seed)
        play(game, [RandomAgent(seed * 10 + i) for i in range(4)])
        seen |= {e.type for e in game.events}
    assert {"flower", "pon", "chi", "ryukyoku"} <= seen
    assert seen & {"ankan", "kakan", "daiminkan"}


@pytest.mark.parametrize("seed", range(20))
def test_random_botzone_hand_keeps_invariants(seed: int) -> None:
    game = MCRGame(BOTZONE, seed=seed)
    play(game, [RandomAgent(seed * 10 + i) for i in range(4)], check=_check)
    assert game.done and len(game.results) == 1
    assert not any(e.type == "flower" for e in game.events)


@pytest.mark.parametrize("rules", [MCR_OFFICIAL, BOTZONE], ids=lambda r: r.name)
def test_efficiency_agents_play_and_win(rules: MCRRules) -> None:
    wins = 0
    for seed in range(1 if rules.full_game else 8):
        game = MCRGame(rules, seed=seed)
        play(game, [make_agent("efficiency", seed * 10 + i) for i in range(4)], check=_check)
        _wins_are_legal(game.events, rules)
        wins += sum(r.kind == "hora" for r in game.results)
    assert wins > 0


def test_same_seed_same_game() -> None:
    def events(seed: int) -> list[Event]:
        game = MCRGame(BOTZONE, seed=seed)
        play(game, [RandomAgent(i) for i in range(4)])
        return game.events

    assert events(5) == events(5)
    assert events(5) != events(6)


def test_botzone_walls_follow_the_walltiles_layout() -> None:
    game = MCRGame(BOTZONE, seed=11)
    assert game.round is not None
    wall = game.round.wall
    assert [wall.remaining_for(s) for s in range(4)] == [20, 21, 21, 21]  # the dealer drew


def test_seat_changes_put_everyone_everywhere_once() -> None:
    for player in range(4):
        assert sorted(POSITION_OF[r][player] for r in range(4)) == [0, 1, 2, 3]
    for r in range(4):
        dealers = [players_at(r)[dealer_position(r, k)] for k in range(4)]
        assert sorted(dealers) == [0, 1, 2, 3] and dealers[0] == 0


def test_pending_names_players_when_seats_change() -> None:
    game = MCRGame(MCR_OFFICIAL, seed=2)
    agents = [RandomAgent(i) for i in range(4)]
    while game.hand_index < 4:  # play the East round
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
    assert game.seating == players_at(1) == (1, 0, 3, 2)
    assert game.round is not None and game.round.dealer == 1  # player 0 deals first again
    (d,) = game.pending()
    assert d.seat == 0 and d.observation.seat == 1 and d.legal[-1].actor == 1
    start = next(e for e in reversed(game.events) if e.type == "start_kyoku")
    assert start.meta == {"seating": [1, 0, 3, 2]} and start.bakaze == 1


def test_observation_hides_other_hands_and_concealed_kongs() -> None:
    game = MCRGame(MCR_OFFICIAL, seed=3)
    (d,) = game.pending()
    obs = d.observation
    start = obs.events[0]
    assert sum(h is not None for h in start.tehais) == 1 and start.tehais[obs.seat] is not None
    assert not hasattr(obs, "hands") and not hasattr(obs, "wall")
    assert obs.seat_wind == 27 and len(obs.visible_counts()) == 34 and obs.scores == (0,) * 4

"""The PettingZoo AEC environments: API and seed tests, full games, claim windows, rewards."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tenpai.env import mcr_v0, riichi_v0, suits108_v0
from tenpai.env.actions import IllegalActionIdError
from tenpai.env.aec import MahjongAEC, placements, rank_rewards
from tenpai.tiles import to_compact, to_mjai

MODULES = {"riichi": riichi_v0, "mcr": mcr_v0, "suits108": suits108_v0}
SHAPES = {
    "riichi": ((87, 34), 13, 299),
    "mcr": ((19, 34), 15, 270),
    "suits108": ((17, 27), 10, 229),
}


@pytest.mark.parametrize("rules", sorted(MODULES))
def test_pettingzoo_api_and_seed_tests(rules: str) -> None:
    module = MODULES[rules]
    with warnings.catch_warnings():
        # PettingZoo warns that a Dict observation is not a Box; the Dict is the design.
        warnings.simplefilter("ignore")
        api_test(module.env(), num_cycles=60)
        seed_test(module.env, num_cycles=40)


def play(
    module: ModuleType, seed: int, *, check_others: bool = False, **kwargs: Any
) -> tuple[MahjongAEC, list[int], int]:
    """One whole game through the AEC loop with uniformly random legal ids.  Returns the env,
    the ids played and the number of claim windows where several players answered."""
    env = module.raw_env(**kwargs)
    env.reset(seed=seed)
    space = env.observation_space("player_0")
    rng = np.random.default_rng(seed)
    played: list[int] = []
    shared_windows = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert space.contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert len(env.legal_events(agent)) == int(mask.sum()) > 0
        # Players the engine is not waiting for see an all-zero mask; the others of a claim
        # window see their own choices while they wait for their turn to answer.
        waiting = {env.possible_agents[p] for p in env._queue}
        for other in env.agents if check_others else ():
            other_mask = env.observe(other)["action_mask"]
            assert other_mask.any() == (other in waiting)
        if len(env._queue) > 1 and env._queue[0] == env._index[agent] and not env._answers:
            shared_windows += 1
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        played.append(action)
    return env, played, shared_windows


@pytest.mark.parametrize("rules", sorted(MODULES))
def test_a_full_random_game_respects_masks_and_ends(rules: str) -> None:
    module = MODULES[rules]
    env, played, shared = play(module, seed=5, check_others=True)
    game = env.adapter.game
    assert game is not None and game.done
    assert env.agents == []
    assert len(played) > 100
    if rules != "suits108":  # random suits108 games are short; the other two always share
        assert shared > 0
    plane_shape, table_len, n = SHAPES[rules]
    assert env.adapter.plane_shape == plane_shape
    assert len(env.adapter.table_fields) == table_len
    space = env.action_space("player_0")
    assert isinstance(space, gymnasium.spaces.Discrete)
    assert space.n == n


def test_same_seed_same_game_and_rewards() -> None:
    env_a, played_a, _ = play(riichi_v0, seed=8)
    env_b, played_b, _ = play(riichi_v0, seed=8)
    assert played_a == played_b
    assert env_a.adapter.game is not None and env_b.adapter.game is not None
    assert env_a.adapter.game.events == env_b.adapter.game.events
    _, played_c, _ = play(riichi_v0, seed=9)
    assert played_c != played_a


def test_rewards_at_game_end() -> None:
    env = riichi_v0.raw_env(reward="score")
    env.reset(seed=2)
    rewards = {a: 0.0 for a in env.possible_agents}
    infos: dict[str, dict[str, Any]] = {}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, _, info = env.last()
        rewards[agent] += reward
        if terminated:
            infos[agent] = info
            env.step(None)
            continue
        assert reward == 0.0  # nothing before the end of the game
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.adapter.game
    assert game is not None
    final = game.final_scores
    deltas = [f - 25000 for f in final]
    assert [rewards[a] for a in env.possible_agents] == deltas
    assert [infos[a]["score_delta"] for a in env.possible_agents] == deltas
    assert [infos[a]["final_scores"] for a in env.possible_agents] == [final] * 4
    assert sum(infos[a]["rank_reward"] for a in env.possible_agents) == pytest.approx(0.0)


def test_placements_share_ties() -> None:
    assert placements([300, 100, 100, 0]) == [1.0, 2.5, 2.5, 4.0]
    points = (1.0, 1 / 3, -1 / 3, -1.0)
    assert rank_rewards([300, 100, 100, 0], points) == pytest.approx([1.0, 0.0, 0.0, -1.0])
    assert rank_rewards([5, 5, 5, 5], points) == pytest.approx([0.0] * 4)


def test_illegal_id_raises_and_leaves_the_game_alone() -> None:
    env = riichi_v0.raw_env()
    env.reset(seed=1)
    before = len(env.adapter.game.events)  # type: ignore[union-attr]
    with pytest.raises(IllegalActionIdError, match="not legal now in riichi_v0; legal:"):
        env.step(298)  # a pass, on one's own turn
    assert len(env.adapter.game.events) == before  # type: ignore[union-attr]
    assert env.agent_selection == "player_0"


def test_options_reach_the_game() -> None:
    env = riichi_v0.raw_env(length="hanchan", preset="mahjong_soul")
    env.reset(seed=0)
    rules = env.adapter.game.rules  # type: ignore[union-attr]
    assert rules.length == "hanchan"
    with pytest.raises(ValueError, match="length"):
        riichi_v0.raw_env(length="forever")


@pytest.mark.parametrize("rules", sorted(MODULES))
def test_ansi_render_shows_the_table(rules: str) -> None:
    env = MODULES[rules].raw_env(render_mode="ansi")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):  # some discards and calls, so rivers are not empty
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0].startswith(f"{rules}_v0 · ")
    assert "wall" in lines[0]
    for i in range(4):
        assert any(line.strip().startswith(f"player_{i}") for line in lines[1:5])
    acting = env.agent_selection
    assert f"to act: {acting}" in text and "hand " in text and "legal: " in text
    # The acting player's hand is shown, nobody else's: the hand line is the acting seat's.
    view = env.adapter.view(env._index[acting])
    shown = text.split(f"to act: {acting}", 1)[1].split("· hand ", 1)[1].split("\n", 1)[0]
    hand = list(view.hand)
    expected = [to_compact(hand), f"{to_compact(hand[:-1])} + {to_mjai(hand[-1])} (drawn)"]
    assert shown in expected
    legal_ids = np.flatnonzero(env.observe(acting)["action_mask"])
    for action in legal_ids:
        assert f"{action} {env.adapter.actions.describe(int(action))}" in text
    if rules == "riichi":
        assert "dora indicators" in lines[0] and "honba" in lines[0]
        assert any("river: " in line and "river: -" not in line for line in lines[1:5])

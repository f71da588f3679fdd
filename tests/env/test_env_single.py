"""The single-seat Gymnasium wrapper: check_env, opponents, illegal ids, determinism."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tenpai.env.actions import IllegalActionIdError
from tenpai.env.single import SingleSeatEnv


@pytest.mark.parametrize("rules", ["riichi", "mcr", "suits108"])
def test_check_env(rules: str) -> None:
    env = SingleSeatEnv(rules, seat=1, opponents="random", illegal_action="fallback")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec to test other render modes"
        check_env(env)


def run(env: SingleSeatEnv, seed: int) -> tuple[list[int], float, dict[str, Any]]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    total = 0.0
    while True:
        assert env.observation_space.contains(obs)
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        total += reward
        assert not truncated
        if terminated:
            return actions, total, info


def test_a_game_against_built_in_agents_is_reproducible() -> None:
    env = SingleSeatEnv("riichi", seat=2, opponents=["efficiency", "defensive", "random"])
    first = run(env, 11)
    again = run(env, 11)
    assert first == again
    actions, total, info = first
    assert len(actions) > 20
    assert total == info["rank_reward"]
    assert sum(info["final_scores"]) == 100_000


def test_illegal_ids_raise_or_fall_back_as_documented() -> None:
    env = SingleSeatEnv("riichi", opponents="random")
    obs, _ = env.reset(seed=3)
    with pytest.raises(IllegalActionIdError, match="action 298 \\(pass\\) is not legal"):
        env.step(298)
    lenient = SingleSeatEnv("riichi", opponents="random", illegal_action="fallback")
    obs, _ = lenient.reset(seed=3)
    tsumogiri = [i for i in np.flatnonzero(obs["action_mask"]) if 37 <= i <= 73]
    assert tsumogiri, "seat 0 decides after its first draw"
    _, reward, _, _, info = lenient.step(298)
    assert info["illegal_action"] == 298 and reward == -1.0
    # The substitute was the tsumogiri discard: the seat's river holds the drawn tile.
    drawn = int(tsumogiri[0]) - 37
    river = lenient.aec.adapter.view(0).rivers[0]
    assert river[0] == drawn


def test_bad_settings_fail_at_construction() -> None:
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        SingleSeatEnv("riichi", opponents="nobody")
    with pytest.raises(ValueError, match="unknown rules"):
        SingleSeatEnv("poker")
    with pytest.raises(ValueError, match="seat must be 0-3"):
        SingleSeatEnv("mcr", seat=4)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make("tenpai/Suits108Single-v0", opponents="random")
    obs, _ = env.reset(seed=0)
    assert obs["observation"]["planes"].shape == (17, 27)
    env.close()

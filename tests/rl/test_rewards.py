"""Returns from finished games: outcomes per hand or per game, and 002's win-distance shaping."""

from __future__ import annotations

import pytest

from tenpai.events import Event
from tenpai.rl.rewards import RewardConfig, hand_deltas, placement_values, returns


def _start(kyoku: int, scores: tuple[int, ...]) -> Event:
    return Event("start_kyoku", bakaze=27, kyoku=kyoku, honba=0, scores=scores)


EVENTS = [
    _start(1, (25000, 25000, 25000, 25000)),
    _start(2, (33000, 17000, 25000, 25000)),
]
FINAL = (33000, 17000, 21000, 29000)
#: Seat 0 in hand 1: shanten after its discards 3, 2, 2, 1; seat 3 in hand 2: 2 then 3.
DECISIONS = [
    (0, (27, 1, 0), 3),
    (0, (27, 1, 0), 2),
    (0, (27, 1, 0), 2),
    (0, (27, 1, 0), 1),
    (3, (27, 2, 0), 2),
    (3, (27, 2, 0), 3),
]


def test_hand_deltas_run_from_one_start_to_the_next_and_to_the_final_scores() -> None:
    d = hand_deltas(EVENTS, FINAL)
    assert d[(27, 1, 0)] == [8000, -8000, 0, 0]
    assert d[(27, 2, 0)] == [0, 0, -4000, 4000]


def test_placement_breaks_ties_by_seat_order() -> None:
    cfg = RewardConfig(outcome="rank")
    assert placement_values((100, 200, 200, 0), cfg) == [-0.4, 1.0, 0.4, -1.0]


def test_hand_outcome_plus_shaping_to_go() -> None:
    cfg = RewardConfig(outcome="hand", points_scale=8000, shaping=0.1)
    got = returns(DECISIONS, EVENTS, FINAL, cfg)
    # Step rewards of seat 0: 0, +0.1, 0, +0.1 -> to go: 0.2, 0.2, 0.1, 0.1; outcome +1.0.
    assert got[:4] == pytest.approx([1.2, 1.2, 1.1, 1.1])
    # Seat 3: step rewards 0, -0.1 -> to go -0.1, -0.1; outcome +0.5.
    assert got[4:] == pytest.approx([0.4, 0.4])


def test_the_shaping_prices_a_fold_so_it_is_not_policy_invariant() -> None:
    # The same hand and outcome, once pushed (shanten 2, 1, 1) and once folded after the first
    # discard (2, 3, 4): the first discard's return differs by shaping * 3 steps, so the
    # shaping changes which later play is best (docs/rl.md, "the win-distance shaping").
    cfg = RewardConfig(outcome="hand", points_scale=8000, shaping=0.1)
    key = (27, 1, 0)
    pushed = returns([(2, key, 2), (2, key, 1), (2, key, 1)], EVENTS, FINAL, cfg)
    folded = returns([(2, key, 2), (2, key, 3), (2, key, 4)], EVENTS, FINAL, cfg)
    assert pushed[0] - folded[0] == pytest.approx(0.3)
    off = RewardConfig(outcome="hand", points_scale=8000, shaping=0.0)
    assert returns([(2, key, 2), (2, key, 1)], EVENTS, FINAL, off) == \
        returns([(2, key, 2), (2, key, 3)], EVENTS, FINAL, off) == [0.0, 0.0]


def test_discount_zero_gives_each_discard_its_own_shanten_step() -> None:
    # The decisions of test_hand_outcome_plus_shaping_to_go, credited per step instead.
    cfg = RewardConfig(outcome="hand", points_scale=8000, shaping=0.1, shaping_discount=0.0)
    got = returns(DECISIONS, EVENTS, FINAL, cfg)
    assert got[:4] == pytest.approx([1.0, 1.1, 1.0, 1.1])
    assert got[4:] == pytest.approx([0.5, 0.4])
    # A discard that breaks the hand costs exactly one step, whatever follows it.
    key = (27, 1, 0)
    recovered = returns([(2, key, 2), (2, key, 3), (2, key, 1)], EVENTS, FINAL, cfg)
    stuck = returns([(2, key, 2), (2, key, 3), (2, key, 4)], EVENTS, FINAL, cfg)
    assert recovered[1] == stuck[1] == pytest.approx(-0.1)
    # Between the two: seat 0's steps 0, +0.1, 0, +0.1 at discount 0.5.
    half = RewardConfig(outcome="hand", points_scale=8000, shaping=0.1, shaping_discount=0.5)
    assert returns(DECISIONS[:4], EVENTS, FINAL, half) == pytest.approx(
        [1.0 + 0.05 + 0.0125, 1.1 + 0.025, 1.05, 1.1])


def test_rank_outcome_is_the_same_for_every_decision_of_a_seat() -> None:
    cfg = RewardConfig(outcome="rank", shaping=0.0)
    got = returns([(1, (27, 1, 0), 2), (1, (27, 2, 0), 1)], EVENTS, FINAL, cfg)
    assert got == [-1.0, -1.0]


def test_bad_reward_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="outcome"):
        RewardConfig(outcome="score")
    with pytest.raises(ValueError, match="points_scale"):
        RewardConfig(points_scale=0)
    with pytest.raises(ValueError, match="shaping_discount"):
        RewardConfig(shaping_discount=1.5)


def test_hand_deltas_follow_players_when_the_full_mcr_game_reseats_them() -> None:
    # Positions 0-3 hold players 2, 3, 0, 1 in the second hand; final scores are by player.
    first = Event("start_kyoku", bakaze=27, kyoku=1, honba=0, scores=(100, 100, 100, 100))
    second = Event("start_kyoku", bakaze=27, kyoku=2, honba=0, scores=(130, 90, 90, 90),
                   meta={"seating": [2, 3, 0, 1]})
    d = hand_deltas([first, second], (90, 90, 106, 114))
    assert d[(27, 1, 0)] == [-10, -10, 30, -10]  # player 2 (position 0 next hand) won 30
    assert d[(27, 2, 0)] == [0, 0, -24, 24]

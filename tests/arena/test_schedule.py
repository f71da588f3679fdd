"""Duplicate deals: rotations share walls, every lineup entry plays every seat once per deal."""

from __future__ import annotations

import pytest

from tenpai.arena.games import ArenaConfigError, make_game, rules_entry
from tenpai.arena.record import final_ranks, play_scheduled
from tenpai.arena.schedule import (
    GameKey,
    agent_seed,
    all_keys,
    deal_seed,
    rounded_games,
    seating,
)


def test_seating_rotates_the_lineup() -> None:
    lineup = ["a", "b", "c", "d"]
    assert seating(lineup, 0) == ["a", "b", "c", "d"]
    assert seating(lineup, 1) == ["d", "a", "b", "c"]
    for entry in range(4):
        seats = {seating(lineup, r).index(lineup[entry]) for r in range(4)}
        assert seats == {0, 1, 2, 3}


def test_keys_and_rounding() -> None:
    assert rounded_games(1) == 4
    assert rounded_games(8) == 8
    assert rounded_games(9) == 12
    assert all_keys(8) == [GameKey(d, r) for d in (0, 1) for r in range(4)]
    with pytest.raises(ValueError, match="multiple of 4"):
        all_keys(6)


def test_seeds_are_shared_by_rotations_and_distinct_otherwise() -> None:
    assert deal_seed(5, 3) == deal_seed(5, 3)
    assert len({deal_seed(5, d) for d in range(100)}) == 100
    assert deal_seed(5, 0) != deal_seed(6, 0)
    seeds = {agent_seed(5, GameKey(d, r), s) for d in range(3) for r in range(4) for s in range(4)}
    assert len(seeds) == 48


def test_rotations_of_a_deal_deal_the_same_tiles_to_the_same_seat() -> None:
    seed = deal_seed(11, 2)
    hands = []
    for rotation in range(4):
        game = make_game("riichi", seed, seating(["x", "y", "z", "w"], rotation), {})
        first = next(e for e in game.events if e.type == "start_kyoku")
        hands.append(first.tehais)
    assert all(h == hands[0] for h in hands)


def test_a_scheduled_game_is_reproducible() -> None:
    lineup = ("efficiency", "random", "random", "random")
    a = play_scheduled("riichi", {"length": "tonpuu", "preset": "tenhou"}, lineup, 3, GameKey(1, 2))
    b = play_scheduled("riichi", {"length": "tonpuu", "preset": "tenhou"}, lineup, 3, GameKey(1, 2))
    assert [s.score for s in a.seats] == [s.score for s in b.seats]
    assert [h.deltas for h in a.hands] == [h.deltas for h in b.hands]
    assert sum(s.score for s in a.seats) == 100_000  # leftover deposits go to the top
    assert a.seats[2].agent == "efficiency"  # rotation 2 moves lineup[0] to seat 2
    ranks = sorted(s.rank for s in a.seats)
    assert ranks == [1, 2, 3, 4]
    assert len(a.hands) == a.seats[0].hands >= 4  # a tonpuu has at least four hands


def test_final_ranks_break_ties_by_seat() -> None:
    assert final_ranks([25_000, 30_000, 25_000, 20_000]) == [2, 1, 3, 4]


def test_rules_registry_rejects_unknown_rules_and_options() -> None:
    with pytest.raises(ArenaConfigError, match="unknown rules 'hk'; the arena knows: mcr, riichi"):
        rules_entry("hk")
    entry = rules_entry("riichi")
    assert entry.options({}) == {"length": "tonpuu", "preset": "tenhou"}
    with pytest.raises(ArenaConfigError, match="length='east'"):
        entry.options({"length": "east"})
    with pytest.raises(ArenaConfigError, match="no option speed"):
        entry.options({"speed": "1"})

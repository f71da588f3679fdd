"""The perfect-information planes (Table 1 + ours) and the feature-access variants."""

from __future__ import annotations

import random

import numpy as np

from tenpai.engine.agent import RandomAgent
from tenpai.mcts.features import PLANES, encode_table, score_interval, transition_planes
from tenpai.rules.suits108 import Suits108Game, make_game
from tenpai.tiles import kind_of


def _midgame(seed: int = 2, steps: int = 30) -> Suits108Game:
    game = make_game(seed, ("a", "b", "c", "d"))
    agents = [RandomAgent(i) for i in range(4)]
    for _ in range(steps):
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    return game


def test_planes_follow_the_table_relative_to_the_decider() -> None:
    game = _midgame()
    rnd = game.round
    assert rnd is not None
    seat = game.pending()[0].seat
    x = encode_table(rnd, seat)
    assert x.shape == (PLANES, 27)
    for r in range(4):
        s = (seat + r) % 4
        counts = np.array(rnd.counts[s][:27])
        assert np.array_equal(x[4 * r : 4 * r + 4].sum(axis=0), counts)
        river = np.bincount([kind_of(t) for t in rnd.rivers[s]], minlength=27)
        assert np.array_equal(x[16 + 4 * r : 20 + 4 * r].sum(axis=0), river)
        assert x[74 + 11 * r + score_interval(rnd.scores[s])].all()
    wall = rnd.wall.undrawn()[:10]
    for j, t in enumerate(wall):
        assert x[64 + j, kind_of(t)] == 1 and x[64 + j].sum() == 1
    assert np.isclose(x[128, 0], rnd.wall.remaining / 56)


def test_feature_access_variants() -> None:
    game = _midgame()
    rnd = game.round
    assert rnd is not None
    seat = game.pending()[0].seat
    full = encode_table(rnd, seat, "full")
    removed = encode_table(rnd, seat, "removed")
    rand = encode_table(rnd, seat, "random", random.Random(1))
    hidden = list(range(4, 16)) + list(range(64, 74))
    public = [i for i in range(PLANES) if i not in hidden]
    assert not removed[hidden].any()
    assert np.array_equal(removed[public], full[public])
    assert np.array_equal(rand[public], full[public])
    assert not np.array_equal(rand[hidden], full[hidden])
    for r in range(1, 4):  # same hand sizes, other tiles
        size = len(rnd.hands[(seat + r) % 4])
        assert rand[4 * r].sum() + rand[4 * r + 1].sum() + rand[4 * r + 2].sum() \
            + rand[4 * r + 3].sum() == size


def test_transition_planes() -> None:
    x = transition_planes(np.array([4, 228]), np.array([1 * 5 + 2, 4]))
    assert x[0, 0, 4] == 1 and x[0, 0].sum() == 1  # discard 5m: its tile
    assert x[0, 1].all() and x[0, 13].all() and x[0, 18].all()  # discard, Δ 1, pong/kong
    assert x[1, 0].sum() == 0 and x[1, 3].all() and x[1, 12].all() and x[1, 20].all()


def test_safety_planes_hold_what_each_opponent_passed_and_only_grow_once_declared() -> None:
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.mcts.features import SAFETY_PLANES, safety_planes
    from tenpai.rules.suits108.safety import passed_kinds

    game = make_game(5, ("a", "b", "c", "d"))
    agents = [EfficiencyAgent(i) for i in range(4)]
    watched: int | None = None  # the first seat to declare
    before = np.zeros(27, dtype=np.uint8)
    grew = 0
    while not game.done:
        rnd = game.round
        assert rnd is not None
        seat = game.pending()[0].seat
        planes = safety_planes(rnd, seat)
        assert planes.shape == (SAFETY_PLANES, 27) and planes.dtype == np.uint8
        for r in range(1, 4):
            expected = np.zeros(27, dtype=np.uint8)
            expected[sorted(passed_kinds(rnd.events, (seat + r) % 4))] = 1
            assert np.array_equal(planes[r - 1], expected)
        if watched is None and any(rnd.declared):
            watched = rnd.declared.index(True)
        if watched is not None and seat != watched and rnd.declared[watched]:
            now = planes[(watched - seat) % 4 - 1]
            assert (now >= before).all()  # a locked hand's waits never change
            grew += int(now.sum() > before.sum())
            before = now
        if watched is not None and not rnd.declared[watched]:
            break  # the hand is over: a new deal starts afresh
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                   for d in game.pending()})
    assert watched is not None and grew >= 2

"""Observation planes: the suits108 encoder is pinned, and the Riichi / MCR planes equal what
the supervised agents compute from the engine's own (masked) observation."""

from __future__ import annotations

import hashlib

import numpy as np

from tenpai.env.adapters.base import decision_tiles
from tenpai.env.encoders import s108planes
from tenpai.env.mcr_v0 import raw_env as mcr_env
from tenpai.env.riichi_v0 import raw_env as riichi_env
from tenpai.env.suits108_v0 import raw_env as suits108_env
from tenpai.learn.mcr.state import MCRTracker
from tenpai.learn.rulesets import get_encoder
from tenpai.learn.state import RoundTracker
from tenpai.tiles import kind_of


def test_s108planes_is_frozen() -> None:
    view = s108planes.Suits108View(
        hand=tuple([1, 2, 0, 0, 1] + [0] * 13 + [3] + [0] * 8),
        melds=((0,) * 27, tuple([0] * 9 + [3] + [0] * 17), (0,) * 27, (0,) * 27),
        rivers=(tuple([1] + [0] * 26), (0,) * 27, tuple([0] * 26 + [2]), (0,) * 27),
        declared=(False, True, False, False),
        waits=(2, 5),
        drawn=4,
        offered=None,
    )
    out = s108planes.encode(view)
    assert out.shape == s108planes.SHAPE == (17, 27) and out.dtype == np.uint8
    assert out[10, 0] == 4 - 1 - 1 and out[10, 26] == 2 and out[12].tolist() == [4] * 27
    digest = hashlib.sha256(out.tobytes()).hexdigest()[:16]
    assert digest == "b0bdc03f3215e3a9"  # a change here is a new VERSION, never an edit


def test_riichi_planes_equal_the_agent_path() -> None:
    env = riichi_env()
    env.reset(seed=6)
    enc = get_encoder("gao86@1")
    rng = np.random.default_rng(6)
    for _ in range(300):
        agent = env.agent_selection
        d = env.decision(agent)
        assert d is not None
        tracker = RoundTracker(watch=(d.observation.seat,))
        for e in d.observation.events:  # what the sl agent sees: other hands hidden
            tracker.apply(e)
        _, offered = decision_tiles(d.legal)
        kind = None if offered is None else kind_of(offered)
        expected = enc.encode(tracker.view(d.observation.seat, offered=kind))
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"]["planes"], expected)
        assert obs["observation"]["table"][0] == d.observation.scores[d.observation.seat]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_mcr_planes_equal_the_agent_path() -> None:
    env = mcr_env()
    env.reset(seed=6)
    enc = get_encoder("mcr_stack002@1", "mcr")
    rng = np.random.default_rng(6)
    for _ in range(300):
        agent = env.agent_selection
        d = env.decision(agent)
        assert d is not None
        tracker = MCRTracker()
        for e in d.observation.events:
            tracker.apply(e)
        _, offered = decision_tiles(d.legal)
        kind = None if offered is None else kind_of(offered)
        expected = enc.encode(tracker.view(d.observation.seat, offered=kind))
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"]["planes"], expected)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_suits108_planes_count_every_tile_once() -> None:
    env = suits108_env()
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):
        agent = env.agent_selection
        obs = env.observe(agent)
        planes = obs["observation"]["planes"].astype(int)
        seen = planes[0] + planes[2:10].sum(axis=0)
        # Hand, melds and unclaimed discards never hold more than the four copies of a kind,
        # and the unseen row completes them to four.
        assert (seen <= 4).all() and (seen + planes[10] == 4).all()
        d = env.decision(agent)
        assert d is not None
        assert planes[0].sum() == len(d.observation.hand)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

"""The MCR tracker, fed an observation's masked events, sees what the engine's observation
shows, at every decision of seeded games with flowers (mcr_official) and without (botzone)."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.learn.mcr.state import MCRStateError, MCRTracker
from tenpai.rules.mcr.flow.rules import PRESETS
from tenpai.rules.mcr.game import MCRGame


@pytest.mark.parametrize("preset", ["botzone", "mcr_official"])
def test_tracker_matches_the_engine_observation(preset: str) -> None:
    game = MCRGame(PRESETS[preset], seed=7)
    agents = [make_agent("efficiency", s) for s in range(4)]
    checked = 0
    while not game.done and checked < 400:
        answers = {}
        for d in game.pending():
            obs = d.observation
            tracker = MCRTracker()
            for e in obs.events:
                tracker.apply(e)
            view = tracker.view(obs.seat)
            assert list(view.hand) == obs.counts
            for rel in range(4):
                seat = (obs.seat + rel) % 4
                meld_tiles = sum(len(m.tiles) for m in obs.melds[seat])
                assert sum(view.melds[rel]) == meld_tiles
                assert view.flowers[rel] == len(obs.flowers[seat])
            answers[d.seat] = agents[d.seat].act(obs, d.legal)
            checked += 1
        game.step(answers)
    assert checked >= 50


def test_giving_up_a_tile_not_held_is_an_error() -> None:
    from tenpai.events import Event

    t = MCRTracker()
    t.apply(Event("start_kyoku", bakaze=0, kyoku=0, oya=0, tehais=((0,) * 13, None, None, None)))
    with pytest.raises(MCRStateError, match="does not hold"):
        t.apply(Event("dahai", actor=0, pai=T.kind_of(33)))

"""``TENPAI_SEARCH_MCR_SIGHT``: worlds that know the opponents' hands, or the whole table —
the instrument that bounds what the search could gain (docs/mcr_strength.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.game import tileset_for
from tenpai.search.mcr.agent import MCRSearchAgent, make_search_mcr_agent
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.sight import SightedWorldSampler, world_sampler
from tenpai.search.mcr.worlds import MCRWorldError, MCRWorldSampler, hidden_wall_slots

from .test_mcr_search import _table_at, _world_tiles


def _walls(rnd: MCRRound) -> list[list[int]]:
    return [lst[a:b] for lst, a, b in hidden_wall_slots(rnd)]


@pytest.mark.parametrize(("rules", "seed"), [(BOTZONE, 3), (MCR_OFFICIAL, 4)])
def test_all_is_the_table_itself(rules: MCRRules, seed: int) -> None:
    table = _table_at(rules, seed, 0, 5, "dahai")
    for s in range(3):
        world = SightedWorldSampler("all").sample(table, 0, s).round
        assert world.hands == table.hands and world.melds == table.melds
        assert _walls(world) == _walls(table)
        assert world.events == table._observe(0).events  # the seat's view of the events


@pytest.mark.parametrize(("rules", "seed"), [(BOTZONE, 3), (MCR_OFFICIAL, 4)])
def test_hands_keeps_the_hands_and_shuffles_the_walls(rules: MCRRules, seed: int) -> None:
    table = _table_at(rules, seed, 0, 5, "dahai")
    a = SightedWorldSampler("hands").sample(table, 0, 1).round
    b = SightedWorldSampler("hands").sample(table, 0, 2).round
    assert a.hands == table.hands == b.hands
    assert _world_tiles(a) == Counter(tileset_for(rules)) == _world_tiles(b)
    assert [len(w) for w in _walls(a)] == [len(w) for w in _walls(table)]
    # the same undrawn tiles, in another order (and, between seats' walls, other places)
    assert Counter(t for w in _walls(a) for t in w) == Counter(t for w in _walls(table) for t in w)
    assert _walls(a) != _walls(table) and _walls(a) != _walls(b)
    # the fair sampler does not keep them: that is what the sight adds
    assert MCRWorldSampler().sample(table, 0, 1).round.hands[1:] != table.hands[1:]


def test_a_table_without_hidden_tiles_is_refused_in_one_line() -> None:
    table = _table_at(BOTZONE, 3, 0, 5, "dahai")

    class SeatState(MCRRound):
        """Stands for the Botzone bot's seat state, which does not know the others' tiles."""

    table.__class__ = SeatState
    with pytest.raises(MCRWorldError, match="SIGHT=hands reads the engine's own table"):
        SightedWorldSampler("hands").sample(table, 0, 0)


def test_the_setting_picks_the_sampler_and_is_recorded() -> None:
    agent = make_search_mcr_agent(0, {"TENPAI_SEARCH_MCR_SIGHT": "all"})
    assert isinstance(agent.sampler, SightedWorldSampler) and agent.sampler.sight == "all"
    assert "sight=all" in agent.identity
    assert type(world_sampler("fair")) is MCRWorldSampler
    with pytest.raises(ValueError, match="TENPAI_SEARCH_MCR_SIGHT must be fair or hands or all"):
        MCRSearchSettings.from_env({"TENPAI_SEARCH_MCR_SIGHT": "walls"})
    with pytest.raises(ValueError, match="sees 'hands' or 'all'"):
        SightedWorldSampler("fair")


def test_a_search_that_sees_the_table_plays_on_it() -> None:
    """Compiled playouts take the copy path (their own worlds are the fair draw): with every
    wall known the worlds differ only by the policies' seeds."""
    table = _table_at(BOTZONE, 3, 0, 5, "dahai")
    d = next(d for d in table.pending() if d.seat == 0)
    cands = list(dict.fromkeys(d.legal))[:3]
    s = MCRSearchSettings(budget_ms=1e6, clock="cpu", worlds=3, top_k=3, close=0.0,
                          policy="greedy", sight="all")
    agent = MCRSearchAgent(s, seed=5)
    values = agent.values(table, 0, cands, d.legal)
    assert len(values) == 3
    assert agent.act(d.observation, d.legal) in d.legal

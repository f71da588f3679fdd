"""The ``hands`` instrument of ``search`` (``TENPAI_SEARCH_SIGHT``): its worlds hold the
opponents' real concealed tiles and nothing else of the hidden table, the agent searches with
it at an engine table, and it is refused in one line wherever it cannot read the real hands."""

from __future__ import annotations

from collections import Counter

import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.agent import SearchAgent
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings
from tenpai.search.sight import SightedWorldSampler, world_sampler
from tenpai.search.worlds import WorldSampler, hidden_slots, seen_tiles

from .helpers import LAST_HAND, LAST_HAND_SCORES, TONPUU, decisions, play_through_mjai_bot
from .helpers import hidden as hidden_tiles


def _wall(rnd: object) -> list[int]:
    return [t for lst, a, b in hidden_slots(rnd) for t in lst[a:b]]  # type: ignore[arg-type]


def test_sighted_worlds_hold_the_real_hands_and_a_fresh_wall() -> None:
    sampler = SightedWorldSampler()
    checked = 0
    for rnd, d in decisions(5, limit=200):
        if checked > 30:
            break
        a = sampler.sample(rnd, d.seat, seed=checked).round
        b = sampler.sample(rnd, d.seat, seed=checked + 1).round
        checked += 1
        for s in range(4):
            assert sorted(a.hands[s]) == sorted(rnd.hands[s])
        # the wall holds the rest of what the seat has not seen, in an order of its own
        assert Counter(_wall(a)) == Counter(_wall(rnd))
        assert hidden_tiles(a, d.seat) == hidden_tiles(rnd, d.seat)
        assert seen_tiles(a, d.seat) == seen_tiles(rnd, d.seat)
        if len(set(_wall(rnd))) > 2:
            assert _wall(a) != _wall(b)
    assert checked > 30


def test_fair_worlds_do_not_hold_the_real_hands() -> None:
    """The control: the shipped sampler draws hands from the unseen tiles, so across a game
    its opponents' hands are almost never the real ones (else the instrument measures nothing)."""
    fair, same, total = WorldSampler(), 0, 0
    for rnd, d in decisions(5, limit=120):
        w = fair.sample(rnd, d.seat, seed=total).round
        for s in range(4):
            if s != d.seat:
                total += 1
                same += sorted(w.hands[s]) == sorted(rnd.hands[s])
    assert total > 100 and same < total / 20


def test_the_agent_searches_with_the_real_hands_at_an_engine_table() -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, threshold=1.0, sight="hands")
    agent = SearchAgent(AgentPrior(EfficiencyAgent(3), 0.5), settings=settings, seed=3)
    assert isinstance(agent.sampler, SightedWorldSampler)
    game = RiichiGame(TONPUU, seed=3, scores=LAST_HAND_SCORES, start=LAST_HAND)
    others = EfficiencyAgent(4)
    while not game.done:
        game.step({d.seat: (agent if d.seat == 0 else others).act(d.observation, d.legal)
                   for d in game.pending()})
    assert sum(s.searched for s in agent.log) >= 3


def test_a_view_without_the_engine_table_is_refused() -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, threshold=1.0, sight="hands")
    agent = SearchAgent(AgentPrior(EfficiencyAgent(3), 0.5), settings=settings, seed=3)
    # the mjai bot answers for its agent: one line naming the setting, no guessed answer
    from tenpai.serve.mjai.bot import BotError

    with pytest.raises(BotError, match="TENPAI_SEARCH_SIGHT=hands reads the engine's own"):
        play_through_mjai_bot(agent, seed=3)


@pytest.mark.parametrize(("env", "needle"), [
    ({"TENPAI_SEARCH_SIGHT": "walls"}, "TENPAI_SEARCH_SIGHT must be fair or hands"),
    ({"TENPAI_SEARCH_SIGHT": "hands", "TENPAI_SEARCH_WORLDS_MODE": "weighted"},
     "TENPAI_SEARCH_WORLDS_MODE would be ignored"),
    ({"TENPAI_SEARCH_SIGHT": "hands", "TENPAI_SEARCH_OPPONENTS": "shaped",
      "TENPAI_SEARCH_RIICHI_READY": "0"},
     "TENPAI_SEARCH_OPPONENTS and TENPAI_SEARCH_RIICHI_READY would be ignored"),
])
def test_bad_sights_are_refused_in_one_line(env: dict[str, str], needle: str) -> None:
    with pytest.raises(ValueError) as caught:
        SearchSettings.from_env(env)
    assert needle in str(caught.value) and "\n" not in str(caught.value)


def test_world_sampler_names() -> None:
    assert type(world_sampler("fair")) is WorldSampler
    assert world_sampler("fair", "shaped").opponent_model == "shaped"
    assert isinstance(world_sampler("hands"), SightedWorldSampler)
    with pytest.raises(ValueError, match="fair, hands"):
        world_sampler("all")

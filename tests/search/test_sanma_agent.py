"""``search`` at three-player tables (``tenhou_sanma``): it searches and answers legally
through a seeded game, repeats itself for a seed, values hands with the three-player model,
and is refused in one line where its placement model or utility is of the other table size."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.rulesets import UnsupportedRulesError, check_built_agent
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.agent import SearchAgent, make_search_agent
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings

from .sanma_helpers import SANMA_TONPUU

SETTINGS = SearchSettings(budget_ms=1e6, worlds=3, top_k=2)
FOUR = str(resources.files("tenpai.data").joinpath("placement_riichi4.json"))


def _searcher(seed: int, settings: SearchSettings = SETTINGS) -> SearchAgent:
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.5), settings=settings, seed=seed)


def _play(agent: SearchAgent, seed: int) -> list[Event]:
    """A seeded three-player tonpuu game, ``agent`` in seat 0 against ``efficiency``; every
    answer asserted legal; the agent's answers."""
    others = EfficiencyAgent(seed + 1)
    game = RiichiGame(SANMA_TONPUU, seed=seed)
    mine: list[Event] = []
    steps = 0
    while not game.done and steps < 600:
        answers = {}
        for d in game.pending():
            a = (agent if d.seat == 0 else others).act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
            if d.seat == 0:
                mine.append(a)
        game.step(answers)
        steps += 1
    assert game.done
    return mine


def test_search_searches_a_three_player_game_with_legal_answers_and_repeats_itself() -> None:
    agent = _searcher(4)
    answers = _play(agent, 4)
    searched = [s for s in agent.log if s.searched]
    assert len(searched) >= 3
    assert all(s.worlds == 3 for s in searched)
    assert answers == _play(_searcher(4), 4)


def test_the_three_player_leaf_value_is_the_three_player_model() -> None:
    agent = _searcher(0)
    assert agent.model_players is None  # shipped models: both table sizes
    three = agent.values[3]
    assert three.model.players == 3  # type: ignore[attr-defined]
    assert three.utility.weights == (120.0, 0.0, -135.0)  # type: ignore[attr-defined]
    assert agent.values[4].model.players == 4  # type: ignore[attr-defined]


def test_a_model_or_utility_of_one_table_size_is_refused_at_the_other_in_one_line() -> None:
    four_only = _searcher(0, SearchSettings(placement_model=FOUR))
    assert four_only.model_players == 4 and set(four_only.values) == {4}
    with pytest.raises(UnsupportedRulesError, match="4-player model") as e:
        check_built_agent("search", four_only, "riichi", 3)
    assert "\n" not in str(e.value)
    three_only = _searcher(0, SearchSettings(utility="120,0,-135"))
    assert three_only.model_players == 3
    with pytest.raises(UnsupportedRulesError, match="3-player model"):
        check_built_agent("search", three_only, "riichi", 4)
    both = _searcher(0, SearchSettings(value="points"))
    assert both.model_players is None
    check_built_agent("search", both, "riichi", 3)
    with pytest.raises(ValueError, match="TENPAI_SEARCH_UTILITY"):
        _searcher(0, SearchSettings(utility="1,2"))


def test_arena_refuses_a_utility_that_fits_no_table_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TENPAI_SEARCH_UTILITY", "5,4,3,2,1")
    r = CliRunner().invoke(app, ["arena", "--agents", "search,efficiency,efficiency",
                                 "--preset", "tenhou_sanma", "--games", "3", "--workers", "1",
                                 "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "UTILITY" in r.output


def test_the_registered_search_takes_three_player_tables(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    agent = make_search_agent(0, {})
    check_built_agent("search", agent, "riichi", 3)
    check_built_agent("search", agent, "riichi", 4)


class _ProtocolView:
    """A seat's observation without the engine table behind it (what mjai or the Tenhou
    client give): the agent must rebuild a table to search."""

    def __init__(self, obs: object) -> None:
        self._obs = obs

    def __getattr__(self, name: str) -> object:
        if name == "_table":
            raise AttributeError(name)
        return getattr(self._obs, name)


def test_search_rebuilds_three_player_tables_from_a_seats_view() -> None:
    agent = _searcher(6)
    others = EfficiencyAgent(7)
    game = RiichiGame(SANMA_TONPUU, seed=6)
    steps = 0
    while not game.done and steps < 600:
        answers = {}
        for d in game.pending():
            if d.seat == 0:
                answers[0] = agent.act(_ProtocolView(d.observation), d.legal)
                assert answers[0] in d.legal
            else:
                answers[d.seat] = others.act(d.observation, d.legal)
        game.step(answers)
        steps += 1
    assert game.done
    assert agent.rebuild_failures == 0
    assert sum(s.searched for s in agent.log) >= 3

"""``TENPAI_SEARCH_LAST_THRESHOLD``: search the decisions of a hand that may end the game.

In such a hand (:func:`~tenpai.rules.riichi.game.can_end_game`: the last scheduled hand or a
later one) a decision is searched when the prior gives its own choice less than
``max(threshold, last_threshold)``; everywhere else the threshold alone gates, so at 0 (the
default) nothing changes.  The prior here (``efficiency`` at 0.99) is sure of every answer, so
the threshold of 0.9 alone searches nothing.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame, can_end_game
from tenpai.rules.riichi.ruleset import TENHOU, preset_for_players
from tenpai.search.agent import SearchAgent, _may_end_game
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings

from .helpers import TONPUU, play_last_hand

HANCHAN = dataclasses.replace(TENHOU, length="hanchan")


def _sure_agent(last_threshold: float, seed: int = 0) -> SearchAgent:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, last_threshold=last_threshold)
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.99), settings=settings, seed=seed)


@pytest.mark.parametrize(("rules", "bakaze", "kyoku", "expected"), [
    (TONPUU, 0, 0, False), (TONPUU, 0, 2, False), (TONPUU, 0, 3, True),
    (TONPUU, 1, 0, True), (TONPUU, 1, 3, True),  # the extension, sudden death
    (HANCHAN, 0, 3, False), (HANCHAN, 1, 2, False), (HANCHAN, 1, 3, True),
    (HANCHAN, 2, 0, True),
])
def test_the_hands_that_may_end_the_game(rules: Any, bakaze: int, kyoku: int,
                                         expected: bool) -> None:
    assert can_end_game(rules, bakaze, kyoku) is expected


def test_three_seats_end_on_their_third_hand() -> None:
    sanma = dataclasses.replace(preset_for_players("tenhou", 3), length="tonpuu")
    assert [can_end_game(sanma, 0, k) for k in range(3)] == [False, False, True]


def test_a_game_ends_only_in_a_hand_that_may_end_it() -> None:
    """Through seeded efficiency games: the hand that ended each game is one
    ``can_end_game`` names (unless someone went bust), and no earlier hand ended one."""
    ends = 0
    for seed in range(4):
        game = RiichiGame(TONPUU, seed=seed)
        agent = EfficiencyAgent(seed)
        while not game.done:
            game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
        starts = [e for e in game.events if e.type == "start_kyoku"]
        last = starts[-1]
        assert last.bakaze is not None and last.kyoku is not None
        if min(game.scores) >= 0:
            assert can_end_game(TONPUU, last.bakaze, last.kyoku)
            ends += 1
    assert ends > 0


def test_off_by_default_and_a_sure_prior_searches_nothing() -> None:
    assert SearchSettings().last_threshold == 0.0
    agent = _sure_agent(0.0)
    play_last_hand(agent, seed=1)
    assert agent.log and not any(s.searched for s in agent.log)


class _Recorder:
    """The agent, and for each of its decisions whether it had a choice (more than one legal
    answer), whether its hand may end the game, and whether it was searched."""

    def __init__(self, agent: SearchAgent) -> None:
        self.agent = agent
        self.rows: list[tuple[bool, bool, bool]] = []

    def act(self, obs: Any, legal: Any) -> Event:
        before = len(self.agent.log)
        answer = self.agent.act(obs, legal)
        (stat,) = self.agent.log[before:]
        self.rows.append((len(legal) > 1, can_end_game(TONPUU, obs.bakaze, obs.kyoku),
                          stat.searched))
        return answer


@pytest.mark.parametrize("seed", [1, 4])
def test_at_one_every_decision_of_the_last_hand_with_a_choice_is_searched(seed: int) -> None:
    rec = _Recorder(_sure_agent(1.0, seed))
    play_last_hand(rec, seed)
    choices = [searched for choice, _last, searched in rec.rows if choice]
    assert len(choices) > 5 and all(choices)
    assert not any(searched for choice, _last, searched in rec.rows if not choice)


def test_only_the_hands_that_may_end_the_game_are_searched() -> None:
    """A whole seeded tonpuu game, the agent in seat 0: a decision with a choice is searched
    exactly when its hand may end the game."""
    rec = _Recorder(_sure_agent(1.0, seed=2))
    others = EfficiencyAgent(3)
    game = RiichiGame(TONPUU, seed=2)
    while not game.done:
        answers = {d.seat: (rec if d.seat == 0 else others).act(d.observation, d.legal)
                   for d in game.pending()}
        game.step(answers)
    rows = [(last, searched) for choice, last, searched in rec.rows if choice]
    assert any(last for last, _ in rows) and any(not last for last, _ in rows)
    assert all(last == searched for last, searched in rows)


def test_a_front_stream_tells_the_hand_from_its_start_kyoku() -> None:
    """A seat's stream without an engine table (mjai, the Tenhou client) is judged by its
    latest ``start_kyoku`` under the rules the table rebuild uses (without rules of its own:
    Tenhou's, a hanchan; tests/search/test_front_rules.py gives it the front's)."""
    def stream(bakaze: int, kyoku: int) -> SimpleNamespace:
        start = Event("start_kyoku", bakaze=bakaze, kyoku=kyoku, honba=0, kyotaku=0, oya=kyoku,
                      scores=(25000,) * 4, tehais=((0,) * 13,) * 4, dora_marker=1)
        return SimpleNamespace(events=[Event("start_game"), start])

    assert TENHOU.length == "hanchan"
    assert [_may_end_game(stream(0, k)) for k in range(4)] == [False] * 4
    assert [_may_end_game(stream(1, k)) for k in range(4)] == [False, False, False, True]
    assert _may_end_game(stream(2, 0))
    assert not _may_end_game(SimpleNamespace(events=[Event("start_game")]))


@pytest.mark.parametrize("raw", ["-0.1", "1.5", "nan", "x"])
def test_a_bad_value_is_one_line_naming_the_variable(raw: str) -> None:
    with pytest.raises(ValueError) as err:
        SearchSettings.from_env({"TENPAI_SEARCH_LAST_THRESHOLD": raw})
    assert str(err.value).startswith("TENPAI_SEARCH_LAST_THRESHOLD")
    assert "\n" not in str(err.value)


def test_the_setting_is_named_in_the_record_of_who_played() -> None:
    settings = SearchSettings.from_env({"TENPAI_SEARCH_LAST_THRESHOLD": "1"})
    assert settings.last_threshold == 1.0
    assert settings.describe() == "last_threshold=1.0"

"""The search agent: legal seeded games, determinism, settings refused in one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.search.agent import SearchAgent, choose_paired, make_search_agent
from tenpai.search.placement import PlacementError
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings

from .helpers import play_last_hand


def _short_game(seed: int, settings: SearchSettings) -> tuple[list[Event], SearchAgent]:
    agent = SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.5), settings=settings, seed=seed)
    return play_last_hand(agent, seed), agent


def test_search_plays_legal_moves_through_seeded_games() -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, threshold=0.9)
    searched = 0
    for seed in range(2):
        _events, agent = _short_game(seed, settings)
        searched += sum(s.searched for s in agent.log)
    assert searched > 5


def test_a_capped_search_is_reproducible() -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, z=0.0)
    a, agent_a = _short_game(4, settings)
    b, agent_b = _short_game(4, settings)
    assert a == b
    assert [s.changed for s in agent_a.log] == [s.changed for s in agent_b.log]


def test_paired_rule_keeps_the_prior_without_a_clear_gain() -> None:
    values = [[0.0, 1.0, 0.5], [0.0, -1.0, 0.6], [0.0, 1.0, 0.4]]
    assert choose_paired(values, 0, z=1.0) == 2  # steady +0.5 beats noisy +0.33
    assert choose_paired(values, 0, z=100.0) == 0
    assert choose_paired([[0.0, 5.0]], 0, z=1.0) == 0  # one world: no standard error


@pytest.mark.parametrize(("env", "message"), [
    ({"TENPAI_SEARCH_BUDGET_MS": "0"}, "BUDGET_MS must be > 0"),
    ({"TENPAI_SEARCH_BUDGET_MS": "-5"}, "BUDGET_MS must be > 0"),
    ({"TENPAI_SEARCH_BUDGET_MS": "soon"}, "cannot read 'soon'"),
    ({"TENPAI_SEARCH_POLICY": "psychic"}, "unknown playout policy 'psychic'"),
    ({"TENPAI_SEARCH_VALUE": "vibes"}, "VALUE must be placement or points"),
    ({"TENPAI_SEARCH_TOPK": "1"}, "TOPK must be >= 2"),
    ({"TENPAI_SEARCH_RULE": "dice"}, "RULE must be paired or puct"),
    ({"TENPAI_SEARCH_WORLDS_MODE": "psychic"}, "unknown worlds mode 'psychic'"),
    ({"TENPAI_SEARCH_POOL": "0"}, "POOL must be >= 1"),
    ({"TENPAI_SEARCH_WEIGHT_T": "0"}, "WEIGHT_T must be > 0"),
    ({"TENPAI_SEARCH_WEIGHT_CALLS": "maybe"}, "WEIGHT_CALLS: cannot read 'maybe'"),
    ({"TENPAI_SEARCH_WEIGHT_CALLS": "1"}, "WEIGHT_CALLS=1 weights worlds, so it needs"),
    ({"TENPAI_SEARCH_WEIGHT_WIN_PASSES": "maybe"}, "WEIGHT_WIN_PASSES: cannot read 'maybe'"),
    ({"TENPAI_SEARCH_WEIGHT_WIN_PASSES": "1"}, "WEIGHT_WIN_PASSES=1 weights worlds, so it needs"),
    ({"TENPAI_SEARCH_CALL_OFFERS": "sometimes"}, "CALL_OFFERS: cannot read 'sometimes'"),
])
def test_bad_settings_are_one_line_errors(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_search_agent(0, env)


def test_a_placement_model_of_other_rules_is_refused(tmp_path: object) -> None:
    import json
    from pathlib import Path

    from tenpai.search.placement import load_placement_model

    d = load_placement_model().to_json()
    d["rules"] = "mcr"
    p = Path(str(tmp_path)) / "mcr.json"
    p.write_text(json.dumps(d))
    with pytest.raises(PlacementError, match="rules 'mcr'"):
        SearchAgent(AgentPrior(EfficiencyAgent()), settings=SearchSettings(placement_model=str(p)))


@pytest.mark.parametrize(("var", "value"), [
    ("TENPAI_SEARCH_BUDGET_MS", "0"),
    ("TENPAI_SEARCH_BUDGET_MS", "-1"),
    ("TENPAI_SEARCH_POLICY", "psychic"),
    ("TENPAI_SEARCH_WORLDS_MODE", "psychic"),
    ("TENPAI_SEARCH_WEIGHT_CALLS", "2"),
    ("TENPAI_SEARCH_WEIGHT_WIN_PASSES", "2"),
    ("TENPAI_SEARCH_CALL_OFFERS", "2"),
    ("TENPAI_SEARCH_PLAYOUT_YAKU", "1"),
])
def test_arena_refuses_bad_settings_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str
) -> None:
    monkeypatch.setenv(var, value)
    r = CliRunner().invoke(app, ["arena", "--agents", "search,efficiency,efficiency,efficiency",
                                 "--games", "4", "--workers", "1", "--no-progress"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert var.removeprefix("TENPAI_") in r.output


@pytest.mark.slow
def test_search_with_the_pg_prior_plays_a_legal_game() -> None:
    pytest.importorskip("torch")
    agent = make_search_agent(3, {"TENPAI_SEARCH_WORLDS": "2", "TENPAI_SEARCH_BUDGET_MS": "1e6"})
    play_last_hand(agent, 3, others_seed=1)
    assert any(s.searched for s in agent.log)


def _one_line_exit_2(args: list[str], *needles: str) -> None:
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    for needle in needles:
        assert needle in r.output


def test_arena_refuses_a_file_that_is_not_a_placement_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from pathlib import Path

    bogus = Path(str(tmp_path)) / "model.json"
    bogus.write_text('{"format": "something-else/1"}')
    monkeypatch.setenv("TENPAI_SEARCH_PLACEMENT_MODEL", str(bogus))
    _one_line_exit_2(["arena", "--agents", "search,efficiency,efficiency,efficiency",
                      "--games", "4", "--workers", "1", "--no-progress"],
                     "not a", "model.json")


def test_arena_refuses_search_with_a_four_player_model_at_a_three_player_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib import resources

    four = resources.files("tenpai.data").joinpath("placement_riichi4.json")
    monkeypatch.setenv("TENPAI_SEARCH_PLACEMENT_MODEL", str(four))
    _one_line_exit_2(["arena", "--agents", "search,efficiency,efficiency", "--preset",
                      "tenhou_sanma", "--games", "3", "--workers", "1", "--no-progress"],
                     "4-player model", "3-player table")


def test_a_think_time_is_set_and_named_in_the_identity() -> None:
    agent = SearchAgent(AgentPrior(EfficiencyAgent(0), 0.5),
                        settings=SearchSettings(worlds=2, top_k=2))
    assert agent.identity.endswith("; top_k=2,worlds=2")
    agent.set_budget_ms(250)
    assert agent.settings.budget_ms == 250
    assert agent.identity.endswith("; budget_ms=250,top_k=2,worlds=2")
    with pytest.raises(ValueError, match="TENPAI_SEARCH_BUDGET_MS must be > 0"):
        agent.set_budget_ms(0)
    assert agent.settings.budget_ms == 250

"""The ``mcts`` and ``mcts_prior`` agents through the normal agent protocol."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import torch

from tenpai.agents import AGENTS, make_agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.mcts.agent import MCTSAgent
from tenpai.mcts.model import MCTSModel, ModelCard
from tenpai.rules.suits108 import Suits108Game, make_game
from tenpai.rules.suits108.invariants import check_game


class _Checked:
    """Wraps an agent and checks every answer is one of the legal actions."""

    def __init__(self, agent: MCTSAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.asked = 0

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        a = self.agent.act(observation, legal)
        assert any(a is e or a == e for e in legal)
        self.asked += 1
        return a

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.manual_seed(3)
    path = tmp_path_factory.mktemp("m") / "tiny.pt"
    MCTSModel(ModelCard(size="tiny")).save(path)
    return path


def test_registered() -> None:
    assert "mcts" in AGENTS and "mcts_prior" in AGENTS


def test_search_and_prior_agents_play_legal_games(model_file: Path) -> None:
    search = _Checked(MCTSAgent(str(model_file), simulations=3, seed=1))
    prior = _Checked(MCTSAgent(str(model_file), simulations=1, name="mcts_prior"))
    game = play(make_game(21, ("a", "b", "c", "d")), [search, prior, search, prior])
    assert isinstance(game, Suits108Game)
    check_game(game)
    assert game.done and search.asked > 20 and prior.asked > 20


def test_registry_reads_model_and_simulations_from_env(
    model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TENPAI_MCTS_MODEL", str(model_file))
    monkeypatch.setenv("TENPAI_MCTS_SIMULATIONS", "7")
    agent = make_agent("mcts", 2)
    assert isinstance(agent, MCTSAgent) and agent.config.simulations == 7
    prior = make_agent("mcts_prior", 2)
    assert isinstance(prior, MCTSAgent) and prior.config.simulations == 1
    monkeypatch.setenv("TENPAI_MCTS_SIMULATIONS", "0")
    with pytest.raises(ValueError, match="at least 1"):
        make_agent("mcts", 2)


def test_refuses_other_rule_sets(model_file: Path) -> None:
    from tenpai.arena.games import make_game as arena_game

    game = arena_game("riichi", 1, ("a", "b", "c", "d"), {"length": "tonpuu",
                                                          "preset": "tenhou"})
    d = game.pending()[0]
    with pytest.raises(ValueError, match="plays the suits108 rules only"):
        MCTSAgent(str(model_file), simulations=2).act(d.observation, d.legal)


def test_simulator_transitions_agent_plays_legal_games(model_file: Path) -> None:
    sim = _Checked(MCTSAgent(str(model_file), simulations=3, transitions="simulator"))
    prior = _Checked(MCTSAgent(str(model_file), simulations=1))
    game = play(make_game(22, ("a", "b", "c", "d")), [sim, prior, prior, prior])
    assert isinstance(game, Suits108Game)
    check_game(game)
    assert game.done and sim.asked > 10


def test_eval_search_rates_every_setting_on_the_same_deals(model_file: Path,
                                                           tmp_path: Path) -> None:
    """Fig. 7's sweep: one point per (transitions, simulations); at one simulation both kinds
    of transition play the prior's choice, so their games — and ratings — are the same."""
    import json

    from typer.testing import CliRunner

    from tenpai.cli.main import app

    png = tmp_path / "fig7.png"
    res = CliRunner().invoke(app, ["eval", "search", "--model", str(model_file),
                                   "--simulations", "1,3", "--transitions", "model,simulator",
                                   "--opponent", "random", "--deals", "1", "--out", str(png),
                                   "--json"])
    assert res.exit_code == 0, res.output
    points = json.loads(res.stdout)["points"]
    assert [(p["transitions"], p["simulations"]) for p in points] == [
        ("model", 1), ("model", 3), ("simulator", 1), ("simulator", 3)]
    assert all(p["games"] == 4 and sum(p["rank_counts"]) == 4 for p in points)
    assert points[0]["rank_counts"] == points[2]["rank_counts"]
    assert png.stat().st_size > 1000


@pytest.mark.parametrize("args, message", [
    (["--simulations", "0"], "at least 1"),
    (["--simulations", "a,b"], "comma-separated list of whole numbers"),
    (["--transitions", "oracle"], "model, simulator or both"),
    (["--opponent", "nobody"], "unknown agent 'nobody'"),
    (["--model", "/no/such/model.pt"], "no/such/model.pt"),
])
def test_eval_search_refuses_bad_arguments(args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    res = CliRunner().invoke(app, ["eval", "search", "--deals", "1", "--simulations", "1",
                                   *args])
    assert res.exit_code == 2 and message in res.output, res.output


def test_playing_skips_the_safety_planes_that_only_training_keeps(model_file: Path) -> None:
    import numpy as np

    agent = MCTSAgent(str(model_file), simulations=3, seed=4)
    game = make_game(5, ("a", "b", "c", "d"))
    requests = [(d.observation, d.legal) for d in game.pending()]
    recorded = agent.act_batch_with_info(requests)
    played = agent.act_batch_with_info(requests, record=False)
    assert [a for a, _ in recorded] == [a for a, _ in played] == agent.act_batch(requests)
    assert all(isinstance(i["safe"], np.ndarray) for _, i in recorded)
    assert all(i["safe"] is None for _, i in played)

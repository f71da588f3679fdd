"""Dropout learning: the keep-probability schedule, training on search data, the agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tenpai.agents.mcts import DropoutAgent
from tenpai.engine.runner import play
from tenpai.mcts.dropout import DropoutConfig, DropoutModel, keep_probability, train_dropout
from tenpai.mcts.train import MCTSTrainConfig, train_mcts
from tenpai.rules.suits108 import make_game


def test_keep_probability_schedule() -> None:
    cfg = DropoutConfig(decay_steps=60_000)
    assert keep_probability(0, cfg) == 1.0
    assert keep_probability(59_999, cfg) == 1.0
    assert np.isclose(keep_probability(60_000, cfg), 0.9)
    assert np.isclose(keep_probability(5 * 60_000 + 1, cfg), 0.5)
    assert keep_probability(10 * 60_000, cfg) == 0.0 == keep_probability(10**7, cfg)
    assert keep_probability(0, DropoutConfig(baseline=True)) == 0.0


@pytest.fixture(scope="module")
def search_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("s") / "m.pt"
    train_mcts(MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                               games_per_version=1, steps_per_version=1, batch_size=4,
                               unroll=1, max_versions=1))
    return out.with_name(out.name + ".ckpt")


def test_trains_on_search_data_and_plays_legal_games(
    search_checkpoint: Path, tmp_path: Path
) -> None:
    cfg = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / "d.pt"), size="tiny",
                        steps=48, batch_size=32, decay_steps=4)
    path, _model = train_dropout(cfg)
    losses = [h["loss"] for h in cfg.history]
    assert cfg.history[-1]["p"] == 0.0 and cfg.history[0]["p"] == 1.0
    assert losses[-1] < losses[0]
    loaded = DropoutModel.load(path)
    agent = DropoutAgent(loaded)
    game = play(make_game(9, ("a", "b", "c", "d")), [agent] * 4)
    assert game.done


def test_agent_ignores_hidden_information(search_checkpoint: Path, tmp_path: Path) -> None:
    """The same own hand and public table, other hands dealt differently: same choice."""
    cfg = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / "d.pt"), size="tiny",
                        steps=2, batch_size=8)
    _path, model = train_dropout(cfg)
    agent = DropoutAgent(model)
    game = make_game(3, ("a", "b", "c", "d"))
    d = game.pending()[0]
    before = agent.act(d.observation, d.legal)
    rnd = game.round
    assert rnd is not None
    # Swap two other players' concealed hands: hidden information changes, the view does not.
    rnd.hands[1], rnd.hands[2] = rnd.hands[2], rnd.hands[1]
    rnd.counts[1], rnd.counts[2] = rnd.counts[2], rnd.counts[1]
    assert agent.act(d.observation, d.legal) == before

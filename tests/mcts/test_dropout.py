"""Dropout learning: the keep-probability schedule, training on search data, the agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tenpai.engine.runner import play
from tenpai.mcts.agent import DropoutAgent
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


def test_pools_buffers_holds_hands_out_and_rates_during_training(
    search_checkpoint: Path, tmp_path: Path
) -> None:
    """Two checkpoints pool their hands; held-out hands are measured, not trained on; Fig. 8's
    rating is taken every ``eval_every`` steps and at the end."""
    one = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / "a.pt"), size="tiny",
                        steps=1, batch_size=4)
    _p, m1 = train_dropout(one)
    cfg = DropoutConfig(data=(str(search_checkpoint), str(search_checkpoint)),
                        out=str(tmp_path / "b.pt"), size="tiny", steps=3, batch_size=4,
                        holdout=0.25, eval_every=2, eval_deals=1, eval_opponent="efficiency")
    _p, m2 = train_dropout(cfg)
    assert m2.card["samples"] + m2.card["held_out_samples"] == 2 * m1.card["samples"]
    assert 0 < m2.card["held_out_samples"] < m1.card["samples"]
    rated = [h for h in cfg.history if "stable_dan" in h]
    assert [h["step"] for h in rated] == [2, 3]
    for h in rated:
        assert h["eval_games"] == 4 and sum(h[f"rank{k}"] for k in range(1, 5)) == 4
        assert 0.0 <= h["held_agreement"] <= 1.0 and h["held_cross_entropy"] > 0


@pytest.mark.parametrize("bad, message", [
    ({"holdout": 1.0}, "holdout must be in"),
    ({"eval_every": -1}, "eval_every cannot be negative"),
    ({"eval_every": 5, "eval_opponent": "nobody"}, "unknown agent 'nobody'"),
    ({"eval_deals": 0}, "eval_deals must be at least 1"),
])
def test_bad_settings_are_refused(bad: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DropoutConfig(**bad)  # type: ignore[arg-type]


def test_cli_refuses_a_bad_holdout_in_one_line(search_checkpoint: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    out = tmp_path / "d.pt"
    res = CliRunner().invoke(app, ["train", "dropout", "--data", str(search_checkpoint),
                                   "--out", str(out), "--holdout", "1.5"])
    assert res.exit_code == 2
    assert "holdout must be in [0, 1)" in res.output and not out.exists()


def test_fig8_groups_runs_by_matrix_and_plots(search_checkpoint: Path, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from tenpai.cli.main import app

    files = []
    for name, baseline in (("m.pt", False), ("b.pt", True)):
        cfg = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / name), size="tiny",
                            steps=2, batch_size=4, baseline=baseline, eval_every=1,
                            eval_deals=1, eval_opponent="efficiency")
        train_dropout(cfg)
        files.append(str(tmp_path / name))
    png = tmp_path / "fig8.png"
    res = CliRunner().invoke(app, ["eval", "dropout", *files, "--out", str(png), "--json"])
    assert res.exit_code == 0, res.output
    groups = json.loads(res.stdout)["groups"]
    assert {g["runs"] for g in groups.values()} == {1} and len(groups) == 2
    assert all(g["steps"] == [1, 2] for g in groups.values())
    assert png.stat().st_size > 1000
    unrated = tmp_path / "u.pt"
    train_dropout(DropoutConfig(data=str(search_checkpoint), out=str(unrated), size="tiny",
                                steps=1, batch_size=4))
    res = CliRunner().invoke(app, ["eval", "dropout", str(unrated)])
    assert res.exit_code == 2 and "no rating in the model card" in res.output


def test_search_data_carry_safety_planes_and_a_safety_student_reads_them(
    search_checkpoint: Path, tmp_path: Path
) -> None:
    from tenpai.mcts.dropout import _strategy_data
    from tenpai.mcts.features import PLANES, SAFETY_PLANES

    trajs = _strategy_data([search_checkpoint], safety=True)
    assert all(t.safe is not None and t.safe.shape == (len(t), SAFETY_PLANES, 27)
               for t in trajs)
    cfg = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / "s.pt"), size="tiny",
                        steps=24, batch_size=16, decay_steps=4, safety=True, holdout=0.25)
    path, _model = train_dropout(cfg)
    loaded = DropoutModel.load(path)
    assert loaded.safety and loaded.card["safety"] is True
    first = next(loaded.net.body.parameters())
    assert first.shape[1] == PLANES + SAFETY_PLANES
    assert 0.0 <= cfg.history[-1]["held_agreement"] <= 1.0
    game = play(make_game(4, ("a", "b", "c", "d")), [DropoutAgent(loaded)] * 4)
    assert game.done
    # A safety model refuses input without its safety planes.
    with pytest.raises(ValueError, match="reads the safety planes"):
        loaded.inputs(np.zeros((1, PLANES, 27), dtype=np.float32), None)


def test_data_without_safety_planes_are_refused_for_a_safety_student(
    search_checkpoint: Path, tmp_path: Path
) -> None:
    import torch

    payload = torch.load(search_checkpoint, weights_only=True)
    for t in payload["buffer"]:
        t.pop("safe")
    old = tmp_path / "old.pt.ckpt"
    torch.save(payload, old)
    cfg = DropoutConfig(data=str(old), out=str(tmp_path / "d.pt"), size="tiny", steps=1,
                        batch_size=4, safety=True)
    with pytest.raises(ValueError, match="recorded without the safety planes"):
        train_dropout(cfg)
    assert not (tmp_path / "d.pt").exists()
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    res = CliRunner().invoke(app, ["train", "dropout", "--data", str(old), "--out",
                                   str(tmp_path / "d.pt"), "--safety", "--steps", "1"])
    assert res.exit_code == 2 and "recorded without the safety planes" in res.output
    assert not (tmp_path / "d.pt").exists()
    # Without --safety the same old data still train (files from before the planes).
    train_dropout(DropoutConfig(data=str(old), out=str(tmp_path / "d.pt"), size="tiny",
                                steps=1, batch_size=4))
    assert not DropoutModel.load(tmp_path / "d.pt").safety


def test_a_model_file_with_garbled_inputs_is_refused(search_checkpoint: Path,
                                                     tmp_path: Path) -> None:
    import torch

    from tenpai.mcts.model import MCTSModelError

    path, _m = train_dropout(DropoutConfig(data=str(search_checkpoint), size="tiny", steps=1,
                                           batch_size=4, out=str(tmp_path / "d.pt")))
    payload = torch.load(path, weights_only=True)
    payload["safety"] = "yes"
    torch.save(payload, path)
    with pytest.raises(MCTSModelError, match="inputs or size"):
        DropoutModel.load(path)


@pytest.fixture(scope="module")
def expert_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games of ``defensive`` recorded like the search's decisions (one-hot π)."""
    from tenpai.mcts.warmstart import WarmStartConfig, warm_start

    out = tmp_path_factory.mktemp("e") / "def.pt"
    warm_start(WarmStartConfig(out=str(out), teacher="defensive", games=2, holdout=0, steps=1,
                               size="tiny", batch_size=4, unroll=1, tables=2))
    return out.with_name(out.name + ".data")


@pytest.mark.parametrize("fraction", [0.5, 1.0])
def test_expert_games_mix_into_every_batch(search_checkpoint: Path, expert_games: Path,
                                           tmp_path: Path, fraction: float) -> None:
    from tenpai.agents.defensive import DefensiveAgent
    from tenpai.mcts.warmstart import training_items

    items = training_items(expert_games)
    assert all(t.safe is not None for t in items)  # the rule agent's data carry them too
    cfg = DropoutConfig(data=str(search_checkpoint), out=str(tmp_path / "x.pt"), size="tiny",
                        steps=60, batch_size=32, decay_steps=5, safety=True,
                        expert_data=str(expert_games), expert_fraction=fraction, lr=0.003)
    _path, model = train_dropout(cfg)
    assert model.card["expert_fraction"] == fraction
    assert cfg.history[-1]["loss"] < cfg.history[0]["loss"]
    if fraction == 1.0:
        # Trained on the expert alone, the student copies its choices on its own games.
        from tenpai.mcts.dropout import agreement

        planes = np.concatenate([t.planes for t in items])
        pi = np.concatenate([t.policy for t in items])
        safe = np.concatenate([t.safe for t in items if t.safe is not None])
        assert agreement(model, planes, pi, safe)["agreement"] > 0.3
        game = make_game(6, ("a", "b", "c", "d"))
        assert play(game, [DropoutAgent(model), DefensiveAgent(0)] * 2).done


@pytest.mark.parametrize("bad, message", [
    ({"expert_fraction": 0.5}, "go together"),
    ({"expert_data": "x.data"}, "go together"),
    ({"expert_data": "x.data", "expert_fraction": 1.5}, "expert_fraction must be in"),
])
def test_bad_expert_settings_are_refused(bad: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DropoutConfig(**bad)  # type: ignore[arg-type]


def test_the_agent_takes_every_legal_win_unless_told_to_leave_it_to_the_network(
    search_checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenpai.agents import make_agent
    from tenpai.agents.efficiency import EfficiencyAgent

    _p, model = train_dropout(DropoutConfig(data=str(search_checkpoint), size="tiny", steps=1,
                                            batch_size=4, out=str(tmp_path / "d.pt")))
    taker, net_only = DropoutAgent(model), DropoutAgent(model, take_wins=False)
    offers = choices = 0
    for seed in range(40):
        game = make_game(seed, ("a", "b", "c", "d"))
        agents = [EfficiencyAgent(i) for i in range(4)]
        while not game.done:
            answers = {}
            for d in game.pending():
                if any(e.type == "hora" for e in d.legal):
                    offers += 1
                    assert taker.act(d.observation, d.legal).type == "hora"
                    choices += net_only.act(d.observation, d.legal).type == "hora"
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
            game.step(answers)
        if offers >= 8:
            break
    assert offers >= 8 and choices < offers  # the untrained network declines some
    monkeypatch.setenv("TENPAI_DROPOUT_MODEL", str(tmp_path / "d.pt"))
    assert make_agent("dropout", 0).take_wins  # type: ignore[attr-defined]
    monkeypatch.setenv("TENPAI_DROPOUT_WINS", "network")
    assert not make_agent("dropout", 0).take_wins  # type: ignore[attr-defined]
    monkeypatch.setenv("TENPAI_DROPOUT_WINS", "sometimes")
    with pytest.raises(ValueError, match="TENPAI_DROPOUT_WINS must be always or network"):
        make_agent("dropout", 0)

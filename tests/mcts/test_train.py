"""The training loop: a seconds-long smoke run, resume after a kill, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from tenpai.mcts.agent import MCTSAgent
from tenpai.mcts.model import MCTSModel, MCTSModelError, ModelCard
from tenpai.mcts.replay import hand_results, trajectories
from tenpai.mcts.train import MCTSTrainConfig, train_mcts

TINY = ["--size", "tiny", "--simulations", "2", "--tables", "2", "--games-per-version", "1",
        "--steps-per-version", "3", "--batch-size", "8", "--unroll", "2"]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "from tenpai.cli.main import main; main()", *args]


def test_smoke_run_learns_something_and_writes_a_playable_model(tmp_path: Path) -> None:
    out = tmp_path / "m.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=3, tables=2,
                          games_per_version=1, steps_per_version=4, batch_size=8, unroll=2,
                          max_versions=1, tensorboard=str(tmp_path / "tb"))
    path, progress = train_mcts(cfg)
    assert path == out and out.exists()
    assert progress.version == 1 and progress.games == 1 and progress.steps == 4
    row = progress.history[0]
    assert row["policy"] > 0 and row["value"] >= 0 and np.isfinite(row["transition"])
    assert list((tmp_path / "tb").iterdir())
    model = MCTSModel.load(out)
    assert model.card.version == 1
    from tenpai.rules.suits108 import make_game

    d = make_game(4, ("a", "b", "c", "d")).pending()[0]
    assert MCTSAgent(model, simulations=2).act(d.observation, d.legal) in d.legal


def test_trajectories_order_claim_windows_and_targets() -> None:
    """A played game's hands become trajectories whose outcomes follow the deciders."""
    from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
    from tenpai.selfplay.vector import VectorRunner

    torch.manual_seed(0)
    agent = MCTSAgent(MCTSModel(ModelCard(size="tiny")), simulations=1)
    spec = SelfPlaySpec.series("suits108", [SeatSpec(agent)] * 4, 7, 1)
    (game,) = VectorRunner(spec, tables=1).run()
    results = hand_results(game.events)
    assert len(results) == 4 and all(sum(r) == 0 for r in results)
    trajs = trajectories(game, version=0)
    assert len(trajs) == 4
    for t, delta in zip(trajs, results):
        assert t.outcomes[-1] == 4  # (Δ 0, end)
        assert np.allclose(t.rewards[:-1], 0)
        assert np.allclose(t.values[-1], t.rewards[-1])
        signs = sorted(np.sign(delta))
        assert all(sorted(row) == signs for row in t.values)  # rotations of the result
        assert np.allclose(t.policy.sum(axis=1), 1, atol=1e-5)


def test_resume_after_kill(tmp_path: Path) -> None:
    out = tmp_path / "m.pt"
    ckpt = tmp_path / "m.pt.ckpt"
    args = _cli("train", "mcts", "--out", str(out), *TINY, "--max-versions", "2", "--json")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 300  # generous: the shared machine can be loaded 8x over
    while not ckpt.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert ckpt.exists(), proc.stderr.read().decode() if proc.stderr else ""
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["versions"] == 2 and summary["games"] == 2
    assert [int(r["version"]) for r in summary["history"]] == [1, 2]


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    runner = CliRunner()
    out = tmp_path / "m.pt"
    zero = runner.invoke(app, ["train", "mcts", "--out", str(out), "--simulations", "0"])
    assert zero.exit_code == 2 and zero.output.strip().count("\n") == 0
    assert "simulations" in zero.output
    for flag, value, says in (("--workers", "0", "workers must be a positive"),
                              ("--backend", "dask", "unknown backend 'dask'")):
        res = runner.invoke(app, ["train", "mcts", "--out", str(out), flag, value])
        assert res.exit_code == 2 and says in res.output
        assert res.output.strip().count("\n") == 0
    (tmp_path / "m.pt.ckpt").write_bytes(b"not a checkpoint")
    bad = runner.invoke(app, ["train", "mcts", "--out", str(out), *TINY, "--max-versions", "1"])
    assert bad.exit_code == 2 and "not a readable checkpoint" in bad.output
    assert bad.output.strip().count("\n") == 0
    assert not out.exists()


def test_model_files_of_other_rules_or_damaged_are_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.pt"
    MCTSModel(ModelCard(size="tiny")).save(good)
    MCTSModel.load(good)
    payload = torch.load(good, weights_only=True)
    for rules, encoder in (("mcr", "mzplanes@1"), ("riichi", "mzplanes@1")):
        other = tmp_path / f"{rules}.pt"
        payload["card_json"] = json.dumps({**json.loads(payload["card_json"]), "rules": rules,
                                           "encoder": encoder})
        torch.save(payload, other)
        with pytest.raises(MCTSModelError, match=f"rules '{rules}' / encoder 'mzplanes@1'"):
            MCTSModel.load(other)
    broken = tmp_path / "broken.pt"
    broken.write_bytes(good.read_bytes()[:100])
    with pytest.raises(MCTSModelError, match="not a readable model file"):
        MCTSModel.load(broken)


def test_warm_start_fills_the_buffer_with_a_teachers_won_hands(tmp_path: Path) -> None:
    out = tmp_path / "w.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                          games_per_version=1, steps_per_version=1, batch_size=4, unroll=1,
                          max_versions=1, warmup_games=1)
    train_mcts(cfg)
    buffer = torch.load(out.with_name(out.name + ".ckpt"), weights_only=True)["buffer"]
    # Version 0 holds the teacher's game and the first search game: four hands each.
    assert len([t for t in buffer if int(t["version"]) == 0]) == 8
    warm = buffer[:4]  # added first, kept in order
    for t in warm:
        pi = t["policy"].numpy()
        assert np.allclose(pi.max(axis=1), 1.0)  # one-hot on the teacher's choice
        assert np.array_equal(pi.argmax(axis=1), t["actions"].numpy())


def _start_model(tmp_path: Path, seed: int) -> Path:
    """A random tiny model file to start runs from (``--init``)."""
    torch.manual_seed(seed)
    start = tmp_path / "start.pt"
    MCTSModel(ModelCard(size="tiny")).save(start)
    return start


def test_a_frozen_run_only_plays(tmp_path: Path) -> None:
    """``steps_per_version=0``: the buffer fills with search games, the weights never move
    (strategy data from a fixed model, for dropout learning)."""
    start, out = _start_model(tmp_path, 1), tmp_path / "m.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                          games_per_version=1, steps_per_version=0, batch_size=8, unroll=1,
                          max_versions=2, init=str(start))
    _path, progress = train_mcts(cfg)
    assert progress.version == 2 and progress.games == 2 and progress.steps == 0
    assert progress.decisions > 0
    before = MCTSModel.load(start).net.state_dict()
    after = MCTSModel.load(out).net.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)
    with pytest.raises(ValueError, match="steps_per_version cannot be negative"):
        MCTSTrainConfig(steps_per_version=-1)


@pytest.mark.parametrize("bn_stats", ["update", "frozen"])
def test_batch_norm_statistics_update_or_stay_as_the_start_left_them(
    tmp_path: Path, bn_stats: str
) -> None:
    start, out = _start_model(tmp_path, 1), tmp_path / "m.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                          games_per_version=1, steps_per_version=3, batch_size=8, unroll=1,
                          max_versions=1, init=str(start), lr=0.01, bn_stats=bn_stats)
    train_mcts(cfg)
    before = MCTSModel.load(start).net.state_dict()
    after = MCTSModel.load(out).net.state_dict()
    stats = [k for k in before if "running_" in k]
    weights = [k for k in before if k.endswith("weight") and "running" not in k]
    assert stats and weights
    moved = [k for k in stats if not torch.equal(before[k], after[k])]
    assert (moved == []) == (bn_stats == "frozen")
    assert any(not torch.equal(before[k], after[k]) for k in weights)  # trained either way
    with pytest.raises(ValueError, match="bn_stats must be update or frozen"):
        MCTSTrainConfig(bn_stats="off")


def _same_weights(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("threshold", [0.0, 0.99])
def test_gating_keeps_the_best_version_for_self_play_and_the_model_file(
    tmp_path: Path, threshold: float
) -> None:
    """Each version plays the best so far; it replaces it only above the threshold, and the
    model file and the checkpoint's best weights are that best version (resumable)."""
    from tenpai.mcts.checkpoint import load_checkpoint

    start, out = _start_model(tmp_path, 2), tmp_path / "m.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                          games_per_version=1, steps_per_version=3, batch_size=8, unroll=1,
                          max_versions=2, init=str(start), gate_deals=1,
                          gate_threshold=threshold, lr=0.05)
    _path, progress = train_mcts(cfg)
    best = 0
    for row in progress.history:
        assert 0.0 <= row["gate_win_rate"] <= 1.0
        assert row["gate_low"] <= row["gate_win_rate"] <= row["gate_high"]
        assert bool(row["gate_accepted"]) == (row["gate_win_rate"] > threshold)
        best = int(row["version"]) if row["gate_accepted"] else best
        assert row["best_version"] == best
    assert progress.best_version == best
    if threshold == 0.0:
        assert best == 2  # every version that wins anything at all replaces the best
    payload = load_checkpoint(out.with_name(out.name + ".ckpt"))
    shipped = MCTSModel.load(out)
    assert shipped.card.version == best
    assert _same_weights(shipped.net.state_dict(), payload["best_state"])
    first = MCTSModel.load(start).net.state_dict()
    assert _same_weights(shipped.net.state_dict(), first) == (best == 0)
    assert not _same_weights(payload["state"], first)  # training went on either way
    # Resumed, the run carries on from the same best version.
    cfg.max_versions = 3
    _path, again = train_mcts(cfg)
    assert again.version == 3 and again.history[1]["best_version"] == best


def test_bad_gate_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="gate_deals cannot be negative"):
        MCTSTrainConfig(gate_deals=-1)
    with pytest.raises(ValueError, match="gate_simulations must be at least 1"):
        MCTSTrainConfig(gate_simulations=0)
    with pytest.raises(ValueError, match="gate_threshold must be in"):
        MCTSTrainConfig(gate_threshold=1.0)


def test_fig6_reads_the_gate_curve_from_the_card_or_an_older_runs_checkpoint(
    tmp_path: Path,
) -> None:
    import json

    from typer.testing import CliRunner

    from tenpai.cli.main import app
    from tenpai.mcts.figures import read_gate_curve

    start, out = _start_model(tmp_path, 4), tmp_path / "g.pt"
    cfg = MCTSTrainConfig(out=str(out), size="tiny", simulations=2, tables=2,
                          games_per_version=1, steps_per_version=3, batch_size=8, unroll=1,
                          max_versions=2, init=str(start), gate_deals=1, gate_simulations=3,
                          gate_threshold=0.99, lr=0.05, bn_stats="frozen")
    _path, progress = train_mcts(cfg)
    curve = read_gate_curve(out)
    assert (curve.simulations, curve.gate_simulations, curve.gate_deals) == (2, 3, 1)
    assert curve.bn_stats == "frozen" and "2 simulations, batch norm frozen" in curve.legend
    assert curve.steps == (3, 6)
    assert list(curve.win_rate) == [r["gate_win_rate"] for r in progress.history]
    assert curve.accepted == (False, False)
    # A model file from before the card kept the gates: read from its checkpoint.
    older = MCTSModel.load(out)
    del older.card.training["gates"]
    older.save(out)
    assert read_gate_curve(out).win_rate == curve.win_rate
    png = tmp_path / "fig6.png"
    res = CliRunner().invoke(app, ["eval", "fig6", str(out), "--out", str(png), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["runs"][0]["points"][1]["steps"] == 6
    assert png.read_bytes()[:4] == b"\x89PNG"
    ungated = CliRunner().invoke(app, ["eval", "fig6", str(start)])
    assert ungated.exit_code == 2
    assert "no gate results" in ungated.output and len(ungated.output.strip().splitlines()) == 1

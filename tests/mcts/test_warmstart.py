"""The supervised warm start (teacher games → all three networks) and starting search
self-play from it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tenpai.mcts.model import MCTSModel
from tenpai.mcts.replay import ReplayBuffer
from tenpai.mcts.train import CheckpointError, MCTSTrainConfig, _mixed_batch, train_mcts
from tenpai.mcts.warmstart import (
    WarmStartConfig,
    load_items,
    teacher_buffer,
    training_items,
    warm_start,
)


def _cfg(out: Path, **kw: object) -> WarmStartConfig:
    base: dict[str, object] = dict(out=str(out), games=3, holdout=1, steps=4, batch_size=8,
                                   unroll=2, size="tiny", tables=3, checkpoint_steps=2, seed=3)
    base.update(kw)
    return WarmStartConfig(**base)  # type: ignore[arg-type]


def test_warm_start_learns_the_teacher_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "w.pt"
    path, progress = warm_start(_cfg(out, steps=2))
    assert progress.games == 3 and progress.steps == 2
    games, items = load_items(out.with_name("w.pt.data"))
    assert games == 3 and sorted({t.version for t in items}) == [0, 1, 2]  # game tags
    for t in items:  # the teacher's choice, one-hot
        assert np.array_equal(t.policy.argmax(1), t.actions)
    assert {t.version for t in training_items(out.with_name("w.pt.data"))} == {0, 1}
    first = MCTSModel.load(path).card.training
    assert first["steps"] == 2 and "agreement" in first["held_out"]
    # The same command with more steps continues: no new games, two more steps.
    _path, more = warm_start(_cfg(out, steps=4))
    assert more.games == 3 and more.steps == 4 and len(more.history) == 2
    with pytest.raises(CheckpointError, match="teacher"):
        warm_start(_cfg(out, teacher="efficiency"))


def test_self_play_starts_from_the_warm_model_and_mixes_teacher_data(tmp_path: Path) -> None:
    warm = tmp_path / "w.pt"
    warm_start(_cfg(warm, steps=2))
    cfg = MCTSTrainConfig(out=str(tmp_path / "m.pt"), size="tiny", simulations=2, tables=1,
                          games_per_version=1, steps_per_version=1, batch_size=8, unroll=2,
                          max_versions=1, init=str(warm),
                          teacher_data=str(tmp_path / "w.pt.data"), teacher_fraction=0.5,
                          outcomes="chance", unvisited="parent")
    mine = ReplayBuffer(1)
    teacher = teacher_buffer(training_items(tmp_path / "w.pt.data"))
    assert {t.version for t in teacher.items} == {0, 1}  # every training game, not the last
    mine.add(teacher.items[:1])
    batch = _mixed_batch(mine, teacher, cfg, np.random.default_rng(0))
    assert batch["planes"].shape[0] == 8 and batch["policy"].shape[1] == 3
    # One version of search self-play from the warm weights.
    torch.manual_seed(0)
    before = dict(MCTSModel.load(warm).net.named_parameters())
    path, progress = train_mcts(cfg)
    assert progress.version == 1
    after = dict(MCTSModel.load(path).net.named_parameters())
    moved = max(float((after[k] - before[k]).detach().abs().max()) for k in before)
    assert 0 < moved < 1.0  # trained a step from the warm weights, not from scratch
    with pytest.raises(ValueError, match="teacher_data"):
        MCTSTrainConfig(teacher_fraction=0.3)

"""The optional KL anchor to the frozen start policy (``--kl-start``)."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.update import Batch, kl_to, masked_policy, reinforce_update


def _net(seed: int) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Flatten(), nn.Linear(6, 4))


def _batch(n: int = 32) -> Batch:
    rng = np.random.default_rng(0)
    legal = np.ones((n, 4), dtype=bool)
    legal[:, 3] = False  # one kind never legal: it must not count in the divergence
    return Batch(
        x=rng.normal(size=(n, 1, 6)).astype(np.float32),
        legal=legal,
        action=rng.integers(0, 3, size=n),
        logp_old=np.full(n, math.log(1 / 3), dtype=np.float32),
        returns=np.ones(n, dtype=np.float32),  # equal returns: zero advantage
    )


def test_the_divergence_is_the_textbook_one_over_the_legal_kinds() -> None:
    policy, anchor = _net(1), _net(2)
    b = _batch(4)
    x, legal = torch.from_numpy(b.x), torch.from_numpy(b.legal)
    logp, _ = masked_policy(policy, x, legal, 0.5)
    got = kl_to(anchor, x, legal, 0.5, logp)
    for row in range(4):
        with torch.no_grad():
            p = torch.softmax(policy(x[row : row + 1])[0, :3] / 0.5, dim=0)
            q = torch.softmax(anchor(x[row : row + 1])[0, :3] / 0.5, dim=0)
        want = float((p * (p.log() - q.log())).sum())
        assert float(got[row].detach()) == pytest.approx(want, rel=1e-5, abs=1e-7)
    assert torch.allclose(kl_to(policy, x, legal, 0.5, logp), torch.zeros(4), atol=1e-6)


def test_with_no_advantage_the_anchor_pulls_a_drifted_policy_back() -> None:
    anchor, batch = _net(1), _batch()
    drifted = _net(2)
    x, legal = torch.from_numpy(batch.x), torch.from_numpy(batch.legal)

    def divergence(m: nn.Module) -> float:
        logp = masked_policy(m, x, legal, 1.0)[0]
        return float(kl_to(anchor, x, legal, 1.0, logp).mean().detach())

    free, pulled = copy.deepcopy(drifted), copy.deepcopy(drifted)
    before = divergence(drifted)
    for module, coef in ((free, 0.0), (pulled, 1.0)):
        opt = torch.optim.Adam(module.parameters(), lr=0.05)
        for _ in range(20):
            stats = reinforce_update(module, opt, batch, entropy_coef=0.0, anchor=anchor,
                                     kl_coef=coef)
    assert divergence(free) == pytest.approx(before, rel=1e-6)  # nothing to learn from
    assert divergence(pulled) < 0.5 * before
    assert stats.kl_start == pytest.approx(divergence(pulled), rel=0.5)


def test_a_run_with_the_anchor_logs_its_divergence(tmp_path: Path) -> None:
    cfg = PGConfig(rules="mcr", options={"preset": "botzone"}, out=str(tmp_path / "pg.pt"),
                   games_per_update=4, tables=4, max_games=8, minutes=5, lr=1e-3,
                   checkpoint_minutes=0.0, reward=RewardConfig(points_scale=24.0), kl_start=0.5)
    _, progress = train_pg(cfg)
    first, second = progress.history
    assert first["kl_start"] == pytest.approx(0.0, abs=1e-6)  # the learner starts as the start
    assert second["kl_start"] > 0.0


def test_the_anchor_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="kl_start"):
        PGConfig(kl_start=-0.1)
    with pytest.raises(ValueError, match="KL anchor"):
        PGConfig(estimator="vine", kl_start=0.1)

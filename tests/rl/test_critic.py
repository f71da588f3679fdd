"""The learned baseline: it learns returns, it is what the advantage subtracts, its warm-up
leaves the policy alone, and it travels in checkpoints."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tenpai.models.bundle import ModelBundle
from tenpai.models.resnet import KindResNet
from tenpai.rl.checkpoint import CheckpointError, PGCheckpoint, checkpoint_path
from tenpai.rl.critic import fit_critic, make_critic, predict_values
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.update import Batch, reinforce_update

MCR = {"preset": "botzone"}


def _cfg(out: Path, **kw: object) -> PGConfig:
    base: dict[str, object] = dict(
        rules="mcr", options=MCR, out=str(out), games_per_update=4, tables=4, max_games=8,
        minutes=5, lr=1e-3, checkpoint_minutes=0.0, reward=RewardConfig(points_scale=24.0),
        baseline="critic", critic_lr=1e-3,
    )
    base.update(kw)
    return PGConfig(**base)  # type: ignore[arg-type]


def test_a_new_critic_predicts_zero_and_keeps_the_policy_untouched() -> None:
    torch.manual_seed(0)
    policy = KindResNet(3, 34, width=8, blocks=1)
    before = {k: v.clone() for k, v in policy.state_dict().items()}
    critic = make_critic(policy)
    x = np.random.default_rng(0).random((5, 3, 34)).astype(np.float32)
    assert np.array_equal(predict_values(critic, x), np.zeros(5))
    assert critic(torch.from_numpy(x)).shape == (5, 1)
    assert all(torch.equal(before[k], v) for k, v in policy.state_dict().items())


def test_the_critic_learns_a_return_that_its_input_determines() -> None:
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    critic = make_critic(KindResNet(2, 34, width=8, blocks=1, dropout=0.0))
    opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    x = rng.integers(0, 4, size=(512, 2, 34)).astype(np.float32)
    y = (x[:, 0, :9].sum(axis=1) - x[:, 1, 27:].sum(axis=1)) / 10.0
    first = fit_critic(critic, opt, x, y, epochs=1, generator=rng)
    for _ in range(30):
        last = fit_critic(critic, opt, x, y, epochs=1, generator=rng)
    assert first.explained_variance < 0.05
    assert last.explained_variance > 0.5 > first.explained_variance
    assert last.mse_before < first.mse_before / 3


def _batch(returns: list[float]) -> Batch:
    n = len(returns)
    rng = np.random.default_rng(2)
    legal = np.zeros((n, 34), dtype=bool)
    legal[:, :5] = True
    return Batch(
        x=rng.random((n, 3, 34)).astype(np.float32),
        legal=legal,
        action=np.arange(n, dtype=np.int64) % 5,
        logp_old=np.full(n, -np.log(5.0), dtype=np.float32),
        returns=np.asarray(returns, dtype=np.float32),
    )


def test_a_critic_that_knows_every_return_leaves_nothing_to_learn() -> None:
    """Advantage = return - V(s): with V equal to the returns there is no gradient, while the
    mean baseline on the same batch moves the weights."""
    batch = _batch([1.0, -1.0, 0.5, 2.0, -0.3, 0.0])
    for values, moved in ((batch.returns.astype(np.float64), False), (None, True)):
        torch.manual_seed(3)
        policy = KindResNet(3, 34, width=8, blocks=1, dropout=0.0)
        start = {k: v.clone() for k, v in policy.state_dict().items()}
        opt = torch.optim.SGD(policy.parameters(), lr=0.5)
        reinforce_update(policy, opt, batch, entropy_coef=0.0,
                         baseline="critic" if values is not None else "mean", values=values)
        changed = any(not torch.equal(start[k], v) for k, v in policy.state_dict().items())
        assert changed is moved


def test_the_critic_baseline_needs_one_value_per_decision() -> None:
    policy = KindResNet(3, 34, width=8, blocks=1)
    opt = torch.optim.Adam(policy.parameters())
    with pytest.raises(ValueError, match="one value per decision"):
        reinforce_update(policy, opt, _batch([1.0, 2.0]), entropy_coef=0.0, baseline="critic")
    with pytest.raises(ValueError, match="baseline"):
        PGConfig(baseline="median")


def test_warm_up_games_teach_the_critic_only_then_the_policy_learns(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    _, progress = train_pg(_cfg(out, max_games=4, critic_warmup=4))
    ckpt = PGCheckpoint.load(checkpoint_path(out))
    start = ModelBundle.load(Path(_default_mcr())).heads["discard"].module.state_dict()
    assert all(torch.equal(start[k].float(), ckpt.policy_state[k].float()) for k in start)
    assert ckpt.critic_state and ckpt.critic_optimizer_state
    assert progress.history[0]["policy_step"] == 0.0
    # The same command with a larger budget continues: the critic is restored, the policy moves.
    _, progress = train_pg(_cfg(out, max_games=8, critic_warmup=4))
    assert [h["policy_step"] for h in progress.history] == [0.0, 1.0]
    ckpt2 = PGCheckpoint.load(checkpoint_path(out))
    assert any(not torch.equal(start[k].float(), ckpt2.policy_state[k].float()) for k in start)
    assert all(np.isfinite(h["critic_mse"]) for h in progress.history)


def test_a_mean_baseline_checkpoint_is_not_continued_with_a_critic(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, max_games=4, baseline="mean"))
    with pytest.raises(CheckpointError, match="baseline"):
        train_pg(_cfg(out, max_games=8))


def _default_mcr() -> str:
    from tenpai.agents.sl_mcr import resolve_mcr_model_path

    return str(resolve_mcr_model_path("default"))

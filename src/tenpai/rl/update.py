"""One REINFORCE update from a batch of finished self-play games (seed 002, eqs. 3–4).

The loss of a batch of sampled discards is

    L = - mean_t( A_t * log pi(a_t | s_t) ) - alpha * mean_t( H(pi(. | s_t)) )
        + beta * mean_t( KL(pi(. | s_t) || pi_start(. | s_t)) )

with the policy restricted to the legal kinds of each decision (the same masking as supervised
training), ``A_t`` the return of decision ``t`` less a baseline (the batch mean, 002's "with a
baseline", or a learned ``V(s_t)``, :mod:`tenpai.rl.critic`), divided by the batch's standard
deviation so that the learning rate does not have to follow the reward's scale, and ``H`` the
entropy bonus of eq. 4.  The last term is not 002's: an optional anchor to the frozen start
policy (``--kl-start``, beta 0 by default).  Every Riichi arm measured so far drifted away from
the start's folding (it breaks its hand under riichi half as often as the start), and the
anchor prices any such drift by how far the whole distribution moves.  Batch normalisation
stays in evaluation mode: its statistics come from the supervised data and small RL batches
would only shake them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn

from tenpai.rl.policy import samples_of
from tenpai.rl.rewards import RewardConfig, returns
from tenpai.selfplay.trajectory import PlayedGame

__all__ = [
    "BASELINES", "Batch", "UpdateStats", "collect_batch", "gradient_step", "kl_to",
    "masked_policy", "reinforce_update",
]

BASELINES = ("mean", "none", "critic")
_NEG = -1e9


@dataclass(slots=True)
class Batch:
    """Sampled discards of some games, as arrays ready for the network."""

    x: np.ndarray
    legal: np.ndarray
    action: np.ndarray
    logp_old: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.action)


@dataclass(frozen=True, slots=True)
class UpdateStats:
    """What one update did (logged to TensorBoard and the model card's history)."""

    samples: int
    loss: float
    entropy: float
    mean_return: float
    approx_kl: float
    #: Mean KL(pi || pi_start) over the batch, at the training temperature (0 without anchor).
    kl_start: float = 0.0
    #: False when the update only measured (a critic warm-up): the weights did not move.
    stepped: bool = True


def collect_batch(games: Sequence[PlayedGame], reward: RewardConfig,
                  head: str = "discard") -> Batch:
    """The sampled decisions of ``head`` in ``games`` with their returns.

    Decisions without a sample of that head are not trained: in 002 only discards are sampled,
    and calls, riichi and wins keep the supervised heads.  A learner that samples the riichi,
    pon or chi head too (``SamplingSLAgent(heads=...)``) is trained on those decisions with the
    outcome alone: the win-distance shaping is 002's price on discards, and a call's or a
    riichi's shanten step is not what the head chooses."""
    xs: list[np.ndarray] = []
    legal: list[np.ndarray] = []
    action: list[int] = []
    logp: list[float] = []
    rets: list[float] = []
    cfg = reward if head == "discard" else replace(reward, shaping=0.0)
    for g in games:
        samples = [(s.seat, info) for s in g.steps for info in samples_of(s.info)
                   if info.head == head]
        if not samples:
            continue
        decisions = [(seat, info.hand, info.shanten_after) for seat, info in samples]
        rets += returns(decisions, g.events, g.final_scores, cfg)
        for _seat, info in samples:
            xs.append(info.x)
            legal.append(info.legal)
            action.append(info.action)
            logp.append(info.logp)
    if not xs:
        what = "discard" if head == "discard" else f"{head} decision"
        raise ValueError(f"the games hold no sampled {what} to learn from")
    return Batch(
        x=np.stack(xs).astype(np.float32),
        legal=np.stack(legal),
        action=np.asarray(action, dtype=np.int64),
        logp_old=np.asarray(logp, dtype=np.float32),
        returns=np.asarray(rets, dtype=np.float32),
    )


def masked_policy(
    module: nn.Module, x: torch.Tensor, legal: torch.Tensor, temperature: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities over the legal kinds (``legal`` a boolean mask) and each row's entropy:
    the policy both estimators differentiate, masked exactly as supervised training is."""
    logits = (module(x) / temperature).masked_fill(~legal, _NEG)
    logp_all = torch.log_softmax(logits, dim=1)
    entropy = -(logp_all.exp() * logp_all.masked_fill(~legal, 0.0)).sum(dim=1)
    return logp_all, entropy


def kl_to(
    anchor: nn.Module, x: torch.Tensor, legal: torch.Tensor, temperature: float,
    logp_all: torch.Tensor,
) -> torch.Tensor:
    """Each row's KL(pi || anchor) over the legal kinds, ``pi`` given by its log-probabilities
    ``logp_all`` (differentiable); the anchor is frozen (no gradient)."""
    with torch.no_grad():
        ref, _ = masked_policy(anchor, x, legal, temperature)
    terms = logp_all.exp() * (logp_all - ref)
    return terms.masked_fill(~legal, 0.0).sum(dim=1)


def gradient_step(
    module: nn.Module, optimizer: torch.optim.Optimizer, loss: torch.Tensor, max_grad_norm: float
) -> None:
    """One optimizer step on ``loss`` with the gradient norm clipped (RL gradients spike)."""
    optimizer.zero_grad(set_to_none=True)
    loss.backward()  # type: ignore[no-untyped-call]
    nn.utils.clip_grad_norm_(module.parameters(), max_grad_norm)
    optimizer.step()


def reinforce_update(
    module: nn.Module,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    *,
    entropy_coef: float,
    temperature: float = 1.0,
    baseline: str = "mean",
    minibatch: int = 1024,
    max_grad_norm: float = 1.0,
    generator: np.random.Generator | None = None,
    values: np.ndarray | None = None,
    step: bool = True,
    anchor: nn.Module | None = None,
    kl_coef: float = 0.0,
) -> UpdateStats:
    """One pass over ``batch`` in shuffled minibatches; returns what it measured.

    With ``baseline="critic"``, ``values`` holds the critic's ``V(s)`` of every decision of the
    batch, predicted before this update (the advantage is the return less it).  ``step=False``
    measures the loss, entropy and KL without moving the weights.  ``anchor`` is the frozen
    start module; with ``kl_coef > 0`` the loss adds ``kl_coef * KL(pi || anchor)``."""
    if baseline not in BASELINES:
        raise ValueError(f"baseline {baseline!r}; choose {', '.join(BASELINES)}")
    adv = batch.returns.astype(np.float64)
    if baseline == "mean":
        adv = adv - adv.mean()
    elif baseline == "critic":
        if values is None or len(values) != len(adv):
            raise ValueError("the critic baseline needs one value per decision of the batch")
        adv = adv - values
    std = adv.std()
    if std > 1e-8:
        adv = adv / std
    order = (generator or np.random.default_rng(0)).permutation(len(batch))
    module.eval()
    total_loss = total_entropy = total_kl = total_kl_start = 0.0
    for start in range(0, len(order), minibatch):
        idx = order[start : start + minibatch]
        x = torch.from_numpy(batch.x[idx])
        legal = torch.from_numpy(batch.legal[idx])
        act = torch.from_numpy(batch.action[idx])
        a = torch.from_numpy(adv[idx].astype(np.float32))
        logp_all, entropy = masked_policy(module, x, legal, temperature)
        logp = logp_all.gather(1, act[:, None]).squeeze(1)
        loss = -(a * logp).mean() - entropy_coef * entropy.mean()
        if anchor is not None:
            kl_start = kl_to(anchor, x, legal, temperature, logp_all)
            loss = loss + kl_coef * kl_start.mean()
            total_kl_start += float(kl_start.detach().sum())
        if step:
            gradient_step(module, optimizer, loss, max_grad_norm)
        n = len(idx)
        total_loss += float(loss.detach()) * n
        total_entropy += float(entropy.detach().sum())
        old = torch.from_numpy(batch.logp_old[idx])
        total_kl += float((old - logp.detach()).sum())
    n_all = len(batch)
    return UpdateStats(
        samples=n_all,
        loss=total_loss / n_all,
        entropy=total_entropy / n_all,
        mean_return=float(batch.returns.mean()),
        approx_kl=total_kl / n_all,
        kl_start=total_kl_start / n_all,
        stepped=step,
    )

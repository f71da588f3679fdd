"""The loss both trainings of the search model minimise: eq. 10, unrolled ``unroll`` steps.

Self-play training (:mod:`tenpai.mcts.train`) and the supervised warm start
(:mod:`tenpai.mcts.warmstart`) fit all three networks with it, on batches of the replay buffer.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from tenpai.mcts.features import transition_planes
from tenpai.mcts.packed_planes import unpack
from tenpai.mcts.rulesets import SearchRules, search_rules
from tenpai.models.muzero import MuZeroNet

__all__ = ["unrolled_loss"]


def unrolled_loss(
    net: MuZeroNet, batch: dict[str, torch.Tensor], unroll: int, use_reward: bool,
    rules: SearchRules | None = None,
) -> tuple[torch.Tensor, dict[str, float]]:
    """eq. 10 over ``unroll`` steps (plus the reward and transition terms): the sum over steps
    of the value MSE summed over players and the policy cross-entropy, averaged over the
    batch; the gradient into each next state is halved (MuZero's scaling).  ``rules``: the
    batch's rule set (default the 108-tile game)."""
    rules = rules or search_rules("suits108")
    group_of = torch.from_numpy(rules.tables.group)
    planes = torch.from_numpy(unpack(batch["planes"].numpy(), rules.wall_scale))
    state = net.represent(planes)
    parts = {"policy": torch.zeros(()), "value": torch.zeros(()), "reward": torch.zeros(()),
             "transition": torch.zeros(())}
    b = planes.shape[0]
    for k in range(unroll + 1):
        pred = net.predict(state)
        pm = batch["pmask"][:, k]
        logp = F.log_softmax(pred.policy, dim=1)
        parts["policy"] = parts["policy"] - (pm * (batch["policy"][:, k] * logp).sum(1)).sum() / b
        parts["value"] = parts["value"] + ((pred.value - batch["values"][:, k]) ** 2).sum() / b
        if k == unroll:
            break
        actions = batch["actions"][:, k]
        groups = group_of[actions]
        dyn = (groups >= 0).float() * batch["omask"][:, k]
        if dyn.sum() > 0:
            logits = pred.transition[torch.arange(b), groups.clamp_min(0)]
            ce = F.cross_entropy(logits, batch["outcomes"][:, k], reduction="none")
            parts["transition"] = parts["transition"] + (dyn * ce).sum() / b
        t = torch.from_numpy(
            transition_planes(actions.numpy(), batch["outcomes"][:, k].numpy(), rules.tables)
        )
        state, reward = net.dynamics(state, t)
        if use_reward:
            parts["reward"] = parts["reward"] + ((reward - batch["rewards"][:, k]) ** 2).sum() / b
        state = 0.5 * state + 0.5 * state.detach()
    total = parts["policy"] + parts["value"] + parts["reward"] + parts["transition"]
    return total, {k: float(v.detach()) for k, v in parts.items()}

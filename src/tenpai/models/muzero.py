"""The three networks of seed 000's internalized MDP (a MuZero-style model for four players).

* representation ``I_θ``: perfect-information planes (C, 27) → internal state (W, 27);
* dynamics ``T_μ``: internal state + the transition planes of Table 2 (action, tile, change of
  the player position, the next player's state) → next internal state and a reward vector;
* prediction ``E_σ``: internal state → prior policy over the action ids, the transition
  distribution ``q`` of the dynamic actions (Section 3.1.4: which position change and player
  state a discard, an added kong or a pass leads to) and the value vector, one per player, in
  the relative order of the node's player.

Bodies are residual blocks of two 3×1 convolutions with batch norm over the 27 suited kinds
(a 1-D convolution along the kind axis is exactly the paper's 3×1 kernel on 27×1 planes);
Riichi's planes run over its 34 kinds (``kinds``), the honours after the suits.
The paper's size is :data:`SIZES` ``["paper"]`` (12 blocks, 128 channels); the CPU default is
``"small"``.  Internal states are min-max scaled to [0, 1] per sample, as MuZero does, so the
dynamics sees states of one scale at every depth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import torch
from torch import nn

__all__ = ["SIZES", "MuZeroNet", "NetSize", "Prediction"]

KINDS: Final = 27


@dataclass(frozen=True, slots=True)
class NetSize:
    """Width (channels) and depth (residual blocks of the representation and dynamics)."""

    channels: int
    blocks: int


#: Named sizes: the paper's (Section 3.1.5) and CPU-sized ones.
SIZES: Final[dict[str, NetSize]] = {
    "paper": NetSize(128, 12),
    "medium": NetSize(64, 6),
    "small": NetSize(32, 3),
    "tiny": NetSize(16, 1),
}


@dataclass(frozen=True, slots=True)
class Prediction:
    """What ``E_σ`` says about a batch of internal states."""

    policy: torch.Tensor  # (B, actions) logits
    transition: torch.Tensor  # (B, groups, outcomes) logits
    value: torch.Tensor  # (B, players) in [-1, 1], relative to the node's player


class _Block(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.a = nn.Conv1d(width, width, 3, padding=1, bias=False)
        self.na = nn.BatchNorm1d(width)
        self.b = nn.Conv1d(width, width, 3, padding=1, bias=False)
        self.nb = nn.BatchNorm1d(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.na(self.a(x)))
        return torch.relu(x + self.nb(self.b(y)))


def _body(cin: int, width: int, blocks: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv1d(cin, width, 3, padding=1, bias=False),
        nn.BatchNorm1d(width),
        nn.ReLU(),
        *(_Block(width) for _ in range(blocks)),
    )


def _scale(s: torch.Tensor) -> torch.Tensor:
    """Min-max scale each sample's state to [0, 1]."""
    flat = s.flatten(1)
    lo = flat.min(dim=1, keepdim=True).values
    hi = flat.max(dim=1, keepdim=True).values
    return ((flat - lo) / (hi - lo).clamp_min(1e-5)).view_as(s)


class _VectorHead(nn.Module):
    """A few 1×1 channels, flattened, then a small MLP to ``out`` numbers."""

    def __init__(self, width: int, mid: int, hidden: int, out: int, kinds: int = KINDS) -> None:
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(width, mid, 1), nn.BatchNorm1d(mid), nn.ReLU())
        self.mlp = nn.Sequential(
            nn.Flatten(), nn.Linear(mid * kinds, hidden), nn.ReLU(), nn.Linear(hidden, out)
        )

    def forward(self, s: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.mlp(self.conv(s))
        return out


class MuZeroNet(nn.Module):
    """Representation, dynamics and prediction as one module (trained jointly, Fig. 4)."""

    def __init__(
        self,
        in_planes: int,
        transition_planes: int,
        actions: int,
        groups: int,
        outcomes: int,
        players: int = 4,
        channels: int = 32,
        blocks: int = 3,
        kinds: int = KINDS,
    ) -> None:
        super().__init__()
        self.players = players
        self.groups = groups
        self.outcomes = outcomes
        self.representation = _body(in_planes, channels, blocks)
        self.dynamics_body = _body(channels + transition_planes, channels, blocks)
        self.reward_head = _VectorHead(channels, 4, 64, players, kinds)
        self.policy_head = _VectorHead(channels, 8, 256, actions, kinds)
        self.transition_head = _VectorHead(channels, 8, 256, groups * outcomes, kinds)
        self.value_head = _VectorHead(channels, 4, 64, players, kinds)

    def represent(self, planes: torch.Tensor) -> torch.Tensor:
        """``s⁰ = I_θ(O_t)`` (eq. 1): planes (B, C, 27) → state (B, W, 27)."""
        return _scale(self.representation(planes))

    def dynamics(
        self, state: torch.Tensor, transition: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``sᵏ = T_μ(sᵏ⁻¹, aᵏ)`` (eq. 3) and the reward vector of that transition (relative to
        the acting player, in [-1, 1])."""
        nxt = self.dynamics_body(torch.cat([state, transition], dim=1))
        return _scale(nxt), torch.tanh(self.reward_head(nxt))

    def predict(self, state: torch.Tensor) -> Prediction:
        """``pᵏ × qᵏ, vᵏ = E_σ(sᵏ)`` (eq. 4)."""
        b = state.shape[0]
        return Prediction(
            policy=self.policy_head(state),
            transition=self.transition_head(state).view(b, self.groups, self.outcomes),
            value=torch.tanh(self.value_head(state)),
        )

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        """Policy logits of the representation's state (what ``mcts_prior`` plays)."""
        return self.predict(self.represent(planes)).policy


class NormalNet(nn.Module):
    """The normal (imperfect-information) agent of Section 3.2.2 / Fig. 5: the same planes
    (multiplied by the Bernoulli matrix λ in training), residual blocks, a policy head."""

    def __init__(self, in_planes: int, actions: int, channels: int = 32, blocks: int = 3,
                 kinds: int = KINDS) -> None:
        super().__init__()
        self.body = _body(in_planes, channels, blocks)
        self.policy_head = _VectorHead(channels, 8, 256, actions, kinds)

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.policy_head(self.body(planes))
        return out

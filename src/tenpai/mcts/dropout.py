"""Dropout learning (seed 000, Section 3.2): a normal agent trained on the search's strategy.

The training data are the search model's decisions — input planes with perfect information and
the search policy π — taken from the replay buffer of a ``tenpai train mcts`` checkpoint.  The
normal agent's input is the planes multiplied by a Bernoulli matrix λ (eq. 11): λ = 1 on the
features a normal player has (Table 4: own hand, discards, melds, scores, and our public extras)
and λ ~ B(1, p) on the others (the other hands and the wall), drawn afresh per sample and per
element at every step.  ``p`` starts at 1 and falls by ``decay_rate`` (0.1) every
``decay_steps`` steps down to 0 (Table A2 / Table 5: 60,000 steps); evaluation uses p = 0, so
the agent never needs hidden information.  The baseline of Fig. 8 uses p = 0 throughout
(``baseline=True``).  Loss (eq. 12): cross-entropy to π over the legal ids, plus L2 (weight
decay); Adam with the betas of Table 5 (0.9, 0.99).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch
import torch.nn.functional as F

from tenpai.mcts.actions import NUM_ACTIONS
from tenpai.mcts.features import ENCODER, PLANES
from tenpai.mcts.replay import Trajectory
from tenpai.models.muzero import SIZES, NormalNet
from tenpai.models.torchfile import load_tagged, save_atomic

__all__ = ["HIDDEN_PLANES", "DropoutConfig", "DropoutModel", "keep_probability", "train_dropout"]

FORMAT: Final = "tenpai-dropout/1"
#: Planes outside Table 4's imperfect-information features: the other hands, the wall.
HIDDEN_PLANES: Final = tuple(range(4, 16)) + tuple(range(64, 74))


@dataclass(slots=True)
class DropoutConfig:
    data: str = "runs/mcts.pt.ckpt"
    out: str = "runs/dropout.pt"
    size: str = "small"
    steps: int = 2000
    batch_size: int = 128
    lr: float = 0.001
    weight_decay: float = 1e-4
    decay_rate: float = 0.1
    decay_steps: int = 150
    baseline: bool = False
    seed: int = 0
    threads: int = 1
    history: list[dict[str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise ValueError(f"unknown size {self.size!r}; known: {', '.join(SIZES)}")
        for name in ("steps", "batch_size", "decay_steps"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")


def keep_probability(step: int, cfg: DropoutConfig) -> float:
    """p at ``step``: 1, then lowered by ``decay_rate`` every ``decay_steps``; 0 for the
    baseline."""
    if cfg.baseline:
        return 0.0
    return max(0.0, round(1.0 - cfg.decay_rate * (step // cfg.decay_steps), 10))


class DropoutModel:
    """The normal agent's network and card; same file conventions as the search model."""

    def __init__(self, size: str = "small", card: dict[str, Any] | None = None) -> None:
        s = SIZES[size]
        self.size = size
        self.card = card or {}
        self.net = NormalNet(PLANES, NUM_ACTIONS, s.channels, s.blocks)

    def save(self, path: Path) -> None:
        payload = {"format": FORMAT, "size": self.size, "encoder": ENCODER,
                   "card_json": json.dumps(self.card, sort_keys=True),
                   "state": {k: v.detach().clone() for k, v in self.net.state_dict().items()}}
        path.parent.mkdir(parents=True, exist_ok=True)
        save_atomic(payload, path)

    @classmethod
    def load(cls, path: Path) -> DropoutModel:
        from tenpai.mcts.model import MCTSModelError

        payload = load_tagged(path, FORMAT, MCTSModelError)
        if payload.get("encoder") != ENCODER or payload.get("size") not in SIZES:
            raise MCTSModelError(f"{path}: encoder or size this version cannot read")
        try:
            model = cls(str(payload["size"]), json.loads(payload["card_json"]))
            model.net.load_state_dict(payload["state"])
        except (KeyError, TypeError, ValueError, RuntimeError) as exc:
            raise MCTSModelError(f"{path}: card or weights missing or garbled: {exc}") from None
        return model


def _strategy_data(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(planes uint8 (N, 129, 27), π (N, 229)) from a search-training checkpoint's buffer."""
    from tenpai.mcts.train import _load_checkpoint

    payload = _load_checkpoint(path)
    trajs = [Trajectory.from_tensors(t) for t in payload.get("buffer", [])]
    if not trajs:
        raise ValueError(f"{path}: the checkpoint holds no strategy data")
    return (np.concatenate([t.planes for t in trajs]),
            np.concatenate([t.policy for t in trajs]))


def train_dropout(cfg: DropoutConfig) -> tuple[Path, DropoutModel]:
    """Fit the normal agent to the search's π with the decaying Bernoulli mask."""
    from tenpai.agents.mcts import unpack

    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    planes, pi = _strategy_data(Path(cfg.data))
    rng = np.random.default_rng(cfg.seed)
    model = DropoutModel(cfg.size)
    opt = torch.optim.Adam(model.net.parameters(), lr=cfg.lr, betas=(0.9, 0.99),
                           weight_decay=cfg.weight_decay)
    hidden = torch.tensor(HIDDEN_PLANES)
    model.net.train()
    for step in range(cfg.steps):
        idx = rng.integers(len(planes), size=cfg.batch_size)
        x = torch.from_numpy(unpack(planes[idx]))
        p = keep_probability(step, cfg)
        lam = torch.from_numpy((rng.random((len(idx), len(HIDDEN_PLANES), 27)) < p)
                               .astype(np.float32))
        x[:, hidden] = x[:, hidden] * lam
        target = torch.from_numpy(pi[idx])
        logits = model.net(x)  # over all ids; play masks to the legal ones
        loss = -(target * F.log_softmax(logits, dim=1)).sum(1).mean()
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        if step % 50 == 0 or step == cfg.steps - 1:
            cfg.history.append({"step": step, "p": p, "loss": float(loss.detach())})
    model.net.eval()
    model.card = {**asdict(cfg), "samples": len(planes)}
    out = Path(cfg.out)
    model.save(out)
    return out, model

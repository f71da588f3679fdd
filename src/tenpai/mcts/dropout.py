"""Dropout learning (seed 000, Section 3.2): a normal agent trained on the search's strategy.

The training data are the search model's decisions — input planes with perfect information and
the search policy π — taken from the replay buffer of a ``tenpai train mcts`` checkpoint.  The
normal agent's input is the planes multiplied by a Bernoulli matrix λ (eq. 11): λ = 1 on the
features a normal player has (Table 4: own hand, discards, melds, scores, and our public extras)
and λ ~ B(1, p) on the others (the other hands and the wall), drawn afresh per sample and per
element at every step.  ``p`` starts at 1 and falls by ``decay_rate`` (0.1) every
``decay_steps`` steps down to 0 (Table A2 / Table 5: 60,000 steps); evaluation uses p = 0, so
the agent never needs hidden information.  The baseline of Fig. 8 uses p = 0 throughout
(``baseline=True``).  With ``safety=True`` (ours) the normal agent also reads three public
safety planes the search's data carry (``features.safety_planes``: for each opponent, the kinds
passed since its hand last changed) — the order of the rivers, which the thermometer planes
lose and which the search, seeing every hand, never needs.  Also ours: ``expert_fraction`` of
every batch can come from a rule agent's games (π one-hot on its choice), as the search model's
own training keeps a share on its teacher's games — a perfect-information teacher never has to
fold, so its student never sees folding (docs/mcts.md).  Loss (eq. 12): cross-entropy to
π over the legal ids, plus L2 (weight decay); Adam with the betas of Table 5 (0.9, 0.99).

Two measures the paper reports are kept in ``history`` as training goes: the agreement of the
p = 0 agent with the search's most visited action on hands held out of training (whole hands,
because the decisions of one hand are not independent), and Fig. 8's rating — Tenhou's stable
dan (formula 13) of the agent against three ``eval_opponent`` seats
(:func:`tenpai.selfplay.rating.rate_against`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from tenpai.mcts.agent import DropoutAgent
from tenpai.mcts.checkpoint import ADDED_LATER, load_checkpoint
from tenpai.mcts.config_checks import check_counts, check_network
from tenpai.mcts.dropout_model import DropoutModel
from tenpai.mcts.features import HIDDEN_PLANES
from tenpai.mcts.packed_planes import unpack
from tenpai.mcts.replay import Trajectory
from tenpai.mcts.warmstart import training_items

__all__ = ["HIDDEN_PLANES", "DropoutConfig", "DropoutModel", "agreement", "keep_probability",
           "train_dropout"]

@dataclass(slots=True)
class DropoutConfig:
    #: One ``tenpai train mcts`` checkpoint, or several (their buffers are pooled).
    data: str | tuple[str, ...] = "runs/mcts.pt.ckpt"
    out: str = "runs/dropout.pt"
    #: Rule set of the strategy data (``tenpai.mcts.rulesets``).
    rules: str = "suits108"
    size: str = "small"
    steps: int = 2000
    batch_size: int = 128
    lr: float = 0.001
    weight_decay: float = 1e-4
    decay_rate: float = 0.1
    decay_steps: int = 150
    baseline: bool = False
    #: Give the normal agent the public safety planes too (needs data recorded with them).
    safety: bool = False
    #: A rule agent's games (a ``tenpai train mcts-warm`` ``.data`` file, its training part)
    #: and the share of every batch drawn from them (ours, not the paper's; 0 = off).
    expert_data: str | None = None
    expert_fraction: float = 0.0
    seed: int = 0
    threads: int = 1
    #: Share of the hands kept out of training to measure agreement on (0 = none).
    holdout: float = 0.0
    #: Rate the agent against ``eval_opponent`` every this many steps (0 = never) and at the
    #: end, over ``eval_deals`` deals × 4 seats from ``eval_seed`` on.
    eval_every: int = 0
    eval_deals: int = 16
    eval_opponent: str = "defensive"
    eval_seed: int = 50_000_000
    history: list[dict[str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_network(self.rules, self.size)
        check_counts(self, ("steps", "batch_size", "decay_steps", "eval_deals"))
        if not 0 <= self.holdout < 1:
            raise ValueError(f"holdout must be in [0, 1), got {self.holdout}")
        if not 0 <= self.expert_fraction <= 1:
            raise ValueError(f"expert_fraction must be in [0, 1], got {self.expert_fraction}")
        if (self.expert_fraction > 0) != bool(self.expert_data):
            raise ValueError("expert_data and a positive expert_fraction go together")
        if self.eval_every < 0:
            raise ValueError(f"eval_every cannot be negative, got {self.eval_every}")
        if self.eval_every:
            from tenpai.agents.registry import AGENTS, is_known_agent

            if not is_known_agent(self.eval_opponent):
                raise ValueError(f"unknown agent {self.eval_opponent!r}; known: "
                                 f"{', '.join(sorted(AGENTS))}")

    @property
    def data_paths(self) -> tuple[Path, ...]:
        return tuple(Path(d) for d in ((self.data,) if isinstance(self.data, str)
                                       else self.data))


def keep_probability(step: int, cfg: DropoutConfig) -> float:
    """p at ``step``: 1, then lowered by ``decay_rate`` every ``decay_steps``; 0 for the
    baseline."""
    if cfg.baseline:
        return 0.0
    return max(0.0, round(1.0 - cfg.decay_rate * (step // cfg.decay_steps), 10))


def _strategy_data(paths: Sequence[Path], safety: bool = False,
                   rules: str = "suits108") -> list[Trajectory]:
    """Every hand in the buffers of these search-training checkpoints (of rule set
    ``rules``)."""
    trajs: list[Trajectory] = []
    for path in paths:
        payload = load_checkpoint(path)
        try:
            theirs = json.loads(payload.get("settings_json", "{}")).get("rules",
                                                                       ADDED_LATER["rules"])
        except (TypeError, ValueError, AttributeError):
            raise ValueError(f"{path}: the checkpoint's settings are garbled") from None
        if theirs != rules:
            raise ValueError(f"{path}: strategy data of the {theirs} rules, this run trains a "
                             f"{rules} agent (--rules)")
        found = [Trajectory.from_tensors(t) for t in payload.get("buffer", [])]
        if not found:
            raise ValueError(f"{path}: the checkpoint holds no strategy data")
        if safety and any(t.safe is None for t in found):
            raise ValueError(f"{path}: its strategy data were recorded without the safety "
                             f"planes; make new data with `tenpai train mcts` or train "
                             f"without --safety")
        trajs += found
    return trajs


def _split(trajs: list[Trajectory], holdout: float,
           rng: np.random.Generator) -> tuple[list[Trajectory], list[Trajectory]]:
    """(training hands, held-out hands): a seeded share of whole hands is held out."""
    n_out = round(len(trajs) * holdout)
    if holdout > 0 and (n_out < 1 or n_out >= len(trajs)):
        raise ValueError(f"holdout {holdout} of {len(trajs)} hands leaves no hand on one side")
    order = rng.permutation(len(trajs))
    out = set(order[:n_out].tolist())
    return ([t for i, t in enumerate(trajs) if i not in out],
            [t for i, t in enumerate(trajs) if i in out])


def agreement(model: DropoutModel, planes: np.ndarray, pi: np.ndarray,
              safe: np.ndarray | None = None, batch: int = 512) -> dict[str, float]:
    """Top-1 agreement of the p = 0 agent with the search's most visited action, and the
    cross-entropy to π, over these decisions.  The buffer does not keep the legal ids, so the
    agent's choice is its most likely id of all 229 (a lower bound of what play, which masks
    to the legal ids, would agree; masking to π > 0 would overstate it, since actions the
    search never tried are legal too)."""
    hits = 0
    ce = 0.0
    hidden = torch.tensor(model.rules.hidden_planes)
    model.net.eval()
    with torch.inference_mode():
        for i in range(0, len(planes), batch):
            x = unpack(planes[i:i + batch], model.rules.wall_scale)
            x[:, hidden] = 0.0
            logits = model.net(model.inputs(x, None if safe is None else safe[i:i + batch]))
            target = torch.from_numpy(pi[i:i + batch])
            hits += int((logits.argmax(1) == target.argmax(1)).sum())
            ce += float(-(target * F.log_softmax(logits, dim=1)).sum())
    return {"agreement": hits / len(planes), "cross_entropy": ce / len(planes)}


def _rate(model: DropoutModel, cfg: DropoutConfig) -> dict[str, float]:
    from tenpai.selfplay.rating import rate_against

    r = rate_against(DropoutAgent(model), cfg.eval_opponent, cfg.rules,
                     range(cfg.eval_seed, cfg.eval_seed + cfg.eval_deals),
                     options=model.rules.options)
    return {"stable_dan": r.stable_dan, "mean_rank": r.mean_rank, "rank_low": r.rank.low,
            "rank_high": r.rank.high, "eval_games": r.games,
            **{f"rank{k + 1}": float(n) for k, n in enumerate(r.rank_counts)}}


def _expert_data(cfg: DropoutConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(planes, one-hot π, safety planes) of the expert games' training part; empty without
    ``expert_data``."""
    if not cfg.expert_data:
        return (np.zeros((0,)), np.zeros((0,)), np.zeros((0,)))
    items = training_items(Path(cfg.expert_data))
    if not items:
        raise ValueError(f"{cfg.expert_data}: no expert games to train on")
    if cfg.safety and any(t.safe is None for t in items):
        raise ValueError(f"{cfg.expert_data}: its games were recorded without the safety "
                         f"planes; record them again with `tenpai train mcts-warm`")
    return (np.concatenate([t.planes for t in items]),
            np.concatenate([t.policy for t in items]),
            _safe(items) if cfg.safety else np.zeros((0,)))


def _safe(trajs: Sequence[Trajectory]) -> np.ndarray:
    """The safety planes of these hands, stacked (``_strategy_data`` checked that they exist)."""
    return np.concatenate([t.safe for t in trajs if t.safe is not None])


Report = Callable[[int, dict[str, float]], None]


def train_dropout(cfg: DropoutConfig, report: Report | None = None) -> tuple[Path, DropoutModel]:
    """Fit the normal agent to the search's π with the decaying Bernoulli mask; ``report`` is
    called after every step with the step count and the latest history row."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    train, held = _split(_strategy_data(cfg.data_paths, cfg.safety, cfg.rules), cfg.holdout,
                         np.random.default_rng([cfg.seed, 1]))
    planes = np.concatenate([t.planes for t in train])
    pi = np.concatenate([t.policy for t in train])
    safe = _safe(train) if cfg.safety else None
    held_planes = np.concatenate([t.planes for t in held]) if held else None
    held_pi = np.concatenate([t.policy for t in held]) if held else None
    held_safe = _safe(held) if cfg.safety and held else None
    expert = _expert_data(cfg)
    n_expert = round(cfg.batch_size * cfg.expert_fraction)
    model = DropoutModel(cfg.size, safety=cfg.safety, rules=cfg.rules)
    rules = model.rules
    opt = torch.optim.Adam(model.net.parameters(), lr=cfg.lr, betas=(0.9, 0.99),
                           weight_decay=cfg.weight_decay)
    hidden = torch.tensor(rules.hidden_planes)
    model.net.train()
    for step in range(cfg.steps):
        idx = rng.integers(len(planes), size=cfg.batch_size - n_expert)
        batch_planes, batch_pi = planes[idx], pi[idx]
        batch_safe = None if safe is None else safe[idx]
        if n_expert:
            e_idx = rng.integers(len(expert[0]), size=n_expert)
            batch_planes = np.concatenate([batch_planes, expert[0][e_idx]])
            batch_pi = np.concatenate([batch_pi, expert[1][e_idx]])
            if batch_safe is not None:
                batch_safe = np.concatenate([batch_safe, expert[2][e_idx]])
        x = torch.from_numpy(unpack(batch_planes, rules.wall_scale))  # masked in place below
        p = keep_probability(step, cfg)
        lam = torch.from_numpy((rng.random((len(x), len(rules.hidden_planes), rules.kinds)) < p)
                               .astype(np.float32))
        x[:, hidden] = x[:, hidden] * lam
        target = torch.from_numpy(batch_pi)
        # Logits over all ids; play masks to the legal ones.
        logits = model.net(model.inputs(x.numpy(), batch_safe))
        loss = -(target * F.log_softmax(logits, dim=1)).sum(1).mean()
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        last = step == cfg.steps - 1
        evaluate = bool(cfg.eval_every) and ((step + 1) % cfg.eval_every == 0 or last)
        if step % 50 == 0 or last or evaluate:
            row: dict[str, float] = {"step": step + 1, "p": p, "loss": float(loss.detach())}
            if evaluate:
                if held_planes is not None and held_pi is not None:
                    row.update({f"held_{k}": v for k, v in
                                agreement(model, held_planes, held_pi, held_safe).items()})
                row.update(_rate(model, cfg))
                model.net.train()
            cfg.history.append(row)
        if report is not None:
            report(step + 1, cfg.history[-1])
    model.net.eval()
    if held_planes is not None and held_pi is not None and "held_agreement" not in cfg.history[-1]:
        final = agreement(model, held_planes, held_pi, held_safe)  # last step not rated
        cfg.history[-1].update({f"held_{k}": v for k, v in final.items()})
    model.card = {**asdict(cfg), "data": [str(p) for p in cfg.data_paths],
                  "samples": len(planes), "held_out_samples": 0 if held_pi is None
                  else len(held_pi)}
    out = Path(cfg.out)
    model.save(out)
    return out, model

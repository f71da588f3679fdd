"""Supervised warm start of the search model from a rule agent (not in the paper; docs/mcts.md).

Why: at CPU scale, search self-play from random weights never gets off the ground — a search of
a few simulations over an untrained prior almost never completes a hand, so the value and
reward targets are all draws and the model learns that nobody wins (the three runs of
docs/mcts_runs.md).  The paper's own agents start from 1.2 M steps of 250-simulation self-play,
which this machine cannot afford.  So, before any search self-play, all three networks are
trained on many games of the strongest rule agent for the 108-tile rules (``expert``, measured
against ``efficiency`` in docs/mcts_runs.md), recorded with the search's perfect-information planes:

* the policy on the teacher's choice (π one-hot),
* the value vector and the reward on the hand's real outcome,
* the dynamics on the real transitions, unrolled ``unroll`` steps exactly as in self-play
  training (:func:`tenpai.mcts.loss.unrolled_loss`), transition outcomes included.

The result is an ordinary model file; ``tenpai train mcts --init`` continues from it with
search self-play, optionally keeping a share of every batch on the teacher's data.

Two files: ``<out>.data`` (the teacher's trajectories, written once per chunk of games) and
``<out>.ckpt`` (weights, Adam state, progress; written every ``checkpoint_steps``).  The same
command started again after a kill continues where it stopped.  A held-out share of the games
(the last ``holdout`` of them) is never trained on; the teacher-agreement and value error on it
are reported.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch

from tenpai.mcts.checkpoint import CheckpointError, check_identity
from tenpai.mcts.config_checks import check_counts, check_network
from tenpai.mcts.loss import unrolled_loss
from tenpai.mcts.model import MCTSModel, ModelCard
from tenpai.mcts.packed_planes import unpack
from tenpai.mcts.replay import ReplayBuffer, Trajectory, ValueTarget, trajectories
from tenpai.mcts.rulesets import search_rules
from tenpai.mcts.teacher import Teacher
from tenpai.models.torchfile import load_tagged, save_atomic

__all__ = ["WarmStartConfig", "WarmStartProgress", "evaluate", "teacher_buffer", "training_items",
           "warm_start"]

DATA_FORMAT: Final = "tenpai-mcts-warmdata/1"
CKPT_FORMAT: Final = "tenpai-mcts-warmstart/1"
#: Settings that must match for a run to continue from its files.
IDENTITY: Final = ("rules", "teacher", "size", "access", "value_target", "use_reward", "seed",
                   "unroll", "games", "holdout")
#: Game seeds of the warm start live here, apart from self-play (seed × 10⁷) and arenas.
SEED_BASE: Final = 7_000_000


@dataclass(slots=True)
class WarmStartConfig:
    """One warm start (every field goes into the model card)."""

    out: str = "runs/warm.pt"
    #: Rule set of the games (``tenpai.mcts.rulesets``).
    rules: str = "suits108"
    teacher: str = "expert"
    games: int = 400
    holdout: int = 16
    steps: int = 4000
    batch_size: int = 64
    unroll: int = 3
    lr: float = 1e-3
    lr_final: float = 1e-4
    weight_decay: float = 1e-4
    size: str = "small"
    access: str = "full"
    value_target: ValueTarget = "sign"
    value_scale: float = 8000.0
    use_reward: bool = True
    seed: int = 0
    tables: int = 8
    chunk_games: int = 50
    checkpoint_steps: int = 250
    threads: int = 1

    def __post_init__(self) -> None:
        check_network(self.rules, self.size, self.access)
        check_counts(self, ("games", "steps", "batch_size", "unroll", "tables", "chunk_games",
                            "checkpoint_steps"))
        if not 0 <= self.holdout < self.games:
            raise ValueError(f"holdout must be in [0, games), got {self.holdout}")
        if not 0 < self.lr_final <= self.lr:
            raise ValueError("need 0 < lr_final <= lr")

    def settings(self) -> dict[str, Any]:
        return asdict(self)

    def lr_at(self, step: int) -> float:
        """Cosine from ``lr`` to ``lr_final`` over ``steps``."""
        frac = min(step / self.steps, 1.0)
        return self.lr_final + 0.5 * (self.lr - self.lr_final) * (1 + math.cos(math.pi * frac))


@dataclass(slots=True)
class WarmStartProgress:
    games: int = 0
    decisions: int = 0
    steps: int = 0
    cpu_seconds: float = 0.0
    history: list[dict[str, float]] = field(default_factory=list)


Reporter = Callable[[WarmStartProgress, dict[str, float]], None]


def _teacher(name: str, access: str, rules: str, seed: int) -> Teacher:
    return Teacher(name, seed, access, rules)


def _play(cfg: WarmStartConfig, first: int, count: int) -> list[Trajectory]:
    """``count`` teacher games from game index ``first``, as hand trajectories."""
    from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
    from tenpai.selfplay.vector import VectorRunner

    factory = functools.partial(_teacher, cfg.teacher, cfg.access, cfg.rules)
    spec = SelfPlaySpec.series(cfg.rules, [SeatSpec(factory)] * 4,
                               cfg.seed * 10_000_000 + SEED_BASE + first, count,
                               dict(search_rules(cfg.rules).options))
    games = VectorRunner(spec, tables=min(cfg.tables, count)).run()
    # The trajectory's ``version`` tag holds its game index (the hold-out split needs it).
    return [t for g in games
            for t in trajectories(g, first + g.index, cfg.value_target, cfg.value_scale)]


def _save_data(path: Path, settings: dict[str, Any], games: int,
               items: Sequence[Trajectory]) -> None:
    save_atomic({"format": DATA_FORMAT, "settings_json": json.dumps(settings, sort_keys=True),
                 "games": games, "items": [t.to_tensors() for t in items]}, path)


def _check_identity(path: Path, payload: dict[str, Any], settings: dict[str, Any]) -> None:
    try:
        theirs = json.loads(payload["settings_json"])
    except (KeyError, TypeError, ValueError):
        raise CheckpointError(f"{path}: settings missing or garbled") from None
    check_identity(path, theirs, settings, IDENTITY)


def load_items(path: Path) -> tuple[int, list[Trajectory]]:
    """(games played, trajectories) of a warm start's ``.data`` file."""
    payload = load_tagged(path, DATA_FORMAT, CheckpointError, "warm-start data")
    try:
        return int(payload["games"]), [Trajectory.from_tensors(t) for t in payload["items"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: warm-start data garbled: {exc}") from None


def training_items(path: Path) -> list[Trajectory]:
    """The trajectories of a ``.data`` file that its warm start trained on (hold-out left
    out, so it stays an honest test set)."""
    payload = load_tagged(path, DATA_FORMAT, CheckpointError, "warm-start data")
    try:
        holdout = int(json.loads(payload["settings_json"])["holdout"])
        games = int(payload["games"])
        items = [Trajectory.from_tensors(t) for t in payload["items"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: warm-start data garbled: {exc}") from None
    return _split(items, games, holdout)[0]


def teacher_buffer(items: Sequence[Trajectory]) -> ReplayBuffer:
    """A buffer holding all of ``items``: their version tags are game indices, and a buffer
    of the usual size would keep only the last game (the first warm run trained on one game
    and memorised it: 100 % on its batches, 12 % agreement on every other game)."""
    buffer = ReplayBuffer(max((t.version for t in items), default=0) + 1)
    buffer.add(items)
    return buffer


def _split(items: Sequence[Trajectory], games_total: int,
           holdout: int) -> tuple[list[Trajectory], list[Trajectory]]:
    """Held-out trajectories are those of the last ``holdout`` games (tagged by ``version``)."""
    cut = games_total - holdout
    return [t for t in items if t.version < cut], [t for t in items if t.version >= cut]


@torch.inference_mode()
def evaluate(model: MCTSModel, items: Sequence[Trajectory], limit: int = 4000) -> dict[str, float]:
    """Teacher agreement (argmax of the prior over all ids = the recorded action) and value MSE
    (summed over the four players) on up to ``limit`` positions of ``items``."""
    if not items:
        return {}
    scale = model.rules.wall_scale
    planes = np.concatenate([t.planes for t in items])[:limit]
    actions = np.concatenate([t.actions for t in items])[:limit]
    values = np.concatenate([t.values for t in items])[:limit]
    net = model.net
    net.eval()
    agree = 0.0
    mse = 0.0
    for i in range(0, len(planes), 512):
        x = torch.from_numpy(unpack(planes[i:i + 512], scale))
        pred = net.predict(net.represent(x))
        agree += float((pred.policy.argmax(1).numpy() == actions[i:i + 512]).sum())
        mse += float(((pred.value.numpy() - values[i:i + 512]) ** 2).sum())
    return {"agreement": agree / len(planes), "value_mse": mse / len(planes)}


def warm_start(cfg: WarmStartConfig,
               report: Reporter | None = None) -> tuple[Path, WarmStartProgress]:
    """Run (or continue) ``cfg``; returns the model file written and the progress."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    out = Path(cfg.out)
    data_path = out.with_name(out.name + ".data")
    ckpt = out.with_name(out.name + ".ckpt")
    settings = cfg.settings()
    progress = WarmStartProgress()
    items: list[Trajectory] = []
    rules = search_rules(cfg.rules)
    model = MCTSModel(ModelCard(rules=cfg.rules, encoder=rules.encoder, size=cfg.size,
                                access=cfg.access))
    opt = torch.optim.Adam(model.net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    if ckpt.exists():
        payload = load_tagged(ckpt, CKPT_FORMAT, CheckpointError, "checkpoint")
        _check_identity(ckpt, payload, settings)
        try:
            model.net.load_state_dict(payload["state"])
            opt.load_state_dict(payload["optimizer"])
            progress = WarmStartProgress(**json.loads(payload["progress_json"]))
        except (KeyError, TypeError, ValueError, RuntimeError) as exc:
            raise CheckpointError(f"{ckpt}: checkpoint garbled: {exc}") from None
    if data_path.exists():
        payload = load_tagged(data_path, DATA_FORMAT, CheckpointError, "warm-start data")
        _check_identity(data_path, payload, settings)
        progress.games, items = load_items(data_path)
        progress.decisions = sum(len(t) for t in items)
    clock = [time.process_time()]

    def save() -> None:
        """Write the checkpoint, first adding the CPU time since the last write."""
        now = time.process_time()
        progress.cpu_seconds += now - clock[0]
        clock[0] = now
        save_atomic({"format": CKPT_FORMAT, "settings_json": json.dumps(settings, sort_keys=True),
                     "progress_json": json.dumps(asdict(progress), sort_keys=True),
                     "state": {k: v.detach().clone() for k, v in model.net.state_dict().items()},
                     "optimizer": opt.state_dict()}, ckpt)

    # Phase 1: the teacher's games, a chunk at a time (the game index is the trajectory's tag).
    while progress.games < cfg.games:
        count = min(cfg.chunk_games, cfg.games - progress.games)
        new = _play(cfg, progress.games, count)
        items.extend(new)
        progress.games += count
        progress.decisions = sum(len(t) for t in items)
        _save_data(data_path, settings, progress.games, items)
        save()
        if report is not None:
            report(progress, {"games": progress.games, "decisions": progress.decisions})
    train_items, held = _split(items, cfg.games, cfg.holdout)
    buffer = teacher_buffer(train_items)
    rng = np.random.default_rng([cfg.seed, progress.steps])
    # Phase 2: supervised K-step unrolled training of all three networks.
    sums: dict[str, float] = {}
    done_since = 0
    while progress.steps < cfg.steps:
        model.net.train()
        for group in opt.param_groups:
            group["lr"] = cfg.lr_at(progress.steps)
        batch = buffer.sample(cfg.batch_size, cfg.unroll, rng)
        loss, parts = unrolled_loss(model.net, batch, cfg.unroll, cfg.use_reward, rules)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.net.parameters(), 5.0)
        opt.step()
        progress.steps += 1
        done_since += 1
        for k, v in parts.items():
            sums[k] = sums.get(k, 0.0) + v
        if progress.steps % cfg.checkpoint_steps == 0 or progress.steps == cfg.steps:
            row = {k: v / done_since for k, v in sums.items()}
            row.update(evaluate(model, held), step=progress.steps, lr=cfg.lr_at(progress.steps))
            progress.history.append(row)
            save()
            row["cpu_minutes"] = progress.cpu_seconds / 60
            _write_model(model, out, cfg, progress)
            sums, done_since = {}, 0
            rng = np.random.default_rng([cfg.seed, progress.steps])
            if report is not None:
                report(progress, row)
    model.net.eval()
    if not out.exists():
        _write_model(model, out, cfg, progress)
    return out, progress


def _write_model(model: MCTSModel, out: Path, cfg: WarmStartConfig,
                 progress: WarmStartProgress) -> None:
    model.card.training = {"warm_start": cfg.settings(), "games": progress.games,
                           "steps": progress.steps,
                           "cpu_minutes": round(progress.cpu_seconds / 60, 2),
                           "held_out": progress.history[-1] if progress.history else {}}
    model.save(out)

"""The training loop of seed 000's search model (Section 3.3, Appendix C, eq. 10).

Each *model version*: the current network searches in all four seats of ``games_per_version``
self-play games on the batched runner (in this process, or spread over ``workers`` processes or
Ray actors: the same games either way) (``simulations`` per move, root noise, the first 15
actions of a hand sampled from the visits); their hands go into the replay buffer, which keeps
the latest ``buffer_versions`` versions; then ``steps_per_version`` SGD steps on ``unroll``-step
windows train the three networks jointly (Fig. 4): per step the policy (cross-entropy to π), the
value vector (MSE over the four players), the reward vector and the transition outcome of
dynamic actions (cross-entropy), with L2 through weight decay.  The learning rate falls by ten
after the ``lr_drops`` versions (the paper: 0.01 → 0.001 → 0.0001 after the 10th and 20th).

After every version the model and a checkpoint (weights, optimizer, buffer, progress, settings)
are written atomically; the same command started again continues from the checkpoint, and a
checkpoint of other settings is refused by name.  TensorBoard curves go to ``tensorboard``.
With ``gate_deals`` > 0 the paper's update step (Appendix C) runs after each version's
training: the new weights play the best version so far, pair against pair over ``gate_deals``
deals (each dealt twice with the pairs' seats swapped, :func:`tenpai.selfplay.pairs.play_pairs`),
and become the self-play player only if their pair win rate is above ``gate_threshold``;
training itself always continues from the newest weights, and the model file holds the best
version.  With 0 (the default) every version replaces the last.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import torch

from tenpai.mcts.agent import MCTSAgent
from tenpai.mcts.checkpoint import FORMAT, CheckpointError, check_identity, load_checkpoint
from tenpai.mcts.config_checks import check_counts, check_network
from tenpai.mcts.loss import unrolled_loss
from tenpai.mcts.model import MCTSModel, ModelCard
from tenpai.mcts.replay import ReplayBuffer, Trajectory, ValueTarget, trajectories
from tenpai.mcts.rulesets import search_rules
from tenpai.mcts.teacher import Teacher
from tenpai.mcts.warmstart import teacher_buffer as make_teacher_buffer
from tenpai.mcts.warmstart import training_items
from tenpai.models.torchfile import save_atomic

if TYPE_CHECKING:
    from tenpai.selfplay.pairs import PairResult

__all__ = ["CheckpointError", "MCTSTrainConfig", "TrainProgress", "train_mcts", "unrolled_loss"]

#: Settings that must match for a run to continue from a checkpoint.
IDENTITY: Final = ("rules", "size", "access", "value_target", "use_reward", "seed", "unroll")


@dataclass(slots=True)
class MCTSTrainConfig:
    """One training run (every field goes into the model card)."""

    out: str = "runs/mcts.pt"
    #: Rule set of the games (``tenpai.mcts.rulesets``).
    rules: str = "suits108"
    size: str = "small"
    access: str = "full"
    simulations: int = 16
    tables: int = 8
    games_per_version: int = 8
    steps_per_version: int = 100
    batch_size: int = 64
    unroll: int = 3
    lr: float = 0.01
    lr_drops: tuple[int, ...] = (10, 20)
    momentum: float = 0.9
    weight_decay: float = 1e-4
    buffer_versions: int = 4
    sample_moves: int = 15
    value_target: ValueTarget = "sign"
    value_scale: float = 8000.0
    use_reward: bool = True
    max_versions: int | None = None
    warmup_games: int = 0
    teacher: str = "efficiency"
    #: A model file (e.g. from ``tenpai train mcts-warm``) the run starts from instead of
    #: random weights (only when no checkpoint exists yet).
    init: str | None = None
    #: A warm start's ``.data`` file: its training games stay available for the whole run and
    #: ``teacher_fraction`` of every batch is drawn from them (keeps the prior anchored while
    #: the self-play data are few).
    teacher_data: str | None = None
    teacher_fraction: float = 0.0
    #: Search settings of self-play (see :class:`tenpai.mcts.search.SearchConfig`).
    outcomes: str = "choose"
    unvisited: str = "zero"
    minutes: float = 10.0
    seed: int = 0
    threads: int = 1
    #: Self-play processes (``local``) or Ray actors (``ray``) per version; training stays in
    #: this process.  The games, and so the data, do not depend on either.
    workers: int = 1
    backend: str = "local"
    #: Gating (Appendix C's update step; 0 = off): deals the new version plays the best one
    #: over, the search's simulations there (default ``simulations``), and the pair win rate it
    #: must beat to replace it.
    gate_deals: int = 0
    gate_simulations: int | None = None
    gate_threshold: float = 0.5
    #: Batch-norm running statistics while training on self-play: "update" (PyTorch's train
    #: mode) or "frozen" (kept as the start left them; batches normalised with them).  Ours:
    #: re-estimating them alone, with the weights unchanged, left the search weaker than its
    #: warm start (docs/mcts_runs.md, "What the training step breaks").
    bn_stats: str = "update"
    tensorboard: str | None = None

    def __post_init__(self) -> None:
        check_network(self.rules, self.size, self.access)
        if self.value_target not in ("sign", "scaled"):
            raise ValueError(f"value_target must be sign or scaled, not {self.value_target!r}")
        check_counts(self, ("simulations", "tables", "games_per_version", "batch_size", "unroll",
                            "buffer_versions"))
        if self.steps_per_version < 0:  # 0: a frozen model only plays (strategy data)
            raise ValueError(f"steps_per_version cannot be negative, got "
                             f"{self.steps_per_version}")
        if self.lr <= 0 or self.minutes < 0:
            raise ValueError("lr must be positive and minutes not negative")
        if self.warmup_games < 0:
            raise ValueError(f"warmup_games cannot be negative, got {self.warmup_games}")
        from tenpai.mcts.search import SearchConfig

        SearchConfig(outcomes=self.outcomes, unvisited=self.unvisited)  # refuses bad values
        if not 0 <= self.teacher_fraction < 1:
            raise ValueError(f"teacher_fraction must be in [0, 1), got {self.teacher_fraction}")
        if self.teacher_fraction > 0 and not self.teacher_data:
            raise ValueError("teacher_fraction needs teacher_data")
        if self.max_versions is not None and self.max_versions < 1:
            raise ValueError(f"max_versions must be at least 1, got {self.max_versions}")
        from tenpai.selfplay.api import BACKENDS
        from tenpai.selfplay.slices import check_workers

        check_workers(self.workers)
        if self.gate_deals < 0 or (self.gate_simulations is not None
                                   and self.gate_simulations < 1):
            raise ValueError(f"gate_deals cannot be negative and gate_simulations must be at "
                             f"least 1, got {self.gate_deals} and {self.gate_simulations}")
        if not 0 <= self.gate_threshold < 1:
            raise ValueError(f"gate_threshold must be in [0, 1), got {self.gate_threshold}")
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; choose {', '.join(BACKENDS)}")
        if self.bn_stats not in ("update", "frozen"):
            raise ValueError(f"bn_stats must be update or frozen, not {self.bn_stats!r}")

    def settings(self) -> dict[str, Any]:
        d = asdict(self)
        d["lr_drops"] = list(self.lr_drops)
        return d

    def lr_at(self, version: int) -> float:
        """The annealed learning rate for training after ``version`` versions."""
        return self.lr * 0.1 ** sum(1 for v in self.lr_drops if version >= v)


@dataclass(slots=True)
class TrainProgress:
    """Where a run stands (saved in checkpoints and in the model card)."""

    version: int = 0
    games: int = 0
    decisions: int = 0
    steps: int = 0
    cpu_seconds: float = 0.0
    search_seconds: float = 0.0
    #: The version self-play uses under gating (0: the start weights).
    best_version: int = 0
    history: list[dict[str, float]] = field(default_factory=list)


Reporter = Callable[[TrainProgress, dict[str, float]], None]


def train_mode(net: torch.nn.Module, bn_stats: str = "update") -> None:
    """Put ``net`` in training mode; with ``bn_stats="frozen"`` its batch-norm layers stay in
    evaluation mode (running statistics used and left unchanged)."""
    net.train()
    if bn_stats == "frozen":
        for m in net.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                m.eval()


def _save_checkpoint(
    path: Path,
    settings: dict[str, Any],
    model: MCTSModel,
    optimizer: torch.optim.Optimizer,
    progress: TrainProgress,
    buffer: ReplayBuffer,
    best: MCTSModel,
) -> None:
    payload = {
        "best_state": {k: v.detach().clone() for k, v in best.net.state_dict().items()},
        "format": FORMAT,
        "settings_json": json.dumps(settings, sort_keys=True),
        "progress_json": json.dumps(asdict(progress), sort_keys=True),
        "card_json": json.dumps(asdict(model.card), sort_keys=True),
        "state": {k: v.detach().clone() for k, v in model.net.state_dict().items()},
        "optimizer": optimizer.state_dict(),
        "buffer": [t.to_tensors() for t in buffer.items],
    }
    save_atomic(payload, path)


#: The fields of a history row that make one point of a gated run's curve (Fig. 6).
GATE_FIELDS = ("steps", "version", "gate_win_rate", "gate_low", "gate_high", "gate_accepted")


def gate_points(history: list[dict[str, float]]) -> list[dict[str, float]]:
    """The gate results of a run's history: after every version's training, the new weights'
    pair win rate against the best version so far (the start until one is accepted)."""
    return [{k: row[k] for k in GATE_FIELDS} for row in history if "gate_win_rate" in row]


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the self-play workers of
    ``backend="local"``; Ray's actors are not children and are not counted)."""
    import resource

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".ckpt")


def _teacher(name: str, access: str, rules: str, seed: int) -> Teacher:
    return Teacher(name, seed, access, rules)


def _mixed_batch(buffer: ReplayBuffer, teacher: ReplayBuffer | None, cfg: MCTSTrainConfig,
                 rng: np.random.Generator) -> dict[str, torch.Tensor]:
    """A batch of which ``teacher_fraction`` (rounded) comes from the teacher's games."""
    n_teacher = round(cfg.batch_size * cfg.teacher_fraction) if teacher is not None else 0
    own = buffer.sample(cfg.batch_size - n_teacher, cfg.unroll, rng)
    if n_teacher == 0 or teacher is None:
        return own
    theirs = teacher.sample(n_teacher, cfg.unroll, rng)
    return {k: torch.cat([own[k], theirs[k]]) for k in own}


def train_mcts(cfg: MCTSTrainConfig, report: Reporter | None = None) -> tuple[Path, TrainProgress]:
    """Run (or continue) ``cfg``; returns the model file written and the progress."""
    from tenpai.selfplay.api import run_selfplay
    from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
    from tenpai.selfplay.vector import VectorRunner

    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out)
    settings = cfg.settings()
    torch.manual_seed(cfg.seed)
    rules = search_rules(cfg.rules)
    model = MCTSModel(ModelCard(rules=cfg.rules, encoder=rules.encoder, size=cfg.size,
                                access=cfg.access))
    optimizer = torch.optim.SGD(
        model.net.parameters(), lr=cfg.lr, momentum=cfg.momentum, weight_decay=cfg.weight_decay
    )
    progress = TrainProgress()
    best_state: dict[str, torch.Tensor] | None = None
    buffer = ReplayBuffer(cfg.buffer_versions)
    ckpt = checkpoint_path(out)
    if ckpt.exists():
        payload = load_checkpoint(ckpt)
        try:
            check_identity(ckpt, json.loads(payload["settings_json"]), settings, IDENTITY)
            model.net.load_state_dict(payload["state"])
            optimizer.load_state_dict(payload["optimizer"])
            progress = TrainProgress(**json.loads(payload["progress_json"]))
            buffer.add([Trajectory.from_tensors(t) for t in payload["buffer"]])
            best_state = payload.get("best_state")  # absent before gating existed
        except (KeyError, TypeError, ValueError, RuntimeError) as exc:
            if isinstance(exc, CheckpointError):
                raise
            raise CheckpointError(f"{ckpt}: checkpoint is missing or garbles {exc}") from None
    elif cfg.init:
        from tenpai.mcts.model import MCTSModelError

        start = MCTSModel.load(Path(cfg.init))
        if (start.card.rules, start.card.size, start.card.access) != (
                cfg.rules, cfg.size, cfg.access):
            raise MCTSModelError(
                f"{cfg.init}: a {start.card.rules}/{start.card.size}/{start.card.access} model, "
                f"this run is {cfg.rules}/{cfg.size}/{cfg.access}"
            )
        model.net.load_state_dict(start.net.state_dict())
    # Under gating self-play uses the best version; otherwise ``best`` is the model itself.
    best = copy.deepcopy(model) if cfg.gate_deals else model
    if best_state is not None and cfg.gate_deals:
        best.net.load_state_dict(best_state)
    teacher_buffer: ReplayBuffer | None = None
    if cfg.teacher_data:
        teacher_buffer = make_teacher_buffer(training_items(Path(cfg.teacher_data)))
    writer = None
    if cfg.tensorboard:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(cfg.tensorboard)
    rng = np.random.default_rng([cfg.seed, progress.version])
    deadline = time.monotonic() + cfg.minutes * 60
    if progress.version == 0 and cfg.warmup_games > 0:
        import functools

        factory = functools.partial(_teacher, cfg.teacher, cfg.access, cfg.rules)
        spec = SelfPlaySpec.series(cfg.rules, [SeatSpec(factory)] * 4,
                                   cfg.seed * 10_000_000 + 9_000_000, cfg.warmup_games,
                                   dict(rules.options))
        warm = VectorRunner(spec, tables=cfg.tables).run()
        buffer.add([t for g in warm for t in trajectories(g, 0, cfg.value_target,
                                                           cfg.value_scale)])
    try:
        while cfg.max_versions is None or progress.version < cfg.max_versions:
            if time.monotonic() >= deadline and progress.version > 0:
                break
            cpu0 = _cpu_seconds()
            agent = MCTSAgent(
                best, simulations=cfg.simulations, seed=cfg.seed * 1_000_003 + progress.version,
                sample_moves=cfg.sample_moves, noise=True, access=cfg.access, threads=None,
                outcomes=cfg.outcomes, unvisited=cfg.unvisited,
            )
            first = cfg.seed * 10_000_000 + progress.games
            spec = SelfPlaySpec.series(
                cfg.rules, [SeatSpec(agent)] * 4, first, cfg.games_per_version,
                dict(rules.options)
            )
            t0 = time.perf_counter()
            games = run_selfplay(spec, tables=cfg.tables, workers=cfg.workers,
                                 backend=cfg.backend)
            search_s = time.perf_counter() - t0
            new = [t for g in games for t in trajectories(
                g, progress.version, cfg.value_target, cfg.value_scale)]
            buffer.add(new)
            decisions = sum(g.decisions for g in games)
            train_mode(model.net, cfg.bn_stats)
            for group in optimizer.param_groups:
                group["lr"] = cfg.lr_at(progress.version)
            sums: dict[str, float] = {}
            for _ in range(cfg.steps_per_version):
                batch = _mixed_batch(buffer, teacher_buffer, cfg, rng)
                loss, parts = unrolled_loss(model.net, batch, cfg.unroll, cfg.use_reward, rules)
                optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(model.net.parameters(), 5.0)
                optimizer.step()
                for k, v in parts.items():
                    sums[k] = sums.get(k, 0.0) + v
                progress.steps += 1
            model.net.eval()
            gate: dict[str, float] = {}
            if cfg.gate_deals and cfg.steps_per_version:
                result = _gate(model, best, cfg, progress.version)
                accepted = result.win_rate > cfg.gate_threshold
                gate = {"gate_win_rate": result.win_rate, "gate_low": result.low,
                        "gate_high": result.high, "gate_accepted": float(accepted)}
                if accepted:
                    best.net.load_state_dict(model.net.state_dict())
                    progress.best_version = progress.version + 1
            progress.version += 1
            progress.games += len(games)
            progress.decisions += decisions
            progress.cpu_seconds += _cpu_seconds() - cpu0
            progress.search_seconds += search_s
            row = {k: v / max(cfg.steps_per_version, 1) for k, v in sums.items()}
            row.update(
                version=progress.version, games=progress.games, steps=progress.steps,
                lr=cfg.lr_at(progress.version - 1), buffer=buffer.positions,
                decisions_per_s=decisions / max(search_s, 1e-9),
                sims_per_s=decisions * cfg.simulations / max(search_s, 1e-9),
                cpu_minutes=progress.cpu_seconds / 60, best_version=progress.best_version,
                **gate,
            )
            progress.history.append(row)
            if writer is not None:
                for k, v in row.items():
                    writer.add_scalar(f"mcts/{k}", v, progress.steps)
                writer.flush()
            model.card.version = progress.version
            model.card.training = {"settings": settings, "games": progress.games,
                                   "steps": progress.steps,
                                   "cpu_minutes": round(progress.cpu_seconds / 60, 2),
                                   "gates": gate_points(progress.history)}
            if best is not model:
                best.card.version = progress.best_version
                best.card.training = {**model.card.training,
                                      "best_version": progress.best_version}
            _save_checkpoint(ckpt, settings, model, optimizer, progress, buffer, best)
            best.save(out)
            if report is not None:
                report(progress, row)
    finally:
        if writer is not None:
            writer.close()
    if not out.exists():
        best.save(out)
    return out, progress


def _gate(model: MCTSModel, best: MCTSModel, cfg: MCTSTrainConfig,
          version: int) -> PairResult:
    """The new weights' pair win rate against the best version: fresh deals
    for every version, no root noise, the first moves not sampled (both play their best)."""
    from tenpai.selfplay.pairs import play_pairs

    sims = cfg.gate_simulations or cfg.simulations
    seed = cfg.seed * 1_000_003 + version

    def player(m: MCTSModel, name: str) -> MCTSAgent:
        return MCTSAgent(m, simulations=sims, seed=seed, threads=None, name=name,
                         outcomes=cfg.outcomes, unvisited=cfg.unvisited)

    first = cfg.seed * 10_000_000 + 8_000_000 + version * cfg.gate_deals
    return play_pairs(player(model, "candidate"), player(best, "best"), cfg.rules,
                      dict(model.rules.options), range(first, first + cfg.gate_deals),
                      tables=cfg.tables)

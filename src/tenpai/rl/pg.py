"""Policy-gradient self-play from a supervised start (seed 002), with checkpoints and resume.

The loop: the learner (:class:`~tenpai.rl.policy.SamplingSLAgent`, the same object in all four
seats, as 002's self-play — or, with ``opponents="start"``, two seats against two greedy copies
of the frozen start, the line-up the arena measures) plays ``games_per_update`` games on the
batched runner; their sampled discards and returns (:mod:`tenpai.rl.rewards`) make one
REINFORCE update (:mod:`tenpai.rl.update`), less a baseline — the batch mean, or a learned value
of the position (:mod:`tenpai.rl.critic`, ``baseline="critic"``; its first ``critic_warmup``
games teach the critic only, so the policy never learns against an untrained baseline); every
``eval_every`` games the greedy learner meets its frozen start in pairs on fixed deals
(:mod:`tenpai.selfplay.pairs`) — the learning curve (or, with ``eval_opponent``, meets a named
agent).  Progress, weights and
the optimizer are checkpointed every ``checkpoint_minutes``; starting the same command again
continues from the checkpoint, so a kill loses at most one interval.  The result is an ordinary
model bundle (the start's heads with the discard head fine-tuned, and with ``heads`` the riichi,
pon or chi heads too) that :class:`SLAgent` plays.

On the 108-tile rules the start is seed 000's normal agent (a ``tenpai train dropout`` model):
its one policy over all action ids is fine-tuned, every decision sampled
(:mod:`tenpai.rl.policy_suits108`), and the result is again a dropout model.  ``opponents`` may
also name any registered agent — the 108-tile student learns to meet ``defensive`` by playing it.

``estimator="vine"`` replaces the sampled self-play and REINFORCE step of each update by the
vine estimator (:mod:`tenpai.rl.vine`): greedy trunk games, branch points with a few discards
each evaluated from the same table, and an update on their differences.  Everything else —
checkpoints, resume, evaluation, the model card — is this same loop.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tenpai.agents.sl import THREAT_HEAD, SLAgent
from tenpai.engine.agent import Agent
from tenpai.mcts.agent import DropoutAgent
from tenpai.mcts.config_checks import check_counts
from tenpai.mcts.dropout import DropoutModel
from tenpai.mcts.features import ENCODER as DROPOUT_ENCODER
from tenpai.models.bundle import Head, ModelBundle, ModelError, resolve_model_path
from tenpai.rl.checkpoint import CheckpointError, PGCheckpoint, checkpoint_path
from tenpai.rl.critic import CriticStats, fit_critic, make_critic, predict_values
from tenpai.rl.policy import DECISION_HEADS, SamplingSLAgent, samples_of
from tenpai.rl.policy_mcr import SamplingSLMCRAgent
from tenpai.rl.policy_suits108 import SamplingDropoutAgent
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.update import BASELINES, UpdateStats, collect_batch, reinforce_update
from tenpai.rl.vine import (
    ESTIMATORS,
    VineConfig,
    VineStats,
    collect_vine,
    vine_batch,
    vine_update,
)
from tenpai.selfplay.pairs import PairResult, play_pairs
from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import VectorRunner

__all__ = ["PGConfig", "PGProgress", "train_pg"]

#: Who the learner plays against during REINFORCE (see :attr:`PGConfig.opponents`); any
#: registered agent's name is accepted too.
OPPONENTS = ("self", "start")
#: Who plays the discards under another seat's riichi: ``learned`` (the learner, as every
#: other discard: 002) or ``start`` (the frozen start's discard head, never trained).
DEFENCES = ("learned", "start")
#: Rule sets and the start model each one fine-tunes.
RULES = ("riichi", "mcr", "suits108")

#: Seeds of evaluation deals start here, far from the training seeds of any run.
EVAL_SEED_BASE = 900_000_000

_METHODS = {
    "reinforce": "REINFORCE self-play from a supervised start (seed 002)",
    "reinforce_suits108": "REINFORCE from seed 000's normal (dropout) agent, every decision "
                          "sampled (ours)",
    "vine": "vine policy gradient (TRPO's vine, common random numbers) on greedy self-play "
            "from a supervised start",
}


@dataclass(slots=True)
class PGConfig:
    """One policy-gradient run (every field is recorded in the model card)."""

    rules: str = "riichi"
    options: dict[str, str] = field(default_factory=dict)
    init: str = "default"
    out: str = "runs/pg.pt"
    games_per_update: int = 16
    tables: int = 16
    lr: float = 1e-5
    entropy: float = 0.01
    #: REINFORCE only: weight of KL(pi || the frozen start) in the loss (0: no anchor).
    kl_start: float = 0.0
    temperature: float = 1.0
    baseline: str = "mean"
    #: ``reinforce`` (sampled self-play, seed 002) or ``vine`` (greedy trunks and branch
    #: points with common random numbers, :mod:`tenpai.rl.vine`).
    estimator: str = "reinforce"
    #: Vine only: branch points per trunk game, and sampled alternatives to the greedy discard.
    vine_states: int = 8
    vine_alternatives: int = 2
    #: Adam learning rate, passes per batch and policy-frozen warm-up games of the critic.
    critic_lr: float = 3e-4
    critic_epochs: int = 2
    critic_warmup: int = 0
    #: REINFORCE only: who sits at the learner's table — ``self`` (four copies of the learner,
    #: 002's self-play), ``start`` (two learner seats against two greedy copies of the
    #: frozen start, the arena's 2-vs-2 line-up, seats swapped every other game), or the
    #: name of a registered agent in those two seats.
    opponents: str = "self"
    #: Riichi REINFORCE only: ``start`` keeps the frozen start's discards under another seat's
    #: riichi (its discard head ships as the model's ``discard_threat`` head); the learner then
    #: plays and learns only the other discards.
    defence: str = "learned"
    #: Riichi REINFORCE: the heads whose choices are sampled and trained — ``discard`` (002) and
    #: any of ``riichi``, ``pon``, ``chi`` (ours, see :mod:`tenpai.rl.policy`); heads left out
    #: play greedily as the start's.
    heads: tuple[str, ...] = ("discard",)
    #: Whom the learning curve measures the greedy learner against: ``start`` or an agent name.
    eval_opponent: str = "start"
    minibatch: int = 1024
    reward: RewardConfig = field(default_factory=RewardConfig)
    minutes: float = 10.0
    max_games: int | None = None
    checkpoint_minutes: float = 5.0
    eval_every: int = 0
    eval_deals: int = 32
    seed: int = 0
    threads: int = 1
    tensorboard: str | None = None

    def __post_init__(self) -> None:
        check_counts(self, ("games_per_update", "tables", "minibatch", "eval_deals",
                            "critic_epochs"))
        if self.lr <= 0 or self.temperature <= 0 or self.critic_lr <= 0:
            raise ValueError("lr, critic_lr and temperature must be positive")
        if self.baseline not in BASELINES:
            raise ValueError(f"baseline {self.baseline!r}; choose {', '.join(BASELINES)}")
        if self.critic_warmup < 0:
            raise ValueError(f"critic_warmup cannot be negative, got {self.critic_warmup}")
        if self.entropy < 0 or self.minutes < 0 or self.eval_every < 0 or self.kl_start < 0:
            raise ValueError("entropy, kl_start, minutes and eval_every cannot be negative")
        if self.max_games is not None and self.max_games < 1:
            raise ValueError(f"max_games must be at least 1, got {self.max_games}")
        if self.rules not in RULES:
            raise ValueError(f"rules {self.rules!r}; policy gradient is built for "
                             f"{', '.join(RULES)}")
        from tenpai.agents.registry import AGENTS, is_known_agent

        for name, value in (("opponents", self.opponents), ("eval_opponent", self.eval_opponent)):
            if value not in OPPONENTS and not is_known_agent(value):
                choices = [c for c in OPPONENTS if name == "opponents" or c == "start"]
                raise ValueError(f"{name} {value!r}; choose {', '.join(choices)} or an agent "
                                 f"({', '.join(sorted(AGENTS))})")
        if self.eval_opponent == "self":
            raise ValueError("eval_opponent 'self' would measure the learner against itself")
        if self.defence not in DEFENCES:
            raise ValueError(f"defence {self.defence!r}; choose {', '.join(DEFENCES)}")
        if self.defence == "start" and (self.rules != "riichi" or self.estimator != "reinforce"):
            raise ValueError("defence 'start' (the start's discards under riichi) is built for "
                             "riichi REINFORCE")
        self._check_heads()
        if self.estimator not in ESTIMATORS:
            raise ValueError(f"estimator {self.estimator!r}; choose {', '.join(ESTIMATORS)}")
        if self.estimator == "vine":
            self.vine_config()  # raises on a bad vine_states / vine_alternatives
            if self.opponents != "self":
                raise ValueError(f"the vine plays greedy self-play trunks; opponents "
                                 f"{self.opponents!r} is REINFORCE's")
            if self.rules == "suits108":
                raise ValueError("the vine estimator is built for the discard heads of riichi "
                                 "and mcr; use reinforce on suits108")
            if self.kl_start > 0:
                raise ValueError("the KL anchor to the start is REINFORCE's; the vine "
                                 "estimator does not use it")
            if self.baseline == "critic":
                raise ValueError("the critic baseline is REINFORCE's; the vine estimator "
                                 "compares discards of the same state and needs none")
            if self.reward.outcome != "hand":
                raise ValueError("the vine estimator scores a branch by its hand's points; "
                                 "reward outcome 'rank' is REINFORCE's")

    def _check_heads(self) -> None:
        self.heads = tuple(self.heads)
        allowed = ("discard", *DECISION_HEADS)
        if not self.heads or len(set(self.heads)) != len(self.heads) or any(
                h not in allowed for h in self.heads):
            raise ValueError(f"heads {','.join(self.heads)!r}: name each of "
                             f"{', '.join(allowed)} at most once")
        if self.heads == ("discard",):
            return
        if self.rules != "riichi" or self.estimator != "reinforce":
            raise ValueError("training heads besides discard is built for riichi REINFORCE")
        if self.baseline == "critic" or self.kl_start > 0:
            raise ValueError("the critic baseline and the KL anchor are built for the discard "
                             "head alone; train other heads with baseline 'mean' or 'none'")

    def vine_config(self) -> VineConfig:
        """The vine settings of this run (Q in units of the reward's ``points_scale``)."""
        return VineConfig(states=self.vine_states, alternatives=self.vine_alternatives,
                          temperature=self.temperature, points_scale=self.reward.points_scale)

    def settings(self, encoder: str) -> dict[str, Any]:
        """The JSON-able settings; the identifying ones are checked on resume."""
        d = asdict(self)
        d["reward"] = asdict(self.reward)
        d["reward"]["rank_values"] = list(self.reward.rank_values)
        d["encoder"] = encoder
        d["heads"] = list(self.heads)
        return d


@dataclass(slots=True)
class PGProgress:
    """Where a run stands; saved in checkpoints and in the final card."""

    games: int = 0
    updates: int = 0
    samples: int = 0
    cpu_seconds: float = 0.0
    history: list[dict[str, float]] = field(default_factory=list)
    curve: list[dict[str, float]] = field(default_factory=list)


Reporter = Callable[[PGProgress, dict[str, float]], None]


Start = ModelBundle | DropoutModel


def _start_model(rules: str, init: str) -> Start:
    """The start model, checked to be one of ``rules`` (its encoder reads that rule set)."""
    if rules == "suits108":
        from tenpai.mcts.agent import DROPOUT_DEFAULT

        path = DROPOUT_DEFAULT if init == "default" else Path(init)
        if not path.exists():
            raise ModelError(f"{path}: no such dropout model file (the 108-tile start is a "
                             f"`tenpai train dropout` model)")
        start = DropoutModel.load(path)
        if start.rules.name != rules:
            raise ModelError(f"{path}: a dropout model of the {start.rules.name} rules, not "
                             f"{rules} (policy gradient after dropout learning is built for "
                             f"the 108-tile game)")
        return start
    if rules == "mcr":
        from tenpai.agents.sl_mcr import resolve_mcr_model_path

        path = resolve_mcr_model_path(init)
    elif rules == "riichi":
        path = resolve_model_path(init)
    else:
        raise ValueError(f"policy gradient is built for riichi and mcr, not {rules!r}")
    bundle = ModelBundle.load(path)
    family = "mcr_" if rules == "mcr" else ""
    is_mcr = bundle.encoder.startswith("mcr_")
    if is_mcr != bool(family):
        raise ModelError(
            f"{path}: start model reads encoder {bundle.encoder!r}, not one of the {rules} "
            f"rule set"
        )
    return bundle


Learner = SamplingSLAgent | SamplingSLMCRAgent | SamplingDropoutAgent


def _keep_defence(cfg: PGConfig, bundle: Start, frozen: Start) -> None:
    """With ``defence="start"``, give the learner's bundle a frozen copy of the start's discard
    head for the discards under another seat's riichi (:data:`~tenpai.agents.sl.THREAT_HEAD`);
    ``SLAgent`` plays it there and the sampling learner records no sample for them."""
    if not isinstance(bundle, ModelBundle) or not isinstance(frozen, ModelBundle):
        return
    if THREAT_HEAD in bundle.heads:
        if cfg.defence != "start":
            raise ModelError(f"start model {cfg.init!r} has a {THREAT_HEAD!r} head (the start's "
                             f"own defence is kept): train it with defence 'start'")
        return
    if cfg.defence == "start":
        start = frozen.heads["discard"]
        bundle.heads[THREAT_HEAD] = Head(
            kind=start.kind, config=dict(start.config), module=copy.deepcopy(start.module),
            card={"role": "the start's discard head, frozen: discards under another seat's "
                  "riichi", "start_card": start.card},
        )


def _trained(model: Start, init: str) -> tuple[torch.nn.Module, str]:
    """The module policy gradient moves and the encoder name that identifies its inputs."""
    if isinstance(model, DropoutModel):
        return model.net, f"{DROPOUT_ENCODER}+{'safety' if model.safety else 'plain'}"
    if "discard" not in model.heads:
        raise ValueError(f"start model {init!r} has no discard head to fine-tune")
    return model.heads["discard"].module, model.encoder


def _learner(cfg: PGConfig, bundle: Start) -> Learner:
    """The training agent on the live weights: sampling for REINFORCE, greedy for the vine."""
    greedy = cfg.estimator == "vine"
    if isinstance(bundle, DropoutModel):
        return SamplingDropoutAgent(bundle, seed=cfg.seed, temperature=cfg.temperature,
                                    greedy=greedy)
    if cfg.rules == "mcr":
        return SamplingSLMCRAgent(bundle, seed=cfg.seed, temperature=cfg.temperature,
                                  threads=None, greedy=greedy)
    return SamplingSLAgent(bundle, seed=cfg.seed, temperature=cfg.temperature, threads=None,
                           greedy=greedy, heads=cfg.heads)


def _greedy(cfg: PGConfig, bundle: Start, name: str) -> Agent:
    if isinstance(bundle, DropoutModel):
        return DropoutAgent(bundle, name=name)
    if cfg.rules == "mcr":
        from tenpai.agents.sl_mcr import SLMCRAgent

        return SLMCRAgent(bundle, name=name, threads=None)
    return SLAgent(bundle, name=name, threads=None)


def train_pg(cfg: PGConfig, report: Reporter | None = None) -> tuple[Path, PGProgress]:
    """Run (or continue) ``cfg``; returns the model file written and the progress."""
    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out)
    bundle = _start_model(cfg.rules, cfg.init)
    frozen = copy.deepcopy(bundle)
    module, encoder = _trained(bundle, cfg.init)
    _keep_defence(cfg, bundle, frozen)
    anchor = _trained(frozen, cfg.init)[0] if cfg.kl_start > 0 else None
    optimizer = torch.optim.Adam(module.parameters(), lr=cfg.lr)
    decisions = _decision_heads(cfg, bundle)
    settings = cfg.settings(encoder)
    progress = PGProgress()
    critic = make_critic(module) if cfg.baseline == "critic" else None
    critic_opt = (torch.optim.Adam(critic.parameters(), lr=cfg.critic_lr)
                  if critic is not None else None)
    ckpt_file = checkpoint_path(out)
    if ckpt_file.exists():
        ckpt = PGCheckpoint.load(ckpt_file)
        ckpt.check_matches(settings, ckpt_file)
        module.load_state_dict(ckpt.policy_state)
        optimizer.load_state_dict(ckpt.optimizer_state)
        if critic is not None and critic_opt is not None and ckpt.critic_state:
            critic.load_state_dict(ckpt.critic_state)
            critic_opt.load_state_dict(ckpt.critic_optimizer_state)
        for head, (m, opt) in decisions.items():
            if head not in ckpt.head_states:
                raise CheckpointError(f"{ckpt_file}: checkpoint holds no {head!r} head state")
            m.load_state_dict(ckpt.head_states[head]["policy"])
            opt.load_state_dict(ckpt.head_states[head]["optimizer"])
        progress = PGProgress(**ckpt.progress)
    writer = _writer(cfg.tensorboard)
    learner = _learner(cfg, bundle)
    opponent = _opponent(cfg, frozen, cfg.opponents) if cfg.opponents != "self" else None
    cpu0 = time.process_time() - progress.cpu_seconds
    wall0 = time.monotonic()
    last_ckpt = time.monotonic()

    def save_checkpoint() -> None:
        progress.cpu_seconds = time.process_time() - cpu0
        PGCheckpoint(
            settings, module.state_dict(), optimizer.state_dict(), asdict(progress),
            critic_state=critic.state_dict() if critic is not None else {},
            critic_optimizer_state=critic_opt.state_dict() if critic_opt is not None else {},
            head_states={h: {"policy": m.state_dict(), "optimizer": opt.state_dict()}
                         for h, (m, opt) in decisions.items()},
        ).save(ckpt_file)

    # No evaluation at game 0 against the start: the greedy learner *is* the start then, and
    # the pair game is symmetric (every deal is played with the seats swapped), so the win rate
    # is exactly 1/2.  Against another agent game 0 is a real measurement: where the curve
    # starts.
    if cfg.eval_every and cfg.eval_opponent != "start" and progress.games == 0:
        _evaluate(cfg, bundle, frozen, progress, writer)
    while _budget_left(cfg, progress, wall0):
        n = cfg.games_per_update
        if cfg.max_games is not None:
            n = min(n, cfg.max_games - progress.games)
        first = cfg.seed * 10_000_000 + progress.games
        # A new sampling stream per update, reproducible on resume.
        learner.seed = cfg.seed * 1_000_003 + progress.updates
        rng = np.random.default_rng([cfg.seed, progress.updates])
        if cfg.estimator == "vine":
            samples, row = _vine_round(cfg, learner, module, optimizer, first, n, rng)
        else:
            samples, row = _reinforce_round(cfg, learner, module, optimizer, critic, critic_opt,
                                            progress, opponent, first, n, rng, anchor,
                                            decisions)
        progress.games += n
        progress.updates += 1
        progress.samples += samples
        progress.cpu_seconds = time.process_time() - cpu0
        row = {"games": float(progress.games), **row,
               "cpu_minutes": progress.cpu_seconds / 60}
        progress.history.append(row)
        if writer is not None:
            for k, v in row.items():
                if k != "games":
                    writer.add_scalar(f"train/{k}", v, progress.games)
        every = cfg.eval_every
        if every and progress.games // every > (progress.games - n) // every:
            _evaluate(cfg, bundle, frozen, progress, writer)
        if report is not None:
            report(progress, row)
        if time.monotonic() - last_ckpt >= cfg.checkpoint_minutes * 60:
            save_checkpoint()
            last_ckpt = time.monotonic()
    save_checkpoint()
    _write_bundle(cfg, bundle, settings, progress, out)
    if writer is not None:
        writer.close()
    return out, progress


def _reinforce_round(
    cfg: PGConfig,
    learner: Learner,
    module: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    critic: torch.nn.Module | None,
    critic_opt: torch.optim.Optimizer | None,
    progress: PGProgress,
    opponent: Agent | None,
    first: int,
    n: int,
    rng: np.random.Generator,
    anchor: torch.nn.Module | None = None,
    decisions: dict[str, tuple[torch.nn.Module, torch.optim.Optimizer]] | None = None,
) -> tuple[int, dict[str, float]]:
    """One REINFORCE update from ``n`` sampled self-play games: decisions and the log row."""
    games = _play(cfg, learner, opponent, first, n)
    samples, row = 0, {}
    for head, (m, opt) in (decisions or {}).items():
        hstats = _decision_update(cfg, games, head, m, opt, rng)
        if hstats is not None:
            samples += int(hstats[f"{head}_samples"])
            row.update(hstats)
    if "discard" not in cfg.heads:
        return samples, row
    batch = collect_batch(games, cfg.reward)
    values = predict_values(critic, batch.x) if critic is not None else None
    stats = reinforce_update(
        module,
        optimizer,
        batch,
        entropy_coef=cfg.entropy,
        temperature=cfg.temperature,
        baseline=cfg.baseline,
        minibatch=cfg.minibatch,
        generator=rng,
        values=values,
        step=critic is None or progress.games >= cfg.critic_warmup,
        anchor=anchor,
        kl_coef=cfg.kl_start,
    )
    row.update(_update_row(stats))
    if anchor is not None:
        row["kl_start"] = stats.kl_start
    if critic is not None and critic_opt is not None:
        cstats: CriticStats = fit_critic(critic, critic_opt, batch.x, batch.returns,
                                         epochs=cfg.critic_epochs, generator=rng)
        row["critic_mse"] = cstats.mse_before
        row["critic_explained"] = cstats.explained_variance
        row["policy_step"] = float(stats.stepped)
    return samples + stats.samples, row


def _decision_heads(
    cfg: PGConfig, bundle: Start
) -> dict[str, tuple[torch.nn.Module, torch.optim.Optimizer]]:
    """The trained riichi / pon / chi heads of ``bundle`` with an optimizer each."""
    out: dict[str, tuple[torch.nn.Module, torch.optim.Optimizer]] = {}
    for head in cfg.heads:
        if head == "discard":
            continue
        if not isinstance(bundle, ModelBundle) or head not in bundle.heads:
            raise ModelError(f"start model {cfg.init!r} has no {head!r} head to train")
        m = bundle.heads[head].module
        out[head] = (m, torch.optim.Adam(m.parameters(), lr=cfg.lr))
    return out


def _decision_update(
    cfg: PGConfig, games: list[PlayedGame], head: str, module: torch.nn.Module,
    optimizer: torch.optim.Optimizer, rng: np.random.Generator,
) -> dict[str, float] | None:
    """One REINFORCE step of a riichi / pon / chi head on its own decisions of ``games`` (its
    own baseline and advantage scale); None when the games hold none of them."""
    if not any(s.head == head for g in games for step in g.steps for s in samples_of(step.info)):
        return None
    batch = collect_batch(games, cfg.reward, head=head)
    stats = reinforce_update(module, optimizer, batch, entropy_coef=cfg.entropy,
                             temperature=cfg.temperature, baseline=cfg.baseline,
                             minibatch=cfg.minibatch, generator=rng)
    return {
        f"{head}_samples": float(stats.samples),
        f"{head}_take": float((batch.action != 0).mean()),
        f"{head}_entropy": stats.entropy,
        f"{head}_return": stats.mean_return,
    }


def _vine_round(
    cfg: PGConfig,
    learner: Learner,
    module: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    first: int,
    n: int,
    rng: np.random.Generator,
) -> tuple[int, dict[str, float]]:
    """One vine update from ``n`` greedy trunk games and their branches: states and the row."""
    if isinstance(learner, SamplingDropoutAgent):  # PGConfig refuses the vine on suits108
        raise ValueError("the vine estimator has no 108-tile learner")
    seeds = list(range(first, first + n))
    states, counts = collect_vine(learner, cfg.rules, cfg.options, seeds, cfg.vine_config(),
                                  tables=min(cfg.tables, n), seed=learner.seed)
    stats = vine_update(module, optimizer, vine_batch(states), entropy_coef=cfg.entropy,
                        temperature=cfg.temperature, minibatch=cfg.minibatch, generator=rng)
    row = {
        **_update_row(stats),
        "mean_abs_adv": stats.mean_abs_adv,
        "alt_better": stats.alt_better,
        "all_equal": stats.all_equal,
        "branches": float(counts.branches),
    }
    return stats.samples, row


def _update_row(stats: UpdateStats | VineStats) -> dict[str, float]:
    """The log row's fields that every estimator's update reports."""
    return {
        "loss": stats.loss,
        "entropy": stats.entropy,
        "mean_return": stats.mean_return,
        "approx_kl": stats.approx_kl,
        "samples": float(stats.samples),
    }


def _play(cfg: PGConfig, learner: Learner, opponent: Agent | None, first: int,
          n: int) -> list[PlayedGame]:
    """The ``n`` sampled games of one update, seeds ``first …``: four learner seats, or two
    against two copies of ``opponent`` with the pairs' seats swapped on every other seed (so the
    learner sits everywhere, as in the arena's rotations)."""
    if opponent is None:
        spec = SelfPlaySpec.series(cfg.rules, [learner] * 4, first, n, cfg.options)
        return VectorRunner(spec, tables=min(cfg.tables, n)).run()
    mine, theirs = SeatSpec(learner), SeatSpec(opponent, record=False)
    games: list[PlayedGame] = []
    for offset, seats in ((0, (mine, theirs) * 2), (1, (theirs, mine) * 2)):
        seeds = tuple(range(first + offset, first + n, 2))
        if seeds:
            spec = SelfPlaySpec(cfg.rules, seats, seeds, dict(cfg.options))
            games += VectorRunner(spec, tables=min(cfg.tables, len(seeds))).run()
    return sorted(games, key=lambda g: g.seed)


def _opponent(cfg: PGConfig, frozen: Start, name: str) -> Agent:
    """``start`` (a greedy copy of the frozen start model) or a registered agent by name."""
    if name == "start":
        return _greedy(cfg, frozen, "start")
    from tenpai.agents.registry import make_agent

    return make_agent(name, cfg.seed)


def _budget_left(cfg: PGConfig, progress: PGProgress, wall0: float) -> bool:
    if cfg.max_games is not None and progress.games >= cfg.max_games:
        return False
    return time.monotonic() - wall0 < cfg.minutes * 60


def _evaluate(
    cfg: PGConfig, bundle: Start, frozen: Start, progress: PGProgress, writer: Any
) -> PairResult:
    seeds = range(EVAL_SEED_BASE + cfg.seed * 10_000, EVAL_SEED_BASE + cfg.seed * 10_000 +
                  cfg.eval_deals)
    greedy = _greedy(cfg, bundle, "pg")
    start = _opponent(cfg, frozen, cfg.eval_opponent)
    r = play_pairs(greedy, start, cfg.rules, cfg.options, list(seeds), tables=cfg.tables)
    point = {
        "games": float(progress.games),
        "win_rate": r.win_rate,
        "low": r.low,
        "high": r.high,
        "learner_rank": r.learner_rank,
        "start_rank": r.start_rank,
        "deals": float(r.deals),
    }
    progress.curve.append(point)
    if writer is not None:
        writer.add_scalar("eval/pair_win_rate", r.win_rate, progress.games)
        writer.add_scalar("eval/learner_rank", r.learner_rank, progress.games)
    return r


def _write_bundle(
    cfg: PGConfig, bundle: Start, settings: dict[str, Any], progress: PGProgress, out: Path
) -> None:
    card = {
        "method": _METHODS["reinforce_suits108" if cfg.rules == "suits108" else cfg.estimator],
        "settings": settings,
        "games": progress.games,
        "updates": progress.updates,
        "samples": progress.samples,
        "cpu_minutes": round(progress.cpu_seconds / 60, 2),
        "curve": progress.curve,
        "last_updates": progress.history[-5:],
    }
    if isinstance(bundle, DropoutModel):
        bundle.card = {**card, "start_card": bundle.card}
        bundle.save(out)
        return
    for name in {"discard", *cfg.heads}:
        head = bundle.heads[name]
        head.card = {**card, "start_card": head.card}
    bundle.save(out, half=True)


def _writer(log_dir: str | None) -> Any:
    if log_dir is None:
        return None
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(log_dir=log_dir)

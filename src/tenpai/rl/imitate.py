"""A supervised start from self-play: imitate a rule agent's decisions (the MCR start of 002).

Seed 002 starts its policy gradient from a network trained on 9 M human discards; the 132 real
MCR games we have give a discard head of about 20 % agreement, a poor start.  A rule agent that
plays MCR well (``planner`` beats ``efficiency``, which beats ``expert``, in our arena) can be
watched for as many games as the CPU allows: this module plays seeded games with the teacher in
every seat on the batched runner, encodes each decision the teacher makes the way the supervised
agent sees it (the same tracker and encoder), and fits the same heads the supervised MCR model has —
``discard`` (34 kinds), ``peng`` (2), ``chi`` (4: none or the claimed tile's place in the run)
and ``gang`` (2) — with cross-entropy over the legal classes.  The result is an ordinary model
bundle; ``tenpai train sl --init-from`` can continue it on the real records.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import torch
from torch import nn

from tenpai import tiles as T
from tenpai.agents.registry import make_agent
from tenpai.agents.rulesets import check_agent_rules, check_built_agent
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.learn.mcr.decisions import chow_class
from tenpai.learn.mcr.state import MCRTracker
from tenpai.learn.rulesets import get_encoder
from tenpai.models.build import build_model
from tenpai.models.bundle import Head, ModelBundle
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner
from tenpai.train.sl import masked_logits

__all__ = ["DEFAULT_TEACHER", "HEADS", "ImitationConfig", "ImitationData", "check_teacher",
           "collect_imitation", "train_imitation"]

#: Heads and their class counts, as the supervised MCR model has them.
HEADS: dict[str, int] = {"discard": 34, "peng": 2, "chi": 4, "gang": 2}


@dataclass(slots=True)
class ImitationData:
    """Encoded decisions per head: inputs, legal-class masks and the teacher's labels."""

    x: dict[str, list[np.ndarray]] = field(default_factory=lambda: {h: [] for h in HEADS})
    legal: dict[str, list[np.ndarray]] = field(default_factory=lambda: {h: [] for h in HEADS})
    label: dict[str, list[int]] = field(default_factory=lambda: {h: [] for h in HEADS})

    def add(self, head: str, x: np.ndarray, legal: np.ndarray, label: int) -> None:
        self.x[head].append(x)
        self.legal[head].append(legal)
        self.label[head].append(label)

    def count(self, head: str) -> int:
        return len(self.label[head])


class _Recorder:
    """Plays as the teacher and writes down each decision the heads model."""

    def __init__(self, teacher: Agent, sink: ImitationData, encoder: Any) -> None:
        self.teacher = teacher
        self.name = teacher.name
        self.sink = sink
        self.encoder = encoder

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        choice = self.teacher.act(observation, legal)
        self._record(observation, legal, choice)
        return choice

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def _record(self, obs: Any, legal: Sequence[Event], choice: Event) -> None:
        types = {e.type for e in legal}
        if "hora" in types:
            return
        tracker = MCRTracker()
        for e in obs.events:
            tracker.apply(e)
        if "dahai" in types:
            view = tracker.view(obs.seat)
            x = self.encoder.encode(view)
            if types & {"ankan", "kakan"}:
                kong = choice.type in ("ankan", "kakan")
                self.sink.add("gang", x, np.ones(2, dtype=bool), int(kong))
                if kong:
                    return
            if choice.type == "dahai" and choice.pai is not None:
                mask = np.zeros(34, dtype=bool)
                for e in legal:
                    if e.type == "dahai" and e.pai is not None:
                        mask[T.kind_of(e.pai)] = True
                self.sink.add("discard", x, mask, T.kind_of(choice.pai))
            return
        claims = [e for e in legal if e.type in ("chi", "pon", "daiminkan")]
        if not claims or claims[0].pai is None:
            return
        offered = T.kind_of(claims[0].pai)
        x = self.encoder.encode(tracker.view(obs.seat, offered=offered))
        if "daiminkan" in types:
            self.sink.add("gang", x, np.ones(2, dtype=bool), int(choice.type == "daiminkan"))
        if "pon" in types:
            self.sink.add("peng", x, np.ones(2, dtype=bool), int(choice.type == "pon"))
        chis = [e for e in legal if e.type == "chi"]
        if chis:
            mask = np.zeros(4, dtype=bool)
            mask[0] = True
            for e in chis:
                mask[chow_class(offered, [T.kind_of(c) for c in e.consumed])] = True
            label = 0
            if choice.type == "chi":
                label = chow_class(offered, [T.kind_of(c) for c in choice.consumed])
            self.sink.add("chi", x, mask, label)


#: The default teacher: the strongest MCR agent measured (docs/mcr_strength.md: ``planner``
#: ahead of ``efficiency`` by 0.12 places over 1,000 pre-registered games).  A student starts
#: no stronger than what it imitates, so the start comes from the best player we have.
DEFAULT_TEACHER: Final = "planner"


@dataclass(slots=True)
class ImitationConfig:
    """One imitation run (recorded in every head's card)."""

    teacher: str = DEFAULT_TEACHER
    rules: str = "mcr"
    options: dict[str, str] = field(default_factory=lambda: {"preset": "botzone"})
    encoder: str = "mcr_stack002@1"
    games: int = 2000
    first_seed: int = 0
    tables: int = 16
    width: int = 48
    blocks: int = 3
    lr: float = 1e-3
    batch_size: int = 256
    minutes: float = 10.0
    dev_fraction: float = 0.05
    seed: int = 0


def check_teacher(cfg: ImitationConfig) -> None:
    """Refuse (a ``ValueError``) a teacher that does not play ``cfg.rules`` before any game:
    an ``sl`` teacher fed MCR tables breaks mid-way or teaches nonsense."""
    check_agent_rules(cfg.teacher, cfg.rules)
    check_built_agent(cfg.teacher, make_agent(cfg.teacher, 0), cfg.rules)


def collect_imitation(
    cfg: ImitationConfig, progress: Callable[[int], None] | None = None
) -> ImitationData:
    """Play ``cfg.games`` games with the teacher in every seat and record its decisions."""
    if cfg.games < 1 or cfg.tables < 1:
        raise ValueError("games and tables must be at least 1")
    check_teacher(cfg)
    data = ImitationData()
    encoder = get_encoder(cfg.encoder, "mcr")

    def factory(seed: int) -> Agent:
        return _Recorder(make_agent(cfg.teacher, seed), data, encoder)

    spec = SelfPlaySpec.series(cfg.rules, [factory] * 4, cfg.first_seed, cfg.games, cfg.options)
    for n, _game in enumerate(VectorRunner(spec, tables=cfg.tables).games(), start=1):
        if progress is not None:
            progress(n)
    return data


def train_imitation(cfg: ImitationConfig, data: ImitationData) -> ModelBundle:
    """Fit every head that has data; the time budget is shared evenly among them."""
    torch.manual_seed(cfg.seed)
    bundle = ModelBundle(encoder=cfg.encoder)
    heads = [h for h in HEADS if data.count(h) >= 20]
    for head in heads:
        t0 = time.process_time()
        x = np.stack(data.x[head]).astype(np.float32)
        legal = np.stack(data.legal[head])
        y = np.asarray(data.label[head], dtype=np.int64)
        config = {"arch": "resnet", "in_channels": int(x.shape[1]), "classes": HEADS[head],
                  "width": cfg.width, "blocks": cfg.blocks}
        module = build_model(config)
        metrics = _fit(module, x, legal, y, cfg, cfg.minutes / len(heads))
        module.eval()
        card = {
            "kind": head,
            "method": f"imitation of {cfg.teacher} in {cfg.games} self-play games",
            "teacher": cfg.teacher,
            "rules": cfg.rules,
            "options": cfg.options,
            "games": cfg.games,
            "first_seed": cfg.first_seed,
            "samples": len(y),
            "cpu_minutes": round((time.process_time() - t0) / 60, 2),
            **metrics,
        }
        bundle.heads[head] = Head(head, config, module, card)
    return bundle


def _fit(
    module: nn.Module,
    x: np.ndarray,
    legal: np.ndarray,
    y: np.ndarray,
    cfg: ImitationConfig,
    minutes: float,
) -> dict[str, float]:
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(y))
    n_dev = max(1, int(len(y) * cfg.dev_fraction))
    dev, train = order[:n_dev], order[n_dev:]
    opt = torch.optim.Adam(module.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss()
    deadline = time.monotonic() + minutes * 60
    epochs = 0
    best: tuple[float, dict[str, torch.Tensor]] | None = None
    while time.monotonic() < deadline and epochs < 50:
        module.train()
        for start in range(0, len(train), cfg.batch_size):
            idx = rng.permutation(train[start : start + cfg.batch_size])
            logits = masked_logits(module(torch.from_numpy(x[idx])), torch.from_numpy(legal[idx]))
            loss = loss_fn(logits, torch.from_numpy(y[idx]))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if time.monotonic() >= deadline:
                break
        epochs += 1
        acc, dev_loss = _evaluate(module, x[dev], legal[dev], y[dev])
        if best is None or dev_loss < best[0]:
            best = (dev_loss, {k: v.clone() for k, v in module.state_dict().items()})
    if best is not None:
        module.load_state_dict(best[1])
    acc, dev_loss = _evaluate(module, x[dev], legal[dev], y[dev])
    return {"dev_accuracy": round(acc, 4), "dev_loss": round(dev_loss, 4), "epochs": epochs,
            "dev_samples": len(dev)}


def _evaluate(
    module: nn.Module, x: np.ndarray, legal: np.ndarray, y: np.ndarray
) -> tuple[float, float]:
    module.eval()
    with torch.inference_mode():
        logits = masked_logits(module(torch.from_numpy(x)), torch.from_numpy(legal))
        loss = float(nn.functional.cross_entropy(logits, torch.from_numpy(y)))
        acc = float((logits.argmax(dim=1).numpy() == y).mean())
    return acc, loss

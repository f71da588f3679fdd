"""From self-play games to the unrolled training samples of Fig. 4.

A *trajectory* is one hand's decisions in the order the search tree sees them: the batched
runner answers a claim window all at once, the tree takes its deciders one after another by
priority (win, then pong/kong, then chow; ties in turn order after the player who let the tile
go), and a window stops at the first claim taken (the lower priorities never matter).  Each
decision carries its input planes, the search policy π, the action, the transition it led to
(outcome: position change to the next decider and that decider's state, or ``end``), the value
target (the hand's result for every player, relative to the decider) and the reward of its
transition (the result at the hand's last decision, zero before).

The replay buffer keeps the trajectories of the latest ``versions`` model versions
(Appendix C: "always stores the training data of the latest several model versions").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import torch

from tenpai.events import Event
from tenpai.mcts.actions import CHOW, END, PONG, TURN, WIN, outcome
from tenpai.selfplay.trajectory import PlayedGame, Step

__all__ = ["ReplayBuffer", "Trajectory", "ValueTarget", "hand_results", "trajectories"]

ValueTarget = Literal["sign", "scaled"]


@dataclass(slots=True)
class Trajectory:
    """One hand as training data (arrays of equal length ``L``)."""

    planes: np.ndarray  # (L, planes, kinds) uint8 (see tenpai.mcts.packed_planes.pack)
    policy: np.ndarray  # (L, action ids) float32
    actions: np.ndarray  # (L,) int64
    outcomes: np.ndarray  # (L,) int64
    values: np.ndarray  # (L, 4) float32, relative to the decider
    rewards: np.ndarray  # (L, 4) float32, relative to the decider
    version: int
    #: (L, 3, kinds) uint8 safety planes for the normal agent (``features.safety_planes``); None
    #: in data recorded before they existed.
    safe: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.actions)

    def to_tensors(self) -> dict[str, torch.Tensor]:
        out = {
            "planes": torch.from_numpy(self.planes),
            "policy": torch.from_numpy(self.policy),
            "actions": torch.from_numpy(self.actions),
            "outcomes": torch.from_numpy(self.outcomes),
            "values": torch.from_numpy(self.values),
            "rewards": torch.from_numpy(self.rewards),
            "version": torch.tensor(self.version),
        }
        if self.safe is not None:
            out["safe"] = torch.from_numpy(self.safe)
        return out

    @classmethod
    def from_tensors(cls, d: dict[str, torch.Tensor]) -> Trajectory:
        return cls(
            d["planes"].numpy(), d["policy"].numpy(), d["actions"].numpy(),
            d["outcomes"].numpy(), d["values"].numpy(), d["rewards"].numpy(),
            int(d["version"]), d["safe"].numpy() if "safe" in d else None,
        )


def hand_results(events: Sequence[Event]) -> list[tuple[int, ...]]:
    """Each hand's point change per seat, in hand order: the payments of its wins and draws
    and, in Riichi, the deposits of its accepted riichi declarations (read from the scores
    the declaration event carries), so a declarer who does not win is down its stick."""
    out: list[tuple[int, ...]] = []
    cur = [0, 0, 0, 0]
    scores: list[int] | None = None
    for e in events:
        if e.type == "start_kyoku":
            cur = [0, 0, 0, 0]
            scores = list(e.scores) if e.scores else None
        elif e.type == "reach_accepted" and e.scores and scores is not None:
            cur = [c + a - b for c, a, b in zip(cur, e.scores, scores)]
            scores = list(e.scores)
        elif e.type in ("hora", "ryukyoku") and e.deltas:
            cur = [c + d for c, d in zip(cur, e.deltas)]
            if scores is not None:
                scores = [s + d for s, d in zip(scores, e.deltas)]
        elif e.type == "end_kyoku":
            out.append(tuple(cur))
    return out


def _target(delta: int, mode: ValueTarget, scale: float) -> float:
    if mode == "sign":
        return float(np.sign(delta))
    return float(np.clip(delta / scale, -1.0, 1.0))


def _priority(step: Step) -> int:
    types = {e.type for e in step.legal}
    if "hora" in types:
        return 0
    if types & {"pon", "daiminkan"}:
        return 1
    if "chi" in types:
        return 2
    return 3


def _state_of(step: Step) -> int:
    """The Table 2 player state of a decision: own turn, or which claim it may make."""
    if not any(e.type == "none" for e in step.legal):
        return TURN
    return (WIN, PONG, CHOW, TURN)[_priority(step)]


def _ordered(steps: list[Step]) -> list[Step]:
    """The hand's decisions as the tree sequences them (see the module docstring)."""
    out: list[Step] = []
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j].turn == steps[i].turn:
            j += 1
        window = steps[i:j]
        if len(window) > 1:
            before = out[-1].seat if out else window[0].seat
            window.sort(key=lambda s: (_priority(s), (s.seat - before) % 4))
            kept = []
            for s in window:
                kept.append(s)
                if s.action.type != "none":
                    break
            window = kept
        out.extend(window)
        i = j
    return out


def trajectories(
    game: PlayedGame, version: int, mode: ValueTarget = "sign", scale: float = 8000.0
) -> list[Trajectory]:
    """The hands of ``game`` whose decisions carry the search's info (all four seats)."""
    results = hand_results(game.events)
    by_hand: dict[int, list[Step]] = {}
    for s in game.steps:
        if isinstance(s.info, dict) and "planes" in s.info:
            by_hand.setdefault(int(s.info["hand"]), []).append(s)
    out: list[Trajectory] = []
    for hand, steps in sorted(by_hand.items()):
        if hand >= len(results):
            continue
        seq = _ordered(steps)
        delta = results[hand]
        n = len(seq)
        outcomes = np.zeros(n, dtype=np.int64)
        values = np.zeros((n, 4), dtype=np.float32)
        rewards = np.zeros((n, 4), dtype=np.float32)
        for k, s in enumerate(seq):
            z = [_target(delta[(s.seat + j) % 4], mode, scale) for j in range(4)]
            values[k] = z
            if k + 1 < n:
                nxt = seq[k + 1]
                outcomes[k] = outcome((nxt.seat - s.seat) % 4, _state_of(nxt))
            else:
                outcomes[k] = outcome(0, END)
                rewards[k] = z
        info: list[dict[str, Any]] = [s.info for s in seq]
        out.append(
            Trajectory(
                planes=np.stack([i["planes"] for i in info]),
                policy=np.stack([i["policy"] for i in info]).astype(np.float32),
                actions=np.array([int(i["action"]) for i in info], dtype=np.int64),
                outcomes=outcomes,
                values=values,
                rewards=rewards,
                version=version,
                safe=(np.stack([i["safe"] for i in info])
                      if all("safe" in i for i in info) else None),
            )
        )
    return out


class ReplayBuffer:
    """Trajectories of the latest ``versions`` model versions; samples positions uniformly."""

    def __init__(self, versions: int) -> None:
        if versions < 1:
            raise ValueError(f"the buffer must keep at least one version, got {versions}")
        self.versions = versions
        self.items: list[Trajectory] = []

    def add(self, items: Sequence[Trajectory]) -> None:
        self.items.extend(items)
        newest = max((t.version for t in self.items), default=0)
        self.items = [t for t in self.items if t.version > newest - self.versions]

    @property
    def positions(self) -> int:
        return sum(len(t) for t in self.items)

    def sample(
        self, batch: int, unroll: int, rng: np.random.Generator
    ) -> dict[str, torch.Tensor]:
        """A batch of ``unroll``-step windows (Fig. 4); past a hand's end the action is a pass
        into ``end``, the value and reward targets zero and the policy target masked."""
        lengths = np.array([len(t) for t in self.items])
        picks = rng.choice(len(self.items), size=batch, p=lengths / lengths.sum())
        k1 = unroll + 1
        planes = np.zeros((batch, *self.items[0].planes.shape[1:]), dtype=np.uint8)
        policy = np.zeros((batch, k1, self.items[0].policy.shape[1]), dtype=np.float32)
        pmask = np.zeros((batch, k1), dtype=np.float32)
        values = np.zeros((batch, k1, 4), dtype=np.float32)
        rewards = np.zeros((batch, unroll, 4), dtype=np.float32)
        # Every action space ends with the pass (tenpai.mcts.actions.action_tables checks it).
        pass_id = self.items[0].policy.shape[1] - 1
        actions = np.full((batch, unroll), pass_id, dtype=np.int64)
        outcomes = np.full((batch, k1), outcome(0, END), dtype=np.int64)
        omask = np.zeros((batch, k1), dtype=np.float32)
        for b, ti in enumerate(picks):
            t = self.items[ti]
            i = int(rng.integers(len(t)))
            planes[b] = t.planes[i]
            for k in range(k1):
                j = i + k
                if j < len(t):
                    policy[b, k] = t.policy[j]
                    pmask[b, k] = 1.0
                    values[b, k] = t.values[j]
                    outcomes[b, k] = t.outcomes[j]
                    omask[b, k] = 1.0
                    if k < unroll:
                        actions[b, k] = t.actions[j]
                        rewards[b, k] = t.rewards[j]
        return {
            "planes": torch.from_numpy(planes),
            "policy": torch.from_numpy(policy),
            "pmask": torch.from_numpy(pmask),
            "values": torch.from_numpy(values),
            "rewards": torch.from_numpy(rewards),
            "actions": torch.from_numpy(actions),
            "outcomes": torch.from_numpy(outcomes),
            "omask": torch.from_numpy(omask),
        }

"""Training checkpoints of policy-gradient runs: resume after a kill, never run pickled code.

A checkpoint is one ``torch.save`` of plain containers — tensors, numbers, and JSON strings for
the settings and the progress — written to a temporary file and renamed, so a kill at any moment
leaves either the previous checkpoint or the new one, never half of one.  It is read back with
``torch.load(weights_only=True)``.  A checkpoint knows the settings it was made with; resuming
with different ones (another rule set, start model or reward) is refused by name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import torch

from tenpai.models.torchfile import load_tagged, save_atomic

__all__ = ["FORMAT", "CheckpointError", "PGCheckpoint", "checkpoint_path"]

FORMAT: Final = "tenpai-pg-checkpoint/1"

#: Settings that must match for a run to continue from a checkpoint.
IDENTITY: Final = ("rules", "options", "init", "encoder", "reward", "seed", "baseline",
                   "estimator", "opponents", "defence", "heads")
#: Identifying settings added after checkpoints were first written, with the value a checkpoint
#: without the key was made with (so an older run resumes as what it was).
ADDED_LATER: Final = {"estimator": "reinforce", "opponents": "self", "defence": "learned",
                      "heads": ["discard"]}
#: The same for fields of the ``reward`` settings.
REWARD_ADDED_LATER: Final = {"shaping_discount": 1.0}


class CheckpointError(ValueError):
    """A checkpoint that cannot be used; the message names the file and the reason."""


def checkpoint_path(out: Path) -> Path:
    """Where the run writing ``out`` keeps its checkpoint (beside it, ``<out>.ckpt``)."""
    return out.with_name(out.name + ".ckpt")


@dataclass(slots=True)
class PGCheckpoint:
    """Everything a run needs to go on: weights, optimizer, progress and its settings."""

    settings: dict[str, Any]
    policy_state: dict[str, torch.Tensor]
    optimizer_state: dict[str, Any]
    progress: dict[str, Any] = field(default_factory=dict)
    #: The learned baseline and its optimizer (``--baseline critic`` only; empty otherwise).
    critic_state: dict[str, torch.Tensor] = field(default_factory=dict)
    critic_optimizer_state: dict[str, Any] = field(default_factory=dict)
    #: Trained heads besides the discard head (``--heads``): per head, ``policy`` weights and
    #: ``optimizer`` state.
    head_states: dict[str, dict[str, Any]] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        payload = {
            "format": FORMAT,
            "settings_json": json.dumps(self.settings, sort_keys=True),
            "progress_json": json.dumps(self.progress, sort_keys=True),
            "policy_state": {k: v.detach().cpu().clone() for k, v in self.policy_state.items()},
            "optimizer_state": self.optimizer_state,
            "critic_state": {k: v.detach().cpu().clone() for k, v in self.critic_state.items()},
            "critic_optimizer_state": self.critic_optimizer_state,
            "head_states": {
                h: {"policy": {k: v.detach().cpu().clone() for k, v in st["policy"].items()},
                    "optimizer": st["optimizer"]}
                for h, st in self.head_states.items()
            },
        }
        save_atomic(payload, path)

    @classmethod
    def load(cls, path: Path) -> PGCheckpoint:
        payload = load_tagged(path, FORMAT, CheckpointError, "checkpoint")
        try:
            return cls(
                settings=json.loads(payload["settings_json"]),
                policy_state=dict(payload["policy_state"]),
                optimizer_state=dict(payload["optimizer_state"]),
                progress=json.loads(payload["progress_json"]),
                critic_state=dict(payload.get("critic_state", {})),
                critic_optimizer_state=dict(payload.get("critic_optimizer_state", {})),
                head_states={h: {"policy": dict(st["policy"]), "optimizer": dict(st["optimizer"])}
                             for h, st in dict(payload.get("head_states", {})).items()},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{path}: checkpoint is missing or garbles {exc}") from None

    def check_matches(self, settings: dict[str, Any], path: Path) -> None:
        """Refuse to continue a run whose identifying settings differ from this checkpoint's."""
        for key in IDENTITY:
            mine, theirs = self.settings.get(key), settings.get(key)
            if key in ADDED_LATER:
                mine = ADDED_LATER[key] if mine is None else mine
                theirs = ADDED_LATER[key] if theirs is None else theirs
            if key == "reward" and isinstance(mine, dict) and isinstance(theirs, dict):
                mine = {**REWARD_ADDED_LATER, **mine}
                theirs = {**REWARD_ADDED_LATER, **theirs}
            if mine != theirs:
                raise CheckpointError(
                    f"{path}: checkpoint was made with {key}={mine!r}, this run asks for "
                    f"{theirs!r}; use another --out or delete the checkpoint to start afresh"
                )

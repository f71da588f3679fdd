"""The normal agent's network and its file (dropout learning, seed 000 Section 3.2).

:class:`DropoutModel` is what the ``dropout`` agent (:class:`tenpai.mcts.agent.DropoutAgent`)
plays with and what :func:`tenpai.mcts.dropout.train_dropout` fits and writes; it sits below
both, so the agent never imports the training (which rates the agent as it goes).  Same file
conventions as the search model: a tagged payload of plain values and tensors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch

from tenpai.mcts.rulesets import RULE_SETS, SearchRules, search_rules
from tenpai.models.muzero import SIZES, NormalNet
from tenpai.models.torchfile import load_tagged, save_atomic

__all__ = ["FORMAT", "DropoutModel"]

FORMAT: Final = "tenpai-dropout/1"


class DropoutModel:
    """The normal agent's network and card; same file conventions as the search model."""

    def __init__(self, size: str = "small", card: dict[str, Any] | None = None,
                 safety: bool = False, rules: str = "suits108") -> None:
        s = SIZES[size]
        self.size = size
        self.card = card or {}
        self.safety = safety
        self.rules: SearchRules = search_rules(rules)
        r = self.rules
        self.net = NormalNet(r.planes + (r.safety_planes if safety else 0), r.tables.n,
                             s.channels, s.blocks, r.kinds)

    def inputs(self, planes: np.ndarray, safe: np.ndarray | None) -> torch.Tensor:
        """The network's input from float planes (hidden ones already masked) and, if this
        model reads them, the (B, 3, kinds) safety planes."""
        x = torch.from_numpy(planes)
        if not self.safety:
            return x
        if safe is None:
            raise ValueError("this normal agent reads the safety planes, none were given")
        return torch.cat([x, torch.from_numpy(safe.astype(np.float32))], dim=1)

    def save(self, path: Path) -> None:
        payload = {"format": FORMAT, "size": self.size, "encoder": self.rules.encoder,
                   "rules": self.rules.name, "safety": self.safety,
                   "card_json": json.dumps(self.card, sort_keys=True),
                   "state": {k: v.detach().clone() for k, v in self.net.state_dict().items()}}
        path.parent.mkdir(parents=True, exist_ok=True)
        save_atomic(payload, path)

    @classmethod
    def load(cls, path: Path) -> DropoutModel:
        from tenpai.mcts.model import MCTSModelError

        payload = load_tagged(path, FORMAT, MCTSModelError)
        safety = payload.get("safety", False)  # absent in files from before the planes
        rules = payload.get("rules", "suits108")  # absent in files from before Riichi
        if (rules not in RULE_SETS or payload.get("encoder") != search_rules(rules).encoder
                or payload.get("size") not in SIZES or not isinstance(safety, bool)):
            raise MCTSModelError(f"{path}: rules, encoder, inputs or size this version cannot "
                                 f"read")
        try:
            model = cls(str(payload["size"]), json.loads(payload["card_json"]), safety, rules)
            model.net.load_state_dict(payload["state"])
        except (KeyError, TypeError, ValueError, RuntimeError) as exc:
            raise MCTSModelError(f"{path}: card or weights missing or garbled: {exc}") from None
        return model

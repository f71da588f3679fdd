"""The search model: a :class:`~tenpai.models.muzero.MuZeroNet` with its settings, the
:class:`~tenpai.mcts.search.Evaluator` the search calls, and the model file format.

A model file is one ``torch.save`` of plain containers (``format``, a JSON card, the weights),
read back with ``weights_only=True`` so that loading never runs code.  The card names the rule
set and the encoder; loading a file of another rule set, another encoder or another format is
refused with one line (:class:`MCTSModelError`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch

from tenpai.mcts.actions import OUTCOMES, ActionTables
from tenpai.mcts.features import ENCODER, transition_planes
from tenpai.mcts.rulesets import RULE_SETS, SearchRules, search_rules
from tenpai.mcts.search import Evaluation
from tenpai.models.muzero import SIZES, MuZeroNet
from tenpai.models.torchfile import load_tagged, save_atomic

__all__ = [
    "DEFAULT_MODEL",
    "FORMAT",
    "MCTSModel",
    "MCTSModelError",
    "ModelCard",
    "NetEvaluator",
    "resolve_model",
]

FORMAT: Final = "tenpai-muzero/1"
RULES: Final = "suits108"
#: The weights shipped with the package (trained by ``tenpai train mcts``, docs/mcts.md).
DEFAULT_MODEL: Final = Path(__file__).with_name("weights") / "suits108_small.pt"


class MCTSModelError(ValueError):
    """A model file that cannot be used; the message names the file and the reason."""


@dataclass(slots=True)
class ModelCard:
    """What a model is: its rules, encoder, size, feature access, and how it was trained."""

    rules: str = RULES
    encoder: str = ENCODER
    size: str = "small"
    access: str = "full"
    version: int = 0
    training: dict[str, Any] = field(default_factory=dict)


class MCTSModel:
    """The network plus its card; the card's rule set fixes the network's shape."""

    def __init__(self, card: ModelCard, net: MuZeroNet | None = None) -> None:
        if card.size not in SIZES:
            raise MCTSModelError(f"unknown network size {card.size!r}; known: {', '.join(SIZES)}")
        if card.rules not in RULE_SETS:
            raise MCTSModelError(
                f"the search has no rule set {card.rules!r}; known: {', '.join(RULE_SETS)}"
            )
        self.card = card
        self.rules: SearchRules = search_rules(card.rules)
        if card.encoder != self.rules.encoder:
            raise MCTSModelError(
                f"a {card.rules} model reads encoder {self.rules.encoder!r}, not {card.encoder!r}"
            )
        size = SIZES[card.size]
        r = self.rules
        self.net = net or MuZeroNet(
            r.planes, r.transition_planes, r.tables.n, r.tables.groups, OUTCOMES,
            channels=size.channels, blocks=size.blocks, kinds=r.kinds,
        )

    def save(self, path: Path) -> None:
        """Atomic write: a temporary file renamed over ``path``."""
        payload = {
            "format": FORMAT,
            "card_json": json.dumps(asdict(self.card), sort_keys=True),
            "state": {k: v.detach().cpu().clone() for k, v in self.net.state_dict().items()},
        }
        save_atomic(payload, path)

    @classmethod
    def load(cls, path: Path) -> MCTSModel:
        payload = load_tagged(path, FORMAT, MCTSModelError)
        try:
            card = ModelCard(**json.loads(payload["card_json"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise MCTSModelError(f"{path}: model card is missing or garbled: {exc}") from None
        if card.rules not in RULE_SETS or card.encoder != search_rules(card.rules).encoder:
            raise MCTSModelError(
                f"{path}: a model of rules {card.rules!r} / encoder {card.encoder!r}; the search "
                f"plays {' or '.join(f'{n!r} with {search_rules(n).encoder!r}' for n in RULE_SETS)}"
            )
        model = cls(card)
        try:
            model.net.load_state_dict(payload["state"])
        except (KeyError, RuntimeError) as exc:
            raise MCTSModelError(f"{path}: weights do not fit the card's network: {exc}") from None
        return model


def resolve_model(name: str | Path) -> Path:
    """``"default"`` → the shipped weights; anything else is a path."""
    if str(name) == "default":
        if not DEFAULT_MODEL.exists():
            raise MCTSModelError(
                f"no default suits108 search model at {DEFAULT_MODEL}; train one with "
                f"`tenpai train mcts` and pass its path"
            )
        return DEFAULT_MODEL
    return Path(name)


class NetEvaluator:
    """Runs the network in evaluation mode for the search, without gradients; internal
    states stay torch rows so a batch of leaves is one ``torch.stack``."""

    def __init__(self, net: MuZeroNet, tables: ActionTables | None = None) -> None:
        from tenpai.mcts.actions import SUITS108

        self.net = net
        #: The action ids the network's policy is over (the search reads them from here).
        self.tables = tables or SUITS108
        self.calls = 0
        self.rows = 0

    def _out(self, states: torch.Tensor, reward: torch.Tensor | None) -> Evaluation:
        pred = self.net.predict(states)
        return Evaluation(
            states=list(states.unbind(0)),
            policy=pred.policy.numpy(),
            transition=pred.transition.numpy(),
            value=pred.value.numpy(),
            reward=None if reward is None else reward.numpy(),
        )

    def initial(self, planes: np.ndarray) -> Evaluation:
        self.net.eval()
        self.calls += 1
        self.rows += len(planes)
        with torch.inference_mode():
            s = self.net.represent(torch.from_numpy(np.ascontiguousarray(planes, np.float32)))
            return self._out(s, None)

    def recurrent(
        self, states: Sequence[Any], actions: np.ndarray, outcomes: np.ndarray
    ) -> Evaluation:
        self.net.eval()
        self.calls += 1
        self.rows += len(actions)
        with torch.inference_mode():
            t = torch.from_numpy(transition_planes(actions, outcomes, self.tables))
            s, r = self.net.dynamics(torch.stack(list(states)), t)
            return self._out(s, r)

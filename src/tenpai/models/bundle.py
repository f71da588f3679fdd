"""A trained model: one network per decision kind, the encoder they read, and a model card.

Saved as one file with ``torch.save`` of plain containers (strings, numbers, tensors) and
loaded with ``torch.load(weights_only=True)``, so opening a checkpoint never runs pickled code.
Configs and cards are stored as JSON strings.  ``save(half=True)`` stores float16 weights (the
shipped default model) and ``load`` always returns float32 modules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch
from torch import nn

from tenpai.models.build import build_model
from tenpai.models.networks import ModelConfigError
from tenpai.models.suit_orders import SUIT_ORDERS
from tenpai.models.torchfile import file_fingerprint, load_tagged, save_atomic

__all__ = [
    "FORMAT",
    "Head",
    "ModelBundle",
    "ModelError",
    "ensemble_head",
    "ensemble_members",
    "load_for_agent",
    "resolve_model_path",
    "set_inference_threads",
]

FORMAT: Final = "tenpai-sl-model/1"
DEFAULT_RESOURCE: Final = "sl_default.pt"


class ModelError(ValueError):
    """A model file cannot be used; the message names it."""


@dataclass(slots=True)
class Head:
    """One decision kind's network, its config and its training card."""

    kind: str
    config: dict[str, Any]
    module: nn.Module
    card: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ModelBundle:
    encoder: str
    heads: dict[str, Head] = field(default_factory=dict)

    def save(self, path: str | Path, *, half: bool = False) -> None:
        """Write atomically (temporary file, then rename)."""
        payload: dict[str, Any] = {"format": FORMAT, "encoder": self.encoder, "heads": {}}
        for kind, h in self.heads.items():
            state = {
                k: (v.half() if half and v.is_floating_point() else v).detach().cpu().clone()
                for k, v in h.module.state_dict().items()
            }
            payload["heads"][kind] = {
                "config_json": json.dumps(h.config),
                "card_json": json.dumps(h.card),
                "state": state,
            }
        save_atomic(payload, Path(path))

    @classmethod
    def load(cls, path: str | Path) -> ModelBundle:
        p = Path(path)
        payload = load_tagged(p, FORMAT, ModelError)
        heads = payload.get("heads")
        if not isinstance(payload.get("encoder"), str) or not isinstance(heads, dict):
            raise ModelError(f"{p}: the file lacks its encoder name or its heads")
        bundle = cls(encoder=payload["encoder"])
        for kind, h in heads.items():
            # A file that unpickles safely may still be malformed: every failure below is
            # named by file and head instead of escaping as a KeyError or a torch error.
            bundle.heads[str(kind)] = _load_head(p, str(kind), h)
        return bundle

    def logits(self, kind: str, x: np.ndarray, *, suit_average: bool = False) -> np.ndarray:
        """Raw scores (N, classes) of one head for encoded inputs ``x`` (eval mode, no grad).

        ``suit_average`` scores the six suit relabellings of each input (the symmetry the
        training augmentation uses, :mod:`tenpai.train.augment`) and averages them, mapping a
        discard head's kind scores back to the original suits: one network call of 6N rows.
        """
        head = self.heads.get(kind)
        if head is None:
            raise ModelError(f"the model has no {kind!r} head; it has {sorted(self.heads)}")
        if suit_average:
            return self._suit_averaged(head, x)
        with torch.inference_mode():
            out: np.ndarray = head.module(torch.from_numpy(np.ascontiguousarray(x))).numpy()
        return out

    @staticmethod
    def _suit_averaged(head: Head, x: np.ndarray) -> np.ndarray:
        if x.ndim != 3 or x.shape[-1] != 34:
            raise ModelError(f"suit averaging needs (N, channels, 34) planes, got {x.shape}")
        n = len(x)
        stacked = np.concatenate([x[:, :, order] for order in SUIT_ORDERS])
        with torch.inference_mode():
            scores = head.module(torch.from_numpy(np.ascontiguousarray(stacked))).numpy()
        out = np.zeros((n, scores.shape[1]), dtype=np.float64)
        for r, order in enumerate(SUIT_ORDERS):
            part = scores[r * n : (r + 1) * n]
            if scores.shape[1] == 34:
                out[:, order] += part
            else:
                out += part
        result: np.ndarray = (out / len(SUIT_ORDERS)).astype(np.float32)
        return result


def _load_head(path: Path, kind: str, h: Any) -> Head:
    """One head of a loaded payload, checked: its config builds a network of bounded size and
    its tensors fit that network's parameters exactly (names and shapes)."""
    where = f"{path}: head {kind!r}"
    if not isinstance(h, dict) or not {"config_json", "state"} <= h.keys():
        raise ModelError(f"{where} lacks its config or its weights")
    try:
        config = json.loads(h["config_json"])
        card = json.loads(h.get("card_json") or "{}")
    except (TypeError, ValueError, RecursionError) as exc:
        raise ModelError(f"{where}: its config or card is not JSON ({exc})") from exc
    try:
        module = build_model(config)
    except ModelConfigError as exc:
        raise ModelError(f"{where}: {exc}") from exc
    state = h["state"]
    if not isinstance(state, dict) or not all(
        isinstance(v, torch.Tensor) for v in state.values()
    ):
        raise ModelError(f"{where}: its weights are not a table of tensors")
    expected = module.state_dict()
    missing = sorted(set(expected) - set(state))
    extra = sorted(set(state) - set(expected))
    if missing or extra:
        raise ModelError(f"{where}: weights do not fit its {config.get('arch')} network "
                         f"(missing {missing[:3]}, unexpected {extra[:3]})")
    for name, want in expected.items():
        if tuple(state[name].shape) != tuple(want.shape):
            raise ModelError(f"{where}: weight {name} has shape {tuple(state[name].shape)}, "
                             f"the network needs {tuple(want.shape)}")
    module.load_state_dict(
        {k: v.float() if v.is_floating_point() else v for k, v in state.items()}
    )
    module.eval()
    return Head(kind, config, module, card if isinstance(card, dict) else {})


def ensemble_members(head: Head) -> list[Head]:
    """The member heads of an ensemble head (each with its own config, weights and card), so
    a shipped ensemble can be re-combined with new runs; a plain head is its only member."""
    if head.config.get("arch") != "ensemble":
        return [head]
    cards = head.card.get("members") or [{} for _ in head.config["members"]]
    return [Head(head.kind, cfg, module, card) for cfg, module, card
            in zip(head.config["members"], head.module.members, cards, strict=True)]  # type: ignore[arg-type]


def ensemble_head(heads: list[Head], takes: list[int] | None = None) -> Head:
    """One head whose network averages the logits of ``heads`` (same kind and classes).

    ``takes``: per member, how many leading input channels it reads (members trained on an
    encoder whose channels begin the bundle's; :func:`tenpai.learn.project.prefix_channels`
    checks that).  The card keeps every member's card (under ``members``) so the data,
    encoder and CPU time of each run stay on record.
    """
    if not heads:
        raise ModelError("an ensemble needs at least one head")
    kinds = {h.kind for h in heads}
    classes = {h.config.get("classes") for h in heads}
    if len(kinds) != 1 or len(classes) != 1:
        raise ModelError(f"ensemble members differ: kinds {sorted(kinds)}, classes {classes}")
    config: dict[str, Any] = {"arch": "ensemble", "members": [h.config for h in heads]}
    if takes is not None:
        config["takes"] = list(takes)
    module = build_model(config)
    for target, h in zip(module.members, heads):  # type: ignore[arg-type]
        target.load_state_dict(h.module.state_dict())
    module.eval()
    card = {
        "kind": heads[0].kind,
        "ensemble_of": len(heads),
        "cpu_minutes_total": round(
            sum(
                float(h.card.get("cpu_minutes_total", h.card.get("cpu_minutes", 0.0)))
                for h in heads
            ),
            2,
        ),
        "members": [h.card for h in heads],
    }
    return Head(heads[0].kind, config, module, card)


def set_inference_threads(threads: int | None) -> None:
    """Limit torch's CPU threads for the small batches an agent sends (``None``: leave alone).

    A playing agent scores one or a few positions at a time; splitting such tiny convolutions
    over threads gains nothing, and when other processes keep the cores busy (arena workers,
    a training run) torch's spinning worker threads slow each call down a hundredfold: a
    four-game ``sl`` match took 110 s with torch's default threads on a loaded two-core machine
    and 1.4 s with one.
    """
    if threads is not None:
        torch.set_num_threads(threads)


def resolve_model_path(name: str, resource: str = DEFAULT_RESOURCE) -> Path:
    """``default`` names the weights shipped in the package (``resource``, the Riichi model
    unless a rule set names its own); anything else is a path."""
    if name == "default":
        try:
            ref = resources.files("tenpai.data").joinpath(resource)
        except ModuleNotFoundError:
            raise ModelError(
                "the default model is not installed (tenpai.data is missing)"
            ) from None
        with resources.as_file(ref) as p:
            if not p.exists():
                raise ModelError(f"the default model is not installed (tenpai/data/{resource})")
            return Path(p)
    return Path(name)


def load_for_agent(
    model: str | ModelBundle, resource: str = DEFAULT_RESOURCE
) -> tuple[ModelBundle, str]:
    """An agent's bundle and its ``identity``: the file's fingerprint, which a stored arena run
    records because the agent's name does not say which weights it played; "" for a bundle
    object, used as is (a learner shares its training weights this way)."""
    if isinstance(model, ModelBundle):
        return model, ""
    path = resolve_model_path(model, resource)
    return ModelBundle.load(path), file_fingerprint(path)

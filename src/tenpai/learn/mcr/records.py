"""MCR's entry in the learning registry: Botzone records, seeds 002/003's encoders and heads.

Botzone records hold one hand per game.  A game is named by its file's path under the records
folder (plus ``#index`` for files holding several games), and split by that name modulo 10 —
0-7 train, 8 dev, 9 test — so each held-out split keeps about a dozen of the 116 games (the
Riichi modulo 100 would leave six).  Games are replayed by :func:`tenpai.replay.mcr.replay_mcr`,
which adds the passes; decisions come from :mod:`tenpai.learn.mcr.decisions`.  The trainer
defaults are the ones these few games were tuned with: whole epochs, batch 128, weight decay
1e-4, patience 8 epochs, 2.5 minutes for the discard head and 0.5 for each call head.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tenpai.learn.learning_rules import Decision, LearningRules, RecordOptions, SplitRule
from tenpai.learn.mcr.decisions import MCR_DECISION_KINDS, MCR_NUM_CLASSES, iter_mcr_decisions

if TYPE_CHECKING:
    from tenpai.events import Event
    from tenpai.records.game import Game

__all__ = ["RULES", "SPLIT", "arch_config"]

SPLIT: Final = SplitRule(10, 8, 9)
_SUFFIXES: Final = (".json", ".jsonl", ".txt")
_CATALOGUES: Final = ("README", "SOURCES", "MANIFEST")


def _accept_file(path: Path) -> bool:
    return path.suffix in _SUFFIXES and not path.name.startswith(_CATALOGUES)


def _keep(game: Game, _opts: RecordOptions) -> str | None:
    return None if game.rules.variant == "mcr" else f"{game.rules.variant} record"


def _game_id(_game: Game, name: str, index: int, count: int) -> str:
    return name if count == 1 else f"{name}#{index}"


def _replay(game: Game, _opts: RecordOptions, name: str) -> list[Event] | None:
    from tenpai.replay.mcr import replay_mcr

    final = None if game.truncated else game.final_scores
    result = replay_mcr(game.events(), final_scores=final, name=name)
    return list(result.events) if result.ok else None


def _decisions(
    events: Sequence[Event], kinds: tuple[str, ...], _max_loss: int | None
) -> Iterator[Decision]:
    return iter_mcr_decisions(events, kinds=kinds)


def arch_config(arch: str, shape: Sequence[int], classes: int, kind: str) -> dict[str, Any]:
    """003's FFN (full size for discards, smaller for calls, as the report did) or a small
    002-style residual CNN over the kinds; ``gao_cnn`` at its own defaults."""
    if arch == "ffn":
        hidden = [1024] * 5 + [100] if kind == "discard" else [256, 256, 64]
        return {"arch": "ffn", "in_features": int(shape[0]), "classes": classes,
                "hidden": hidden, "dropout": 0.3}
    if arch == "resnet":
        width, blocks = (48, 3) if kind == "discard" else (32, 2)
        return {"arch": "resnet", "in_channels": int(shape[0]), "classes": classes,
                "width": width, "blocks": blocks, "dropout": 0.3}
    return {"arch": arch, "in_channels": int(shape[0]), "classes": classes}


RULES: Final = LearningRules(
    name="mcr",
    kinds=MCR_DECISION_KINDS,
    classes=MCR_NUM_CLASSES,
    class_names={
        "chi": "0 pass, 1-3 chow with the claimed tile lowest/middle/highest",
        "peng": "0 pass, 1 pung",
        "gang": "0 pass, 1 kong",
    },
    encoders={n: f"tenpai.learn.mcr.encoders.{n}" for n in ("mcr_stack002", "mcr_ffn352")},
    default_encoder="mcr_stack002",
    split=SPLIT,
    filters=frozenset(),
    default_rooms=None,
    default_max_loss=None,
    accept_file=_accept_file,
    keep=_keep,
    game_id=_game_id,
    replay=_replay,
    decisions=_decisions,
    arch_config=arch_config,
    train_defaults={
        "batch_size": 128,
        "weight_decay": 1e-4,
        "max_epochs": 200,
        "max_minutes": {"discard": 2.5, "*": 0.5},
        "eval_every": 0,
        "patience": 8,
        "dev_limit": None,
    },
    default_model="sl_mcr_default.pt",
)

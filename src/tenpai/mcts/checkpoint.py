"""The search training's checkpoint as its readers see it: format, identity check, loader.

``tenpai train mcts`` writes the checkpoint (:mod:`tenpai.mcts.train`); dropout learning reads
the strategy data in its buffer (:mod:`tenpai.mcts.dropout`) and the warm start checks its own
files' settings the same way (:mod:`tenpai.mcts.warmstart`).  Kept one level below all three so
that none of them imports another for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from tenpai.models.torchfile import load_tagged

__all__ = ["ADDED_LATER", "FORMAT", "CheckpointError", "check_identity", "load_checkpoint"]

FORMAT: Final = "tenpai-mcts-checkpoint/1"
#: Identity settings added later, with the value files from before them had.
ADDED_LATER: Final = {"rules": "suits108"}


def check_identity(path: Path, theirs: dict[str, Any], ours: dict[str, Any],
                   keys: Sequence[str]) -> None:
    """:class:`CheckpointError` naming ``path`` and the first of ``keys`` on which a file's
    settings and this run's differ (a key the file predates counts as its
    :data:`ADDED_LATER` value)."""
    for key in keys:
        was = theirs.get(key, ADDED_LATER.get(key))
        if was != ours.get(key):
            raise CheckpointError(
                f"{path}: made with {key}={was!r}, this run asks for {ours.get(key)!r}; use "
                f"another --out or delete it"
            )


class CheckpointError(ValueError):
    """A checkpoint that cannot be used; the message names the file and the reason."""


def load_checkpoint(path: Path) -> dict[str, Any]:
    """The payload of a ``tenpai train mcts`` checkpoint; :class:`CheckpointError` otherwise."""
    return load_tagged(path, FORMAT, CheckpointError, "checkpoint")

"""Checks the training configurations share (:class:`~tenpai.mcts.train.MCTSTrainConfig`,
:class:`~tenpai.mcts.warmstart.WarmStartConfig`, :class:`~tenpai.mcts.dropout.DropoutConfig`,
and :class:`tenpai.rl.pg.PGConfig`'s counts), so that a bad value is refused with the same one
line whichever command was given it, before any game is played or any file written.
"""

from __future__ import annotations

from collections.abc import Iterable

from tenpai.mcts.features import ACCESS
from tenpai.mcts.rulesets import search_rules
from tenpai.models.muzero import SIZES

__all__ = ["check_counts", "check_network"]


def check_network(rules: str, size: str, access: str | None = None) -> None:
    """The network a run trains: a known rule set, a known size and (when the network reads
    hidden information) a known feature access."""
    search_rules(rules)  # refuses an unknown rule set
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; known: {', '.join(SIZES)}")
    if access is not None and access not in ACCESS:
        raise ValueError(f"access must be full, removed or random, not {access!r}")


def check_counts(config: object, names: Iterable[str]) -> None:
    """Each of ``config``'s fields ``names`` is a count of at least 1 (games, steps, tables,
    a batch's size...): the first that is not is named in the error."""
    for name in names:
        value = getattr(config, name)
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")

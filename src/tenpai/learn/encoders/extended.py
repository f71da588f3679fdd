"""``gao86e`` plus extra row groups: how the issue-19 encoders are put together.

Each of ``gao86e_sc``, ``gao86e_ctx``, ``gao86e_rc``, ``gao86e_off``, ``gao86e_la`` and
``gao86e_all`` is ``gao86e``'s 91 channels followed by some of the groups below, in this fixed
order, so one group's gain can be measured against ``gao86e`` alone (one change per ablation arm)
and every smaller encoder is a channel selection of ``gao86e_all`` (``tenpai.learn.project``
relies on that: it cuts the smaller datasets out of one ``gao86e_all`` build by channel name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from tenpai.learn.encoders import gao86e, lookahead, offtable
from tenpai.learn.encoders.base import Encoder
from tenpai.learn.state import SeatView

__all__ = ["GROUPS", "Group", "extended"]


@dataclass(frozen=True, slots=True)
class Group:
    """Named rows and the function writing them at a channel offset (returns the next one)."""

    names: tuple[str, ...]
    fill: Callable[[SeatView, np.ndarray, int], int]


GROUPS: Final = {
    "scores": Group(offtable.SCORE_NAMES, offtable.fill_scores),
    "context": Group(offtable.CONTEXT_NAMES, offtable.fill_context),
    "riichi": Group(offtable.RIICHI_NAMES, offtable.fill_riichi),
    "lookahead": Group(lookahead.CHANNEL_NAMES, lookahead.fill_lookahead),
}
#: The order groups are written in, whatever order an encoder lists them.
_ORDER: Final = tuple(GROUPS)


def extended(name: str, version: int, groups: Sequence[str]) -> Encoder:
    """The encoder ``gao86e`` + ``groups`` (written in :data:`_ORDER`)."""
    chosen = [GROUPS[g] for g in _ORDER if g in groups]
    unknown = set(groups) - set(GROUPS)
    if unknown:
        raise ValueError(f"unknown channel groups {sorted(unknown)}; known: {', '.join(GROUPS)}")
    base_width = gao86e.SHAPE[0]
    channels = gao86e.CHANNELS + tuple(n for g in chosen for n in g.names)

    def fill(view: SeatView, out: np.ndarray) -> None:
        gao86e.fill(view, out)
        at = base_width
        for g in chosen:
            at = g.fill(view, out, at)

    return Encoder(name, version, "planes", (len(channels), 34), channels, fill)

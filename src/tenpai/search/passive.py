"""The passive opponent of the one-player leaf: a seat that only draws and lets the tile go.

The search's *solo* leaf (``TENPAI_SEARCH_LEAF``, :mod:`tenpai.search.leaves`) values a
candidate by the hand the searching seat would make alone: it plays on with the search's
playout policy while every other seat is :class:`PassivePolicy` — it discards the tile it drew,
never wins (no tsumo, no ron, no chankan), never calls, never declares riichi or a kan — so the
hand ends in the searching seat's win or an exhaustive draw (tenpai payments, and nagashi mangan,
as the engine settles them: a passive seat whose sampled hand happens to be ready is paid as
ready).  That is the "one-player expected value" of issue 38: what the hand is worth when the
others do not threaten it.

It is the Python reference of the compiled core's ``passive`` policy
(:mod:`tenpai.rules.riichi.rollout`); the tests play the same worlds on both sides.  The one
state where there is no drawn tile to let go — the discard owed after a call, which a passive
seat never makes but a world could start from — is answered as the core answers it, by the
shanten-greedy discard (``greedy``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tenpai.events import Event
from tenpai.search.policies import FastPolicy

__all__ = ["PassivePolicy", "solo_seat"]


class PassivePolicy:
    """See the module docstring; ``yaku`` is the open-hand yaku rule the core applies to every
    seat's greedy discard (it matters only in the discard after a call)."""

    name = "passive"

    def __init__(self, seed: int = 0, yaku: str = "off") -> None:
        self._greedy = FastPolicy(seed, calls=False, yaku=yaku)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        drawn = next((e for e in legal if e.type == "dahai" and e.tsumogiri), None)
        if drawn is not None:
            return drawn
        if any(e.type == "dahai" for e in legal):
            # the discard owed after a call (no drawn tile): greedy, as the core
            discards = [e for e in legal if e.type == "dahai"]
            return self._greedy.act(obs, discards)
        passing = next((e for e in legal if e.type == "none"), None)
        if passing is None:
            raise ValueError(f"a passive seat cannot pass here: {[e.type for e in legal]}")
        return passing


def solo_seat(first: Mapping[int, Event]) -> int:
    """The searching seat of a one-player playout: the one seat of the first answers (both
    backends take the playing seat from there, as the search gives one answer to try)."""
    if len(first) != 1:
        raise ValueError("a one-player playout plays for one seat; the first answers are for "
                         f"seats {sorted(first)}")
    return next(iter(first))

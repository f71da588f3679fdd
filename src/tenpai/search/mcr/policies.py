"""A cheap MCR playout policy: shanten-greedy discards, no calls, every win the engine offers.

The engine offers a win only when the hand scores the 8-fan minimum (flowers apart), so
declaring every offered win respects it by construction; a hand below 8 stays ready and plays
on.  Discards lower the MCR shanten (every form: standard, seven pairs, thirteen orphans,
knitted) greedily — among equals the drawn tile, then honours and terminals before middle
tiles — and the policy never calls or kongs, which keeps it several times cheaper than
``efficiency`` (no effective-tile count).  Its weakness is the reason it is not the default:
without calls and without fan targets it wins fewer hands than ``efficiency`` (measured in
docs/mcr_strength.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten_mcr

__all__ = ["GreedyMCRPolicy"]

_NONE = Event("none")


def _outside_first(k: int) -> int:
    """0 for honours and terminals, 1 for 2 and 8, 2 for the middle (the usual discard order)."""
    if T.is_terminal_or_honor(k):
        return 0
    return 1 if T.number_of(k) in (2, 8) else 2


class GreedyMCRPolicy:
    """See the module docstring; deterministic (``seed`` is accepted for the policy table)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        discards: list[Event] = []
        for e in legal:
            if e.type == "hora":
                return e
            if e.type == "dahai":
                discards.append(e)
        if not discards:
            return next((e for e in legal if e.type == "none"), _NONE if not legal else legal[-1])
        counts = observation.counts
        best: Event | None = None
        best_key: tuple[int, int, int] | None = None
        done: set[int] = set()
        for e in reversed(discards):  # the drawn tile (tsumogiri) is offered last
            assert e.pai is not None
            k = T.kind_of(e.pai)
            if k in done:
                continue
            done.add(k)
            counts[k] -= 1
            sh = shanten_mcr(counts)
            counts[k] += 1
            key = (sh, 0 if e.tsumogiri else 1, _outside_first(k))
            if best_key is None or key < best_key:
                best, best_key = e, key
        assert best is not None
        return best

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

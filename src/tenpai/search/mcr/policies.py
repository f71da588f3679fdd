"""A cheap MCR playout policy: shanten-greedy discards, no calls, every win the engine offers.

The engine offers a win only when the hand scores the 8-fan minimum (flowers apart), so
declaring every offered win respects it by construction; a hand below 8 stays ready and plays
on.  Discards lower the MCR shanten (every form: standard, seven pairs, thirteen orphans,
knitted) greedily — among equals the drawn tile, then honours and terminals before middle
tiles — and the policy never calls or kongs, which keeps it several times cheaper than
``efficiency`` (no effective-tile count).  Its weakness is the reason it is not the default:
without calls and without fan targets it wins fewer hands than ``efficiency`` (measured in
docs/mcr_strength.md).  :class:`GreedyFoldMCRPolicy` is the same policy giving up a far hand
against a visible threat (its docstring), since neither ever defends otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten_mcr

__all__ = ["FOLD_SHANTEN", "THREAT_MELDS", "GreedyFoldMCRPolicy", "GreedyMCRPolicy"]

#: A seat folds when another seat shows at least this many melds ...
THREAT_MELDS = 2
#: ... and its own hand is at least this far from ready (MCR shanten after its best discard).
FOLD_SHANTEN = 2

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
        return self._act(observation, legal, False)

    def _act(self, observation: Any, legal: Sequence[Event], fold: bool) -> Event:
        """Greedy's answer; with ``fold``, the discard of :class:`GreedyFoldMCRPolicy`."""
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
        assert best is not None and best_key is not None
        if fold and best_key[0] >= FOLD_SHANTEN and _threatened(observation):
            return _safest(observation, discards)
        return best

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


class GreedyFoldMCRPolicy(GreedyMCRPolicy):
    """Greedy that gives up a far hand against a visible threat (the specification of
    ``c:greedy-fold``; ``_mcr_rollout.c`` plays the same).

    MCR has no riichi, so the threat must be read from what everyone sees: another seat
    showing :data:`THREAT_MELDS` or more melds (concealed kongs count: they lie on the table)
    is taken to be close to a win.  A seat whose hand is :data:`FOLD_SHANTEN` or more from
    ready after its best discard then stops building and throws the tile it sees most copies
    of (its own and those in view: discards not called, melds other than the others'
    concealed kongs) — MCR has no furiten, so a tile's earlier discard proves nothing, but
    a kind mostly in view leaves an opponent fewer ways to wait on it.  Among equals the
    drawn tile, then honours and terminals, then 2 and 8, then the highest kind (greedy's
    order).  Wins are still taken; claim answers are greedy's (no calls).
    """

    name = "greedy-fold"

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self._act(observation, legal, True)


def _threatened(observation: Any) -> bool:
    """Whether another seat shows :data:`THREAT_MELDS` melds or more."""
    seat = observation.seat
    return any(len(ms) >= THREAT_MELDS for s, ms in enumerate(observation.melds) if s != seat)


def _safest(observation: Any, discards: Sequence[Event]) -> Event:
    """The discard of the kind with the most copies in the seat's view (class docstring)."""
    counts = observation.counts
    visible = observation.visible_counts()
    best: Event | None = None
    best_key: tuple[int, int, int] | None = None
    done: set[int] = set()
    for e in reversed(discards):  # greedy's order: the drawn tile first, then the highest kind
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if k in done:
            continue
        done.add(k)
        key = (4 - visible[k] - counts[k], 0 if e.tsumogiri else 1, _outside_first(k))
        if best_key is None or key < best_key:
            best, best_key = e, key
    assert best is not None
    return best

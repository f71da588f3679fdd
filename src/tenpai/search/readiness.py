"""How likely each opponent outside riichi is to be ready, for the worlds of ``OPPONENTS=read``.

The worlds deal an opponent that has not declared riichi a uniform hand (or the best of a few:
``shaped``), which is almost never ready, so the search plays as if only riichi players could
win.  With the opponents' real hands in its worlds (``SIGHT=hands``, docs/search.md) it deals in
less than half as often; this module is the fair part of that: 001's fitted readiness model
(:mod:`tenpai.reading.models`, logistic regressions per number of discards and calls, fitted on
the Houou records' train split, held-out AUC 0.92) read from the seat's own view — the
rivers with their tsumogiri flags, the calls, the dora — so the worlds can deal each opponent a
ready hand as often as the model expects one (:class:`tenpai.search.worlds.WorldSampler`).

The model was fitted on four-player games; a three-player table is read with it as it is (the
wall fraction is counted against the four-player wall), which is an approximation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.reading.features import deal_in_features, tenpai_bucket, tenpai_features
from tenpai.reading.models import OpponentModels, load_models
from tenpai.reading.table import TableState, table_from_events

__all__ = ["Readiness", "default_readiness"]


class Readiness:
    """Probabilities that opponents are ready, from the events one seat has seen."""

    def __init__(self, models: OpponentModels) -> None:
        self.models = models

    def probabilities(self, events: Sequence[Event], seats: Iterable[int]) -> dict[int, float]:
        """P(ready) of each of ``seats`` (none of which may be the seat whose view ``events``
        is: its own hand is known), read only from public information."""
        state = table_from_events(events)
        return {s: self.models.p_tenpai(tenpai_bucket(state, s), tenpai_features(state, s))
                for s in seats}

    def wait_probabilities(self, events: Sequence[Event], hand: Sequence[int],
                           seats: Iterable[int]) -> dict[int, list[float]]:
        """For each of ``seats``, the probability that each of the 34 kinds is one of its waits
        if it is ready (001's deal-in model: genbutsu, tiles passed after a riichi, suji, walls,
        the tile's class, dora), read from the public events and the deciding seat's own
        ``hand`` (tile codes), which count among the copies it can see."""
        state = table_from_events(events)
        seen = _seen(state, hand)
        return {s: [self._p_wait(state, s, k, seen) for k in range(34)] for s in seats}

    def dangers(self, events: Sequence[Event], hand: Sequence[int], seats: Iterable[int],
                kinds: Iterable[int]) -> dict[int, tuple[float, dict[int, float]]]:
        """For each of ``seats``: its probability of being ready and, for each of ``kinds``,
        the probability that the kind is one of its waits if it is (the two models of
        :meth:`probabilities` and :meth:`wait_probabilities`, read from one picture of the
        table: a searched decision asks for a few kinds, not all 34)."""
        state = table_from_events(events)
        seen = _seen(state, hand)
        wanted = sorted(set(kinds))
        return {s: (self.models.p_tenpai(tenpai_bucket(state, s), tenpai_features(state, s)),
                    {k: self._p_wait(state, s, k, seen) for k in wanted})
                for s in seats}

    def _p_wait(self, state: TableState, s: int, k: int, seen: Sequence[int]) -> float:
        """The deal-in model's P(kind ``k`` is a wait of ``s`` | ready), kept off 0 and 1."""
        return min(max(self.models.p_wait(deal_in_features(state, s, k, seen)), 1e-6), 1 - 1e-6)


def _seen(state: TableState, hand: Sequence[int]) -> list[int]:
    """The copies of each kind the deciding seat can see: the public tiles and its ``hand``."""
    seen = state.visible()
    for t in hand:
        seen[T.kind_of(t)] += 1
    return seen


@lru_cache(maxsize=1)
def default_readiness() -> Readiness:
    """The shipped model (``tenpai/data/mdp_opponents.json``), loaded once per process; a bad
    file is the one-line :class:`~tenpai.reading.models.ModelFileError`."""
    return Readiness(load_models())

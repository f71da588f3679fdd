"""Playouts: a world played on to the end of its hand, and the value of how the hand ended.

Two pluggable parts, in the manner of OpenSpiel's evaluators:

* a :class:`PlayoutBackend` takes a world, the answers of the decision being searched (the
  candidate) and a seed, and returns the :class:`~tenpai.search.hand_end.HandEnd`.
  :class:`PythonPlayout` runs the Python engine with a rule-based policy in every seat
  (:data:`~tenpai.search.playout_policies.POLICIES`: ``fast`` and ``fast-fold`` of
  :mod:`tenpai.search.policies`, shanten-greedy without and with folding against riichi; the
  arena's ``efficiency`` and ``defensive``, slower; ``greedy`` and ``greedy-fold``, the same
  without calls; ``fast-kan`` and ``fast-kan-fold``, with kans).
  :class:`~tenpai.search.compiled_playout.CompiledPlayout` plays these inside the compiled
  core (policy names ``c:fast``, ``c:fast-fold``, ``c:greedy``, ``c:greedy-fold``,
  ``c:fast-kan``, ``c:fast-kan-fold``) and adds ``play_out_many``, every candidate of a world
  in one call; :func:`tenpai.search.playout_backends.make_backend` picks one by name;
* a :class:`LeafValue` turns a hand end into a number for the deciding seat:
  :class:`PlacementValue` (expected rank utility from the placement model, or the exact rank
  when the hand ended the game) or :class:`PointsValue` (the hand's point change, in thousands,
  for the ablation).

Common random numbers: a playout's only randomness is the world (fixed per world) and the
policies' seeded generators, which are made afresh from the world's seed for every candidate,
so two candidates on one world meet the same tiles and the same policy draws.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.hand_end import HandEnd, hand_end
from tenpai.search.placement import PlacementModel, RankUtility
from tenpai.search.playout_policies import FAST_POLICIES, POLICIES, fast_policy

__all__ = [
    "LeafValue",
    "PlacementValue",
    "PlayoutBackend",
    "PointsValue",
    "PythonPlayout",
    "Watch",
]


#: What :meth:`PythonPlayout.play_out_watched` shows before each step: the round, its pending
#: decisions and the answers about to be played.
Watch = Callable[[RiichiRound, Sequence[Decision], Mapping[int, Event]], None]


class PlayoutBackend(Protocol):
    """Plays a world to the end of its hand after the given first answers."""

    name: str

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd: ...


class PythonPlayout:
    """The Python engine with a fast policy in every seat (see the module docstring).

    ``solo=True`` is the one-player playout (:mod:`tenpai.search.leaves`): only the seat of the
    first answers (there must be one) plays the policy; every other seat is
    :class:`~tenpai.search.passive.PassivePolicy`."""

    def __init__(self, policy: str = "fast-fold", max_steps: int = 2000,
                 yaku: str = "off", solo: bool = False) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; known: {', '.join(POLICIES)}")
        if yaku != "off" and policy not in FAST_POLICIES:
            raise ValueError(f"the open-hand yaku rule is for {', '.join(FAST_POLICIES)}, "
                             f"not {policy!r}")
        self.policy = policy
        self.name = (f"python:{policy}" + ("" if yaku == "off" else f"+yaku-{yaku}")
                     + ("+solo" if solo else ""))
        self.max_steps = max_steps
        self.solo = solo
        self.yaku = yaku
        self._make = POLICIES[policy] if yaku == "off" else fast_policy(policy, yaku)
        self._passive: Callable[[int], Agent] | None = None
        self._solo_seat: Callable[[Mapping[int, Event]], int] | None = None
        if solo:
            # imported here, once, so that a playout without the solo leaf never loads the
            # rule agents the passive policy is built on
            from tenpai.search.passive import PassivePolicy, solo_seat

            self._passive = functools.partial(PassivePolicy, yaku=yaku)  # picklable
            self._solo_seat = solo_seat

    def _agents(self, n: int, first: Mapping[int, Event], seed: int) -> list[Agent]:
        """One policy per seat from the playout's seed; solo: passive but the searching seat."""
        if self._passive is None or self._solo_seat is None:
            return [self._make(seed * 4 + s) for s in range(n)]
        me, passive = self._solo_seat(first), self._passive
        return [self._make(seed * 4 + s) if s == me else passive(seed * 4 + s)
                for s in range(n)]

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd:
        return hand_end(self.play_out_watched(world, first, seed), tuple(world.scores))

    def play_out_watched(
        self, world: RiichiRound, first: Mapping[int, Event], seed: int,
        watch: Watch | None = None,
    ) -> RiichiRound:
        """The finished round of :meth:`play_out` (a copy of ``world``); ``watch`` sees the
        round, its pending decisions and their answers before every step, and changes nothing
        (what :mod:`tenpai.search.playout_yaku` counts in the playouts)."""
        rnd = clone(world)
        agents = self._agents(rnd.players, first, seed)
        pending = rnd.pending()
        answers = dict(first)
        for d in pending:
            if d.seat not in answers:
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        steps = 0
        while True:
            if watch is not None:
                watch(rnd, pending, answers)
            rnd.step(answers)
            if rnd.done:
                return rnd
            steps += 1
            if steps > self.max_steps:
                raise RuntimeError(f"playout did not end in {self.max_steps} steps")
            pending = rnd.pending()
            answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending}


class LeafValue(Protocol):
    """The deciding seat's value of a hand end (higher is better), and its natural scale."""

    name: str
    scale: float

    def value(self, end: HandEnd, seat: int) -> float: ...


class PlacementValue:
    """Expected rank utility: the placement model's balanced rank table at the next hand's
    start (or the exact ranks of a finished game), weighted by the rank utility."""

    def __init__(self, model: PlacementModel, utility: RankUtility) -> None:
        self.model = model
        self.utility = utility
        self.name = f"placement:{utility.name}"
        self.scale = utility.spread
        self._cache: dict[Any, list[float]] = {}

    def value(self, end: HandEnd, seat: int) -> float:
        if end.final is not None:
            return self.utility.of(end.final[seat])
        pos = end.next_position
        assert pos is not None
        row = self._cache.get(pos)
        if row is None:
            table = self.model.table_probs(pos)
            row = [self.utility.of(table[s]) for s in range(len(pos.scores))]
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[pos] = row
        return row[seat]


class PointsValue:
    """The hand's point change of the deciding seat, in thousands (the raw-points ablation)."""

    name = "points"
    scale = 12.0

    def value(self, end: HandEnd, seat: int) -> float:
        return (end.scores[seat] - end.start_scores[seat]) / 1000.0

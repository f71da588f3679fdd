"""Playouts: a world played on to the end of its hand, and the value of how the hand ended.

Two pluggable parts, in the manner of OpenSpiel's evaluators:

* a :class:`PlayoutBackend` takes a world, the answers of the decision being searched (the
  candidate) and a seed, and returns the :class:`HandEnd`.  :class:`PythonPlayout` runs the
  Python engine with a rule-based policy in every seat (:data:`POLICIES`: ``fast`` and
  ``fast-fold`` of :mod:`tenpai.search.policies`, shanten-greedy without and with folding
  against riichi; the arena's ``efficiency`` and ``defensive``, slower; ``greedy`` and
  ``greedy-fold``, the same without calls; ``fast-kan`` and ``fast-kan-fold``, with kans).
  :class:`~tenpai.search.compiled_playout.CompiledPlayout` plays these inside the compiled
  core (policy names ``c:fast``, ``c:fast-fold``, ``c:greedy``, ``c:greedy-fold``,
  ``c:fast-kan``, ``c:fast-kan-fold``: :func:`make_backend`) and adds
  ``play_out_many``, every candidate of a world in one call;
* a :class:`LeafValue` turns a hand end into a number for the deciding seat:
  :class:`PlacementValue` (expected rank utility from the placement model, or the exact rank
  when the hand ended the game) or :class:`PointsValue` (the hand's point change, in thousands,
  for the ablation).

Common random numbers: a playout's only randomness is the world (fixed per world) and the
policies' seeded generators, which are made afresh from the world's seed for every candidate,
so two candidates on one world meet the same tiles and the same policy draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import hand_after
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.search.placement import (
    PlacementModel,
    RankUtility,
    TablePosition,
    final_rank_probs,
)

__all__ = [
    "COMPILED_POLICIES",
    "FAST_POLICIES",
    "POLICIES",
    "HandEnd",
    "LeafValue",
    "PlacementValue",
    "PlayoutBackend",
    "PointsValue",
    "PythonPlayout",
    "Watch",
    "hand_end",
    "make_backend",
    "settle_hand",
]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a played-out hand left the game: the next hand's start, or the final scores."""

    start_scores: tuple[int, ...]
    scores: tuple[int, ...]
    kyotaku: int
    #: The next hand's position, or None when this hand ended the game.
    next_position: TablePosition | None
    #: Ranks by seat when the game ended (leftover deposits to first place), else None.
    final: tuple[tuple[float, ...], ...] | None = None


def hand_end(rnd: RiichiRound, start_scores: tuple[int, ...]) -> HandEnd:
    """The hand end of a finished round: dealer repeat, honba, wind rotation and the end of the
    game as :class:`~tenpai.rules.riichi.game.RiichiGame` applies them (tested against it)."""
    result = rnd.result
    assert result is not None, "the round has not ended"
    dealer = rnd.oya
    if result.kind == "hora":
        renchan = dealer in result.winners
    elif result.kind == "exhaustive":
        renchan = result.tenpai[dealer]
    else:
        renchan = True
    return settle_hand(rnd.rules, tuple(rnd.scores), rnd.kyotaku, rnd.bakaze, rnd.kyoku,
                       rnd.honba, result.kind, renchan, start_scores)


def settle_hand(
    rules: RiichiRules, scores: tuple[int, ...], kyotaku: int, bakaze: int, kyoku: int,
    honba: int, kind: str, renchan: bool, start_scores: tuple[int, ...],
) -> HandEnd:
    """:func:`hand_end` from the facts a compiled rollout returns instead of a round; the
    game's own flow (:func:`~tenpai.rules.riichi.game.hand_after`) decides what follows."""
    following = hand_after(rules, (bakaze, kyoku, honba), scores, kind, renchan)
    if following is None:
        ranks = final_rank_probs(scores, kyotaku, rules.riichi_deposit)
        return HandEnd(start_scores, scores, kyotaku, None,
                       tuple(tuple(r) for r in ranks))
    pos = TablePosition(scores, *following, kyotaku, rules.length)
    return HandEnd(start_scores, scores, kyotaku, pos)


#: What :meth:`PythonPlayout.play_out_watched` shows before each step: the round, its pending
#: decisions and the answers about to be played.
Watch = Callable[[RiichiRound, Sequence[Decision], Mapping[int, Event]], None]


class PlayoutBackend(Protocol):
    """Plays a world to the end of its hand after the given first answers."""

    name: str

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd: ...


def _efficiency(seed: int) -> Agent:
    from tenpai.agents.efficiency import EfficiencyAgent

    return EfficiencyAgent(seed)


def _defensive(seed: int) -> Agent:
    from tenpai.agents.defensive import DefensiveAgent

    return DefensiveAgent(seed)


#: The :class:`~tenpai.search.policies.FastPolicy` policies by name, as its keyword arguments
#: (the ones the open-hand yaku rule, ``yaku=True``, applies to).
FAST_POLICIES: dict[str, dict[str, bool]] = {
    "fast-fold": {"fold": True},
    "fast": {},
    # the Python references of the compiled rollout policies (no calls)
    "greedy": {"calls": False},
    "greedy-fold": {"fold": True, "calls": False},
    # ``fast``/``fast-fold`` that also declare kans (and Norths set aside)
    "fast-kan": {"kans": True},
    "fast-kan-fold": {"fold": True, "kans": True},
}


def _fast_policy(name: str, yaku: str = "off") -> Callable[[int], Agent]:
    def make(seed: int) -> Agent:
        from tenpai.search.policies import FastPolicy

        return FastPolicy(seed, yaku=yaku, **FAST_POLICIES[name])

    return make


#: Playout policies by name (one agent object per seat, made from the playout's seed).
POLICIES: dict[str, Callable[[int], Agent]] = {
    **{name: _fast_policy(name) for name in ("fast-fold", "fast")},
    "efficiency": _efficiency,
    "defensive": _defensive,
    **{name: _fast_policy(name) for name in ("greedy", "greedy-fold", "fast-kan",
                                             "fast-kan-fold")},
}


#: Policies of the compiled rollout core (:mod:`tenpai.search.compiled_playout`), by the names
#: the search settings use: ``c:greedy`` plays what ``greedy`` plays, in C (``c:fast`` and
#: ``c:fast-fold`` with their chi and pon, ``c:fast-kan`` and ``c:fast-kan-fold`` with kans too).
COMPILED_POLICIES: tuple[str, ...] = ("c:fast", "c:fast-fold", "c:fast-kan", "c:fast-kan-fold",
                                      "c:greedy", "c:greedy-fold", "c:greedy-random",
                                      "c:tsumogiri")


def make_backend(policy: str, yaku: str = "off") -> PlayoutBackend:
    """The playout backend of a settings policy name: ``c:<name>`` plays in the compiled core
    (:class:`~tenpai.search.compiled_playout.CompiledPlayout`, which raises
    ``RolloutUnavailable`` when it is not built), any other name in the Python engine;
    ``yaku`` is the open-hand yaku rule (:mod:`tenpai.search.policies`)."""
    if policy.startswith("c:"):
        from tenpai.search.compiled_playout import CompiledPlayout

        return CompiledPlayout(policy[2:], yaku=yaku)
    return PythonPlayout(policy, yaku=yaku)


class PythonPlayout:
    """The Python engine with a fast policy in every seat (see the module docstring)."""

    def __init__(self, policy: str = "fast-fold", max_steps: int = 2000,
                 yaku: str = "off") -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; known: {', '.join(POLICIES)}")
        if yaku != "off" and policy not in FAST_POLICIES:
            raise ValueError(f"the open-hand yaku rule is for {', '.join(FAST_POLICIES)}, "
                             f"not {policy!r}")
        self.policy = policy
        self.name = f"python:{policy}" + ("" if yaku == "off" else f"+yaku-{yaku}")
        self.max_steps = max_steps
        self._make = POLICIES[policy] if yaku == "off" else _fast_policy(policy, yaku)

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
        agents = [self._make(seed * 4 + s) for s in range(rnd.players)]
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

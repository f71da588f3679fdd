"""MCR playouts: a world played to the end of its hand, valued by the contest's score.

:class:`MCRPlayout` copies the world, answers the deciding position's pending decision with
the candidate, and lets a fast policy (:data:`MCR_POLICIES`) play every seat to the end of the
hand on the Python MCR engine (``c:greedy``: the same hand played in the compiled core,
:mod:`tenpai.search.mcr.compiled`, which builds on this module; the choice by name is
:func:`tenpai.search.mcr.playout_backends.make_playout`).  Common random numbers: the world
is fixed per world and the policies are made afresh from the world's seed for every
candidate, so two candidates on one world meet the same tiles and the same policy draws.

Values (:data:`MCR_VALUES`):

* ``points`` (the default): the deciding position's Botzone points of the hand (its score
  change: the winner takes 8 from each loser plus the fans from the discarder, or from all on a
  self-draw).  Botzone ranks MCR bots by score and under the ``botzone`` preset a game is one
  hand, so this is exactly the contest's result of the game; under ``mcr_official`` it is the
  hand's contribution to the game's score;
* ``place``: 4 minus the position's place by game score after the hand (ties share their
  places, as the arena counts them), the placement ablation — under ``botzone`` the game's
  place, under ``mcr_official`` only the standing after this hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import HandResult, MCRRound

__all__ = ["COMPILED_MCR_POLICIES", "MCR_POLICIES", "MCR_VALUES", "OWN_POLICIES", "MCRPlayout",
           "hand_value"]


class _Policy(Protocol):
    def act(self, observation: Any, legal: Any) -> Event: ...


def _efficiency(seed: int) -> _Policy:
    from tenpai.agents.efficiency import EfficiencyAgent

    return EfficiencyAgent(seed)


def _greedy(seed: int) -> _Policy:
    from tenpai.search.mcr.policies import GreedyMCRPolicy

    return GreedyMCRPolicy(seed)


def _greedy_fold(seed: int) -> _Policy:
    from tenpai.search.mcr.policies import GreedyFoldMCRPolicy

    return GreedyFoldMCRPolicy(seed)


#: Playout policies by name (one object per seat, made from the playout's seed).
MCR_POLICIES: dict[str, Callable[[int], _Policy]] = {
    "efficiency": _efficiency,
    "greedy": _greedy,
    "greedy-fold": _greedy_fold,
}


def _planner(seed: int) -> _Policy:
    from tenpai.agents.planner import make_planner_agent

    return make_planner_agent(seed)


#: Who plays the searching seat after its candidate (``OWN``): ``same``, the playout policy
#: like every other seat; ``planner``, the registered planner (with its ``$TENPAI_PLANNER_*``
#: settings), so a candidate is valued by how the agent that will play the hand finishes it
#: rather than by how a fan-blind policy would (docs/mcr_strength.md, session 40).
OWN_POLICIES: dict[str, Callable[[int], _Policy] | None] = {"same": None, "planner": _planner}
#: Policies played in the compiled core (``c:`` + a name of :data:`MCR_POLICIES`), botzone only.
COMPILED_MCR_POLICIES = ("c:greedy", "c:greedy-fold")
#: Leaf values by name (see the module docstring); the scale is the spread used in reports.
MCR_VALUES = ("points", "place")


class EndedHandLike(Protocol):
    """What :func:`hand_value` reads: an ended :class:`MCRRound`, or the compiled playout's
    :class:`~tenpai.search.mcr.compiled.EndedHand`."""

    @property
    def result(self) -> HandResult | None: ...

    @property
    def scores(self) -> Sequence[int]: ...


def hand_value(rnd: EndedHandLike, seat: int, value: str) -> float:
    """The value of an ended hand for ``seat`` (module docstring)."""
    result = rnd.result
    assert result is not None, "the hand has not ended"
    if value == "points":
        return float(result.deltas[seat])
    scores = rnd.scores
    mine = scores[seat]
    above = sum(1 for s in range(4) if scores[s] > mine)
    tied = sum(1 for s in range(4) if scores[s] == mine)
    place = above + (tied + 1) / 2  # 1-based, ties share the mean of their places
    return 4.0 - place


class MCRPlayout:
    """The Python MCR engine with one fast policy in every seat (with ``own``, the searching
    seat — the one ``first`` answers for — played by :data:`OWN_POLICIES` ``[own]`` instead)."""

    def __init__(self, policy: str = "efficiency", max_steps: int = 2000,
                 own: str = "same") -> None:
        if policy not in MCR_POLICIES:
            raise ValueError(f"unknown MCR playout policy {policy!r}; known: "
                             f"{', '.join(MCR_POLICIES)}")
        if own not in OWN_POLICIES:
            raise ValueError(f"unknown player of the searching seat {own!r}; known: "
                             f"{', '.join(OWN_POLICIES)}")
        self.policy = policy
        self.own = own
        self.name = f"python-mcr:{policy}" + ("" if own == "same" else f"+own:{own}")
        self.max_steps = max_steps
        self._make = MCR_POLICIES[policy]
        self._make_own = OWN_POLICIES[own]

    def play_out(self, world: MCRRound, first: Mapping[int, Event], seed: int) -> MCRRound:
        """The ended copy of ``world`` after ``first`` (the world itself is not stepped)."""
        rnd = clone(world)
        agents = [self._make(seed * 4 + s) if self._make_own is None or s not in first
                  else self._make_own(seed * 4 + s) for s in range(4)]
        answers = dict(first)
        for d in rnd.pending():
            if d.seat not in answers:
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        rnd.step(answers)
        steps = 0
        while not rnd.done:
            steps += 1
            if steps > self.max_steps:
                raise RuntimeError(f"MCR playout did not end in {self.max_steps} steps")
            rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
        return rnd


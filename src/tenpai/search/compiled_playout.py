"""A :class:`~tenpai.search.playout.PlayoutBackend` that plays hands inside the compiled core.

A candidate that is a discard after a draw is handed to the core as its first move.  Any other
decision being searched (the candidate's first answers) and whatever the core cannot start
from (the discard owed after a riichi declaration, a kan's rob window) are stepped in Python
with the reference policy, :class:`~tenpai.search.policies.FastPolicy` (with calls for
``fast``/``fast-fold``, with calls and kans for ``fast-kan``/``fast-kan-fold``, without for
the ``greedy`` family); from the next draw, claim window
or discard after a call on, the hand is played by :mod:`tenpai.rules.riichi.rollout` with the
same policy compiled.  Both paths give the same hand end on the same world
(tests/search/test_compiled_playout.py), so ``c:fast-fold`` is ``python:fast-fold`` made
fast.  What the two share (the hand end and its settlement, the policy names) sits below both
(:mod:`tenpai.search.hand_end`, :mod:`tenpai.search.playout_policies`), and
:mod:`tenpai.search.playout_backends` chooses between them.

:meth:`CompiledPlayout.play_out_many` asks for every candidate's playouts of one world in one
call; all of them meet the same world and the same seeds (common random numbers), and the
world is exported to the core once for all of them (docs/search_runs.md, "One export per
world").

``solo=True`` is the one-player playout (:mod:`tenpai.search.leaves`): the core takes one
policy per seat, the searching seat's (the seat of the first answers) and ``passive`` for every
other, whose Python twin :class:`~tenpai.search.passive.PassivePolicy` answers the prefix steps
— the same hands as :class:`~tenpai.search.playout.PythonPlayout` with ``solo=True``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tenpai.engine.agent import Agent
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.hand_end import HandEnd, hand_end, settle_hand
from tenpai.search.passive import PassivePolicy, solo_seat
from tenpai.search.playout_policies import FAST_POLICIES
from tenpai.search.policies import FastPolicy

__all__ = ["PLAYOUT_POLICIES", "CompiledPlayout", "end_of_row"]

#: The compiled policies a search playout can use: those whose Python prefix steps are a
#: ``FastPolicy`` (``efficiency`` is not one: the agent's kans and Norths are not compiled).
PLAYOUT_POLICIES = ("fast", "fast-fold", "fast-kan", "fast-kan-fold", "greedy", "greedy-fold",
                    "greedy-random", "tsumogiri")


class CompiledPlayout:
    """Playouts in the compiled core (see the module docstring); ``policy`` is one of
    :data:`PLAYOUT_POLICIES`.  Raises
    :class:`~tenpai.rules.riichi.rollout.RolloutUnavailable` when the core is not built."""

    def __init__(self, policy: str = "greedy-fold", max_steps: int = 2000,
                 yaku: str = "off", solo: bool = False) -> None:
        if policy not in PLAYOUT_POLICIES:
            raise ValueError(f"unknown compiled playout policy {policy!r}; known: "
                             f"{', '.join(PLAYOUT_POLICIES)}")
        if yaku not in rollout.YAKU_RULES:
            raise ValueError(f"unknown yaku rule {yaku!r}; known: {', '.join(rollout.YAKU_RULES)}")
        if yaku != "off" and policy not in FAST_POLICIES:
            raise ValueError(f"the open-hand yaku rule is for c:{', c:'.join(FAST_POLICIES)}, "
                             f"not c:{policy}")
        if not rollout.available():
            rollout._need()  # raises RolloutUnavailable with the build command
        self.policy = policy
        self.name = (f"c:{policy}" + ("" if yaku == "off" else f"+yaku-{yaku}")
                     + ("+solo" if solo else ""))
        self.yaku = yaku
        self.solo = solo
        self.max_steps = max_steps
        # The Python steps before the core takes over use the reference of the same policy
        # (tsumogiri and the random ties have none: greedy stands in for those few steps).
        self._fold = policy in ("greedy-fold", "fast-fold", "fast-kan-fold")
        self._calls = policy in ("fast", "fast-fold")
        self._kans = policy in ("fast-kan", "fast-kan-fold")
        # the core's terms for what every call shares: the policy codes by table size and
        # searching seat (a one-player playout's codes depend on the seat), the yaku rule's code
        self._codes: dict[tuple[int, int | None], tuple[int, ...]] = {}
        self._yaku_code = rollout.YAKU_RULES[yaku]

    def _agents(self, n: int, seed: int, solo: int | None = None) -> list[Agent]:
        """The Python steps' policies; with ``solo`` a seat, every other seat passive."""
        return [FastPolicy(seed * 4 + s, fold=self._fold, calls=self._calls, kans=self._kans,
                           yaku=self.yaku) if solo is None or s == solo
                else PassivePolicy(seed * 4 + s, self.yaku) for s in range(n)]

    def _policies(self, n: int, first: Mapping[int, Event]) -> str | list[str]:
        """The core's policy name, or one per seat for a one-player playout."""
        if not self.solo:
            return self.policy
        me = solo_seat(first)
        return [self.policy if s == me else "passive" for s in range(n)]

    def _policy_codes(self, n: int, first: Mapping[int, Event]) -> tuple[int, ...]:
        """:meth:`_policies` in the core's codes, worked out once per table size and seat."""
        key = (n, solo_seat(first) if self.solo else None)
        codes = self._codes.get(key)
        if codes is None:
            codes = self._codes[key] = rollout.policy_codes(self._policies(n, first), n)
        return codes

    def _prefix(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> RiichiRound:
        """The world after the first answers and any step the core cannot start from."""
        rnd = clone(world)
        agents = self._agents(rnd.players, seed, solo_seat(first) if self.solo else None)
        answers = dict(first)
        for d in rnd.pending():
            if d.seat not in answers:
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        rnd.step(answers)
        steps = 0
        while not rnd.done and not rollout.exportable(rnd):
            steps += 1
            if steps > self.max_steps:
                raise RuntimeError(f"playout did not reach a draw in {self.max_steps} steps")
            rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
        return rnd

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd:
        return self.play_out_many(world, [first], [seed])[0][0]

    def play_out_many(
        self, world: RiichiRound, candidates: Sequence[Mapping[int, Event]], seeds: Sequence[int]
    ) -> list[list[HandEnd]]:
        """``[candidate][seed]`` hand ends: every candidate played from the same world with
        every seed (the seeds drive only the random ties of ``greedy-random``; the world
        fixes everything else)."""
        start = tuple(world.scores)
        # what every candidate's core call shares, in the core's terms (a prefix's round is a
        # copy of the world: the same rules)
        flags = rollout.rules_tuple(world.rules)
        seed_list = [int(s) for s in seeds]
        # The world's export serves every candidate that is a discard after a draw: the core
        # reads the (immutable) state into its own copy and plays that, and nothing here
        # changes the world between candidates (a prefix plays a copy).
        state: tuple[Any, ...] | None = None
        out: list[list[HandEnd]] = []
        for first in candidates:
            codes = self._policy_codes(world.players, first)
            discard = _plain_discard(world, first)
            if discard is not None:
                # the commonest candidate, a discard after a draw: the core makes it itself
                if state is None:
                    state = rollout.export_state(world)
                rows = rollout.run_rows(state, flags, codes, seed_list, discard,
                                        self._yaku_code)
                out.append([end_of_row(world, row, start) for row in rows])
                continue
            # The Python prefix never reads FastPolicy's seed (its calls follow
            # EfficiencyAgent._claim, which draws nothing): one prefix serves every seed, and
            # one core call plays them all.
            rnd = self._prefix(world, first, seeds[0] if seeds else 0)
            if rnd.done:
                end = hand_end(rnd, start)
                out.append([end] * len(seeds))
                continue
            rows = rollout.run_rows(rollout.export_state(rnd), flags, codes, seed_list,
                                    yaku=self._yaku_code)
            out.append([end_of_row(rnd, row, start) for row in rows])
        return out


def _plain_discard(world: RiichiRound, first: Mapping[int, Event]) -> int | None:
    """The tile of ``first`` when it is the only answer and a discard after a draw."""
    if world.phase != "act" or len(first) != 1:
        return None
    ((seat, e),) = first.items()
    if seat != world.turn or e.type != "dahai" or e.pai is None:
        return None
    return e.pai


def end_of_row(rnd: RiichiRound, row: Sequence[int], start: tuple[int, ...]) -> HandEnd:
    """The :class:`HandEnd` of one result row of :func:`tenpai.rules.riichi.rollout.run` (or
    ``run_rows``) played from ``rnd``."""
    n = rnd.players
    kind = rollout.KINDS[int(row[0])]
    dealer = rnd.oya
    if kind == "hora":
        renchan = bool(int(row[1]) >> dealer & 1)
    elif kind == "exhaustive":
        renchan = bool(int(row[2]) >> dealer & 1)
    else:
        renchan = True
    scores = tuple(int(row[5 + s]) for s in range(n))
    return settle_hand(rnd.rules, scores, int(row[4]), rnd.bakaze, rnd.kyoku, rnd.honba, kind,
                       renchan, start)

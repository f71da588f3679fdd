"""Compiled MCR playouts (``tenpai/rules/mcr/_mcr_rollout.c``): ``POLICY=c:greedy`` and
``c:greedy-fold``.

``search_mcr`` plays every candidate on every world to the end of the hand; on the Python
engine a greedy playout costs about 4.5 ms, so a decision affords a dozen worlds.  The
extension plays the same hand inside C: :func:`export_state` hands it an
:class:`~tenpai.rules.mcr.flow.round.MCRRound` of the ``botzone`` preset (per-seat walls, no
flowers), :func:`run` returns how the hand ended.  The Python engine with
:class:`~tenpai.search.mcr.policies.GreedyMCRPolicy` (or
:class:`~tenpai.search.mcr.policies.GreedyFoldMCRPolicy`) in every seat stays the specification:
``tests/search/test_mcr_rollout.py`` plays the same states both ways and requires the same
deltas, winner, discarder and fans.

:class:`CompiledMCRPlayout` is :class:`~tenpai.search.mcr.playout.MCRPlayout`'s compiled
twin.  A candidate that is a discard by the seat to move (after a draw, or the discard owed
after a call) is the core's first move, with no copy of the world; any other candidate (a
call, a kong, a win, a pass) is stepped once in Python on a copy with the policy answering
the other pending seats, and the core plays on from there.  A hand the fan count
does not cover in C (more readings than its buffers hold) is played by the Python playout
instead, so the answer is always the specification's.

``TENPAI_PURE_PYTHON=1`` or a missing build leaves :func:`available` False, and
``POLICY=c:greedy`` is then refused in one line (:class:`MCRRolloutUnavailable`).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from tenpai import native
from tenpai import tiles as T
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.mcr.fans import FAN_BY_NUMBER
from tenpai.rules.mcr.flow.round import HandResult, MCRRound
from tenpai.rules.mcr.flow.wall import SeatWalls
from tenpai.search.mcr.playout import MCR_POLICIES, MCRPlayout

__all__ = [
    "ABI",
    "POLICY_CODES",
    "CompiledMCRPlayout",
    "EndedHand",
    "MCRRolloutStateError",
    "MCRRolloutUnavailable",
    "available",
    "export_state",
    "run",
    "unavailable_reason",
]

#: The extension's ``ABI`` this side is written for (2: ``run`` takes the policy).
ABI: Final = 2
#: Compiled policies by name: ``run``'s policy code.
POLICY_CODES: Final = {"greedy": 0, "greedy-fold": 1}
_MELD_CODES: Final = {"chi": 0, "pon": 1, "daiminkan": 2, "kakan": 3, "ankan": 4}
_PHASES: Final = {"act": 0, "claim": 1, "discard": 2, "rob": 3}
_KINDS: Final = ("hora", "exhaustive")


class MCRRolloutStateError(ValueError):
    """A state the compiled core cannot hold: a fifth copy, a hand of the wrong size, an
    unknown phase, a preset other than ``botzone``."""


class MCRRolloutUnavailable(RuntimeError):
    """The compiled MCR rollout core is not built (or ``TENPAI_PURE_PYTHON`` is set)."""


_NAME: Final = "tenpai.rules.mcr._mcr_rollout"


def _load() -> Any | None:
    module = native.load(_NAME, ABI)
    if module is None:
        return None
    from tenpai.hand.accel import table_buffers
    from tenpai.rules.mcr.evaluate import _configure_compiled

    # The fan table from the Python classes, exactly as the _fans extension receives it.
    _configure_compiled(types.SimpleNamespace(configure=module.configure_fans))
    module.configure_shanten(*table_buffers())
    module.set_error(MCRRolloutStateError)
    return module


_core: Final = native.Core(
    "the compiled MCR rollout core", _NAME, ABI, MCRRolloutUnavailable, _load()
)
#: True when the compiled MCR rollout core is built and in use.
available = _core.available
#: Why the core is not in use (switched off, not built, stale build) and the build command.
unavailable_reason = _core.unavailable_reason
_need = _core.need


def covers(rnd: MCRRound) -> str | None:
    """None when the core can play ``rnd``'s rules, else why not (one line)."""
    r = rnd.rules
    if not r.per_seat_walls or r.flowers or r.allow_false_win or not isinstance(rnd.wall,
                                                                                SeatWalls):
        return (f"the compiled MCR playouts play the botzone preset (per-seat walls, no "
                f"flowers), not {r.name}")
    return None


def _kind(t: int) -> int:
    if not 0 <= t < 34:
        raise MCRRolloutStateError(
            f"tile code {t} is not a plain tile (red fives and flowers are not in botzone)")
    return t


def export_state(rnd: MCRRound) -> tuple[Any, ...]:
    """The round's state as the core reads it (field order: ``_mcr_rollout.c``'s
    ``read_state``).  Phases ``act``, ``claim``, ``discard`` and ``rob`` (an added kong's
    window) are exported; tiles go as kinds, which under ``botzone`` are the tile codes."""
    why = covers(rnd)
    if why is not None:
        raise MCRRolloutStateError(why)
    if rnd.phase not in _PHASES:
        raise MCRRolloutStateError(f"a rollout cannot start in phase {rnd.phase!r}")
    wall = rnd.wall
    assert isinstance(wall, SeatWalls)
    drawn = rnd.drawn if rnd.phase == "act" else None
    return (
        rnd.dealer, rnd.prevalent_wind, rnd.rules.min_fan, rnd.rules.base,
        tuple(tuple(_kind(t) for t in h) for h in rnd.hands),
        melds_code(rnd),
        tuple(tuple(_kind(t) for t in r) for r in rnd.rivers),
        tuple(tuple(int(c) for c in rc) for rc in rnd.river_called),
        tuple(tuple(_kind(t) for t in wall.walls[s][wall._pos[s]:]) for s in range(4)),
        *turn_code(rnd, drawn),
    )


def melds_code(rnd: MCRRound) -> tuple[Any, ...]:
    """Every seat's melds as the core reads them: (type code, kinds) per meld."""
    try:
        return tuple(tuple((_MELD_CODES[m.type], tuple(_kind(t) for t in m.tiles)) for m in ms)
                     for ms in rnd.melds)
    except KeyError as err:
        raise MCRRolloutStateError(f"unknown meld type {err.args[0]!r}") from None


def turn_code(rnd: MCRRound, drawn: int | None) -> tuple[int, ...]:
    """The state's last six fields: whose turn, the phase, the drawn tile (``drawn``, or -1),
    whether it came after a kong, and the seat and tile of the open window (a claim's discard,
    a rob window's added kong; -1 -1 otherwise)."""
    ev_seat, ev_tile = -1, -1
    if rnd.phase == "claim":
        if rnd.last_discard is None:
            raise MCRRolloutStateError("phase claim without a discard")
        ev_seat, ev_tile = rnd.last_discard
    elif rnd.phase == "rob":
        kan = rnd.kan_in_progress
        if kan is None or kan[2]:
            raise MCRRolloutStateError("a rob window needs an added kong in progress")
        ev_seat, ev_tile = kan[0], kan[1]
    return (rnd.turn, _PHASES[rnd.phase], -1 if drawn is None else _kind(drawn),
            int(rnd.after_kan and rnd.phase == "act"), ev_seat,
            -1 if ev_tile < 0 else _kind(ev_tile))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a compiled playout ended (table positions)."""

    kind: str
    winner: int | None
    target: int | None
    fan: int
    deltas: tuple[int, int, int, int]
    #: (fan number, times counted) of the winning reading, in the scorer's order.
    fans: tuple[tuple[int, int], ...] = field(default_factory=tuple)

    def hand_result(self) -> HandResult:
        """The engine's :class:`HandResult` of this ending (fans by Chinese name and points)."""
        fans = tuple((FAN_BY_NUMBER[n].zh, FAN_BY_NUMBER[n].points * c) for n, c in self.fans)
        return HandResult(self.kind, list(self.deltas), winner=self.winner,  # type: ignore[arg-type]
                          target=self.target, fan=self.fan, fans=fans)


def run(state: tuple[Any, ...], first_discard: int | None = None,
        policy: str = "greedy") -> Outcome | None:
    """Play the state's hand to its end with ``policy`` (:data:`POLICY_CODES`) in every seat;
    None when the core does not cover it (the caller plays it in Python).  ``first_discard``
    (a tile code, phases ``act`` and ``discard``) is the seat to move's discard before the
    policy takes over."""
    module = _need()
    raw = module.run(state, -1 if first_discard is None else int(first_discard),
                     POLICY_CODES[policy])
    if raw is NotImplemented:
        return None
    kind, winner, target, fan, deltas, fans = raw
    return Outcome(_KINDS[kind], None if winner < 0 else winner, None if target < 0 else target,
                   fan, tuple(deltas), tuple(fans))


@dataclass(slots=True)
class EndedHand:
    """What a leaf value reads of an ended hand: its result and the scores after it."""

    result: HandResult
    scores: list[int]


class CompiledMCRPlayout:
    """:class:`~tenpai.search.mcr.playout.MCRPlayout` with ``greedy`` or ``greedy-fold`` in
    every seat, played in the compiled core (module docstring).  Raises
    :class:`MCRRolloutUnavailable` when the core is not built."""

    def __init__(self, policy: str = "greedy", max_steps: int = 2000) -> None:
        if policy not in POLICY_CODES:
            raise ValueError(f"unknown compiled MCR playout policy {policy!r}; known: "
                             f"{', '.join(POLICY_CODES)}")
        _need()
        self.policy = policy
        self.name = f"c-mcr:{policy}"
        self.max_steps = max_steps
        self._python = MCRPlayout(policy, max_steps)
        #: Playouts the core did not cover and Python played (for the measurements).
        self.fallbacks = 0
        #: Candidate playouts started on a world drawn straight into the core's state, and
        #: those that needed the world as a round (a call, a kong, an uncovered hand; see
        #: tenpai.search.mcr.exported_worlds), for the measurements.
        self.exported = 0
        self.copied = 0
        # The last world exported: the candidates of one world share its state (a world is
        # never stepped here; the fingerprint guards against a caller that steps it).
        self._last: tuple[MCRRound, tuple[int, int, str], tuple[Any, ...]] | None = None

    def _export(self, world: MCRRound) -> tuple[Any, ...]:
        mark = (len(world.events), world.turn, world.phase)
        last = self._last
        if last is not None and last[0] is world and last[1] == mark:
            return last[2]
        state = export_state(world)
        self._last = (world, mark, state)
        return state

    def play_out(self, world: MCRRound, first: Mapping[int, Event], seed: int) -> EndedHand:
        """The end of ``world``'s hand after ``first`` (the world itself is not stepped)."""
        why = covers(world)
        if why is not None:
            raise MCRRolloutStateError(why)
        discard = _plain_discard(world, first)
        if discard is not None:
            out = run(self._export(world), discard, self.policy)
            start = world
        else:
            start = self._prefix(world, first, seed)
            if start.done:
                assert start.result is not None
                return EndedHand(start.result, list(start.scores))
            out = run(export_state(start), None, self.policy)
        if out is None:
            self.fallbacks += 1
            rnd = self._python.play_out(world, first, seed)
            assert rnd.result is not None
            return EndedHand(rnd.result, list(rnd.scores))
        scores = [s + d for s, d in zip(start.scores, out.deltas)]
        return EndedHand(out.hand_result(), scores)

    def _prefix(self, world: MCRRound, first: Mapping[int, Event], seed: int) -> MCRRound:
        """A copy of ``world`` after the first answers (the other pending seats by the policy)."""
        rnd = clone(world)
        answers = dict(first)
        for d in rnd.pending():
            if d.seat not in answers:
                answers[d.seat] = MCR_POLICIES[self.policy](seed * 4 + d.seat).act(
                    d.observation, d.legal)
        rnd.step(answers)
        return rnd


def _plain_discard(world: MCRRound, first: Mapping[int, Event]) -> int | None:
    """The tile of ``first`` when it is the only answer and a discard by the seat to move."""
    if world.phase not in ("act", "discard") or len(first) != 1:
        return None
    ((seat, e),) = first.items()
    if seat != world.turn or e.type != "dahai" or e.pai is None or T.is_flower(e.pai):
        return None
    return e.pai

"""External mjai bots as arena seats: ``mjai:PATH`` (or ``mjai:COMMAND ARGS``) in a lineup.

Each external seat is a subprocess speaking mjai's stdio protocol.  The arena plays the game on
its own engine and is the referee: every event goes to each bot as that seat may see it (other
hands and draws hidden, as mjai servers do), and when the engine asks a bot's seat to decide,
the bot's line is read and matched against the engine's legal actions.  A bot that answers
garbage, an illegal action, nothing in time, or dies is charged an error of that kind and the
game goes on with a safe default (the drawn tile discarded, or a pass); a bot that timed out or
died is dropped for the rest of the game (every later decision is defaulted and counted).
Lines a bot writes when no decision was asked of it are ``unsolicited`` errors: with the sparse
stdio protocol that is how a disagreement about possible calls shows up.  At a three-player
table (``--preset tenhou_sanma``) the bots get the three-player stream: three hands and scores
in ``start_kyoku``, a North set aside as ``nukidora`` (docs/mjai.md, "Three players over mjai").
A seat that runs our own bot assuming another game length than the arena's gets a warning at
the start of the run (:func:`length_warning`, :mod:`tenpai.serve.mjai.seat_length`).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence

from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.serve.commands import resolve_command, timeout_from_env
from tenpai.serve.mjai.process import BotExited, BotProcess, BotTimeout
from tenpai.serve.mjai.seat_length import length_warning
from tenpai.serve.mjai.wire import ProtocolError, dumps, event_to_wire, parse_action
from tenpai.serve.seat_report import SeatReport

__all__ = [
    "ERROR_KINDS",
    "PREFIX",
    "ExternalSeat",
    "SeatReport",
    "default_timeout",
    "is_external",
    "length_warning",
    "play_game",
    "resolve_spec",
    "safe_default",
]

PREFIX = "mjai:"
#: Error kinds, in the order reports list them.
ERROR_KINDS = (
    "garbage",
    "illegal",
    "timeout",
    "exited",
    "unsolicited",
    "stray_none",
    "dropped",
)
#: Seconds a bot may think about one decision (``TENPAI_MJAI_TIMEOUT`` overrides it);
#: mjai-manue needs up to 20 s for a hard discard on a loaded two-core machine.
DEFAULT_TIMEOUT = 60.0


def default_timeout() -> float:
    return timeout_from_env("TENPAI_MJAI_TIMEOUT", DEFAULT_TIMEOUT)


def is_external(name: str) -> bool:
    return name.startswith(PREFIX)


def resolve_spec(name: str) -> str:
    """``mjai:CMD`` with the program made absolute and checked; ValueError in one line if the
    program does not exist or is not executable.  Arguments may follow (shell-quoted)."""
    return resolve_command(name, PREFIX, name[len(PREFIX) :].strip())


def safe_default(legal: Sequence[Event]) -> Event:
    """What a seat does when its bot failed: pass a claim, else discard the drawn tile (or the
    first legal discard after a call or a riichi declaration)."""
    for e in legal:
        if e.type == "none":
            return e
    for e in legal:
        if e.type == "dahai" and e.tsumogiri:
            return e
    for e in legal:
        if e.type == "dahai":
            return e
    return legal[-1]


_NO_TILES = frozenset({"dahai", "hora", "none", "reach", "ryukyoku"})


def _match(action: Event, legal: Sequence[Event], seat: int) -> Event | None:
    """The legal event the bot meant, or None.  Consumed tiles compare as sets; a discard's
    tsumogiri flag and a win's tile are informative, used only to break ties."""
    if action.actor is not None and action.actor != seat and action.type != "none":
        return None
    same = [
        e
        for e in legal
        if e.type == action.type
        and (action.type != "hora" or action.target is None or e.target == action.target)
        and (action.type not in ("dahai", "kakan") or e.pai == action.pai)
        and (action.type in _NO_TILES or _same_tiles(e, action))
    ]
    if action.type == "dahai" and len(same) > 1:
        exact = [e for e in same if e.tsumogiri == bool(action.tsumogiri)]
        same = exact or same
    return same[0] if same else None


def _same_tiles(a: Event, b: Event) -> bool:
    return sorted(a.consumed) == sorted(b.consumed) and (a.pai is None or b.pai in (None, a.pai))


class ExternalSeat:
    """The arena's side of one external bot (see the module docstring)."""

    def __init__(self, seat: int, name: str, *, timeout: float | None = None) -> None:
        self.seat = seat
        self.name = name
        self.timeout = default_timeout() if timeout is None else timeout
        self.report = SeatReport(seat, name)
        self.proc: BotProcess | None = BotProcess(
            shlex.split(name[len(PREFIX) :]), label=f"{name} (seat {seat})"
        )
        #: Points after the latest event, one per seat (three or four: the deal's scores).
        self._scores: list[int] = []

    # ------------------------------------------------------------------ events out
    def feed(self, events: Sequence[Event]) -> None:
        """Send events as this seat sees them (a dead bot gets nothing)."""
        if self.proc is None:
            return
        self._collect_unsolicited()
        lines = [dumps(self._wire(e)) for e in events if e.type != "none"]
        try:
            self.proc.send(lines)
        except BotExited as exc:
            self._drop("exited", str(exc))

    def _wire(self, e: Event) -> dict[str, object]:
        m = mask_event(e, self.seat)
        if e.type == "start_kyoku" or (e.type == "reach_accepted"
                                       and len(e.scores) == len(self._scores)):
            self._scores = list(e.scores)
        elif e.type in ("hora", "ryukyoku") and len(e.deltas) == len(self._scores):
            self._scores = [s + d for s, d in zip(self._scores, e.deltas, strict=True)]
        out = event_to_wire(m, self._scores)
        if e.type == "start_game":
            out["id"] = self.seat
        return out

    def _collect_unsolicited(self) -> None:
        if self.proc is None:
            return
        for line in self.proc.pending_lines():
            self._charge_unsolicited(line)

    def _charge_unsolicited(self, line: str) -> None:
        """A line nobody asked for.  A bare pass is kept apart (``stray_none``): the mjai-manue
        bots write one after another player's added kan and replacement draw, which is
        harmless to the game but still a protocol deviation worth counting."""
        try:
            kind = "stray_none" if parse_action(line).type == "none" else "unsolicited"
        except ProtocolError:
            kind = "unsolicited"
        self.report.charge(kind, line.strip())

    # ------------------------------------------------------------------ answers in
    def answer(self, legal: Sequence[Event]) -> Event:
        """The bot's choice among ``legal`` (or the safe default, with the error charged)."""
        self.report.decisions += 1
        if self.proc is None:
            self.report.charge("dropped", "decision after the bot was dropped")
            return safe_default(legal)
        deadline = time.monotonic() + self.timeout
        passing = any(e.type == "none" for e in legal)
        while True:
            try:
                line = self.proc.read_line(max(deadline - time.monotonic(), 0.001))
            except BotTimeout:
                self._drop("timeout", f"{self.name} did not answer within {self.timeout:g} s")
                return safe_default(legal)
            except BotExited as exc:
                self._drop("exited", str(exc))
                return safe_default(legal)
            try:
                action = parse_action(line)
            except ProtocolError as exc:
                self.report.charge("garbage", str(exc))
                return safe_default(legal)
            if action.type != "none" or passing:
                break
            # A pass where none can be the answer: a stray line from earlier; read on.
            self._charge_unsolicited(line)
        chosen = _match(action, legal, self.seat)
        if chosen is None:
            shown = ", ".join(dumps(e.to_mjai()) for e in legal[:8])
            self.report.charge("illegal", f"{line.strip()[:120]} not in [{shown}]")
            return safe_default(legal)
        return chosen

    def _drop(self, kind: str, detail: str) -> None:
        self.report.charge(kind, detail)
        self.close()

    def close(self) -> None:
        if self.proc is not None:
            self._collect_unsolicited()
            self.proc.close()
            self.proc = None


def play_game(
    game: GameFlow,
    names: Sequence[str],
    agents: Sequence[Agent | None],
    *,
    timeout: float | None = None,
    max_steps: int = 1_000_000,
) -> list[SeatReport]:
    """Play ``game`` to its end with built-in ``agents`` and external bots (``None`` entries,
    named ``mjai:…`` in ``names``); the external seats' reports.  Every bot is closed on the
    way out, whatever happens."""
    seats: dict[int, ExternalSeat] = {}
    try:
        for s, (name, agent) in enumerate(zip(names, agents, strict=True)):
            if agent is None:
                seats[s] = ExternalSeat(s, name, timeout=timeout)
        fed = 0
        steps = 0
        while True:
            new = game.events[fed:]
            fed = len(game.events)
            for ext in seats.values():
                ext.feed(new)
            if game.done:
                break
            answers: dict[int, Event] = {}
            for d in game.pending():
                asked = seats.get(d.seat)
                if asked is not None:
                    answers[d.seat] = asked.answer(d.legal)
                else:
                    agent = agents[d.seat]
                    assert agent is not None
                    answers[d.seat] = agent.act(d.observation, d.legal)
            game.step(answers)
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"game did not end within {max_steps} steps")
    finally:
        for ext in seats.values():
            ext.close()
    return [ext.report for ext in seats.values()]

"""Botzone bots as MCR arena seats: ``botzone:CMD`` (simple interaction) or
``botzone-json:CMD`` (JSON interaction) in a lineup of the ``mcr`` rules, preset ``botzone``.

Our engine is the judge.  Each seat keeps the requests Botzone's judge would have sent it
(:class:`~tenpai.serve.botzone.judge.RequestWriter`) and the responses it gave.  When the
engine asks the seat to decide, the bot is asked the newest request with the whole history
(a program that keeps running gets just the new requests) and its answer is checked against
the engine's legal actions.  Requests where the engine offers the seat nothing (another's
draw, an echo of one's own move, a discard nobody can claim) can only be answered ``PASS``:
a kept-running bot is still sent them (it must track the match) and any other answer is
counted ``unsolicited``; a per-turn bot is not started for them and ``PASS`` is recorded in its
history (``ask_all=True`` starts it for every request, as Botzone does).

Errors, counted by kind: ``malformed`` (not the grammar), ``illegal`` (not a legal action here,
or a pong/chow whose discard is not in hand), ``late`` (no answer in time), ``died``,
``oversized`` (a line over 64 KiB), ``unsolicited``.  The fallback for each is the safe action:
pass a claim, discard the drawn tile (or the first legal discard after a call); the bot is then
asked again on its next decision (a killed program restarts from the whole history).

Botzone's own judge does not play on: the first wrong answer (or a verdict other than OK: late,
crashed) ends the match, the offender scoring −30 and each other player +10.  A seat made with
``forfeit=True`` does the same: its first counted error raises :class:`Forfeited` and
:func:`play_game` stops there, leaving :class:`Forfeit` (who, which kind, at which request, and
how many of the game's events led to that request) on the seat's report; what the game's
result then is, is the arena's business (``tenpai arena --seat-errors forfeit``).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.events import Event
from tenpai.serve import seat_report
from tenpai.serve.botzone.judge import AnswerError, RequestWriter, interpret
from tenpai.serve.botzone.runners import BotFailure, ProgramRunner, Runner
from tenpai.serve.commands import resolve_command, timeout_from_env
from tenpai.serve.mjai.external import safe_default

__all__ = [
    "ERROR_KINDS",
    "FORFEIT_GAIN",
    "FORFEIT_LOSS",
    "PREFIXES",
    "BotzoneSeat",
    "Forfeit",
    "Forfeited",
    "SeatReport",
    "default_timeout",
    "is_botzone",
    "play_game",
    "resolve_spec",
    "runner_for",
]

PREFIXES = ("botzone:", "botzone-json:")
ERROR_KINDS = ("malformed", "illegal", "late", "died", "oversized", "unsolicited")
#: Seconds per answer (``TENPAI_BOTZONE_TIMEOUT`` overrides; generous for a loaded machine —
#: a per-turn Python bot that imports torch needs several seconds per turn).
DEFAULT_TIMEOUT = 30.0
#: Botzone's judge (``playerError`` in ``judge/main.cpp`` of Chinese-Standard-Mahjong): the
#: offender's score and each other player's when a bot's answer ends the match.
FORFEIT_LOSS = -30
FORFEIT_GAIN = 10


def default_timeout() -> float:
    return timeout_from_env("TENPAI_BOTZONE_TIMEOUT", DEFAULT_TIMEOUT)


def is_botzone(name: str) -> bool:
    return name.startswith(PREFIXES)


def _split(name: str) -> tuple[str, str]:
    for p in PREFIXES:
        if name.startswith(p):
            return p, name[len(p):].strip()
    raise ValueError(f"{name}: not a botzone: seat")


def resolve_spec(name: str) -> str:
    """``botzone:CMD`` with its program made absolute and checked (one-line ValueError)."""
    prefix, spec = _split(name)
    return resolve_command(name, prefix, spec)


def runner_for(name: str, timeout: float | None = None) -> ProgramRunner:
    prefix, spec = _split(name)
    return ProgramRunner(shlex.split(spec),
                         interaction="json" if prefix == "botzone-json:" else "simple",
                         timeout=default_timeout() if timeout is None else timeout,
                         label=name)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat's first counted error, which ended the match: ``request`` is the number of the
    request it answered (1 = the first of its history, Botzone's turn), ``text`` that request,
    ``answer`` its answer ("" when there was none: late, died), and ``events`` how many of the
    game's events had been played when that request was sent (the game stops there)."""

    seat: int
    kind: str
    request: int
    text: str
    answer: str
    events: int

    def scores(self) -> tuple[int, ...]:
        """Each seat's score in the match, as Botzone's judge gives it."""
        return tuple(FORFEIT_LOSS if s == self.seat else FORFEIT_GAIN for s in range(4))


class Forfeited(Exception):
    """Raised out of :meth:`BotzoneSeat.decide` by a ``forfeit=True`` seat's first error."""

    def __init__(self, forfeit: Forfeit) -> None:
        super().__init__(f"seat {forfeit.seat} forfeits: {forfeit.kind} at request "
                         f"{forfeit.request}")
        self.forfeit = forfeit


@dataclass(slots=True)
class SeatReport(seat_report.SeatReport):
    """One Botzone seat's protocol record in one game; ``runs`` counts the times its program
    was asked (every decision, and every pass-through request when it keeps state);
    ``forfeit`` is set when the seat's error ended the match."""

    runs: int = 0
    forfeit: Forfeit | None = None


class BotzoneSeat:
    """The judge's side of one bot (see the module docstring); an :class:`Agent` of sorts."""

    def __init__(self, seat: int, name: str, runner: Runner, *, ask_all: bool = False,
                 forfeit: bool = False) -> None:
        self.seat = seat
        self.name = name
        self.runner = runner
        self.ask_all = ask_all
        self.forfeit = forfeit
        self.report = SeatReport(seat, name)
        self.requests: list[str] = []
        self.responses: list[str] = []
        self._writer = RequestWriter()
        self._fed = 0
        self._queued: int | None = None

    # ------------------------------------------------------------------ requests
    def _catch_up(self, events: Sequence[Event]) -> list[tuple[str, int]]:
        """The seat's new requests, each with the number of events that led to it."""
        new: list[tuple[str, int]] = []
        for i in range(self._fed, len(events)):
            new.extend((turn[self.seat], i + 1) for turn in self._writer.feed(events[i]))
        self._fed = len(events)
        return new

    def _charge(self, kind: str, detail: str, answer: str, events: int) -> None:
        """Count an error on the newest request; a forfeiting seat's first one ends the match."""
        self.report.charge(kind, detail)
        if self.forfeit and self.report.forfeit is None:
            self.report.forfeit = Forfeit(self.seat, kind, len(self.requests),
                                          self.requests[-1] if self.requests else "",
                                          answer, events)
            raise Forfeited(self.report.forfeit)

    def _pass_through(self, request: str, events: int) -> None:
        """A request with ``PASS`` as the only answer."""
        self.requests.append(request)
        if not (self.ask_all or self.runner.tracking):
            self.responses.append("PASS")
            return
        line = self._run(events)
        self.responses.append("PASS")
        if line is not None and line.strip() != "PASS":
            self._charge("unsolicited", f"{line.strip()[:120]!r} to {request!r}", line.strip(),
                         events)

    def follow(self, events: Sequence[Event]) -> None:
        """Send the requests this seat can only pass now, not at its next decision: a
        forfeiting seat's wrong answer to one must end the match at that request, before any
        later error of another seat (Botzone sends each request to all four at once)."""
        for r, fed in self._catch_up(events):
            self._pass_through(r, fed)

    def _run(self, events: int) -> str | None:
        self.report.runs += 1
        try:
            return self.runner.ask(self.requests, self.responses)
        except BotFailure as exc:
            self._charge(exc.kind, str(exc), "", events)
            return None

    # ------------------------------------------------------------------ deciding
    def decide(self, events: Sequence[Event], legal: Sequence[Event], hand: Sequence[int]
               ) -> Event:
        """The bot's choice for the engine's decision now (``events``: the game so far)."""
        self.report.decisions += 1
        new = self._catch_up(events)
        now = len(events)
        if not new:  # the discard after this seat's own pong or chow
            t, self._queued = self._queued, None
            for e in legal:
                if e.type == "dahai" and e.pai == t:
                    return e
            self._charge("illegal", "no discard queued after a call",
                         self.responses[-1] if self.responses else "", now)
            return safe_default(legal)
        self._queued = None
        for r, fed in new[:-1]:
            self._pass_through(r, fed)
        request = new[-1][0]
        self.requests.append(request)
        line = self._run(now)
        if line is None:
            self.responses.append("PASS")
            return safe_default(legal)
        self.responses.append(line.strip())
        try:
            got = interpret(line, legal, hand)
        except AnswerError as exc:
            self._charge(exc.kind, f"{exc} (to {request!r})", line.strip(), now)
            return safe_default(legal)
        self._queued = got.discard
        return got.action

    def finish(self, events: Sequence[Event]) -> None:
        """The requests after the seat's last decision (for transcripts); a kept-running bot
        is not sent them — the match is over."""
        for r, _fed in self._catch_up(events):
            self.requests.append(r)
            self.responses.append("PASS")

    def close(self) -> None:
        self.runner.close()


def play_game(
    game: GameFlow,
    agents: Sequence[Agent | None],
    seats: dict[int, BotzoneSeat],
    *,
    max_steps: int = 1_000_000,
) -> list[SeatReport]:
    """Play ``game`` with built-in ``agents`` and Botzone ``seats`` (their ``agents`` entry is
    None); every bot is closed on the way out, whatever happens.  A ``forfeit=True`` seat's
    first error stops the game unfinished (``game.done`` stays False) with the error on that
    seat's report (:attr:`SeatReport.forfeit`); the seats are not sent the rest."""
    try:
        steps = 0
        while not game.done:
            answers: dict[int, Event] = {}
            pending = game.pending()
            deciding = {d.seat for d in pending}
            for s, follower in seats.items():
                if follower.forfeit and s not in deciding:
                    follower.follow(game.events)
            for d in pending:
                seat = seats.get(d.seat)
                if seat is not None:
                    hand: Any = d.observation.hand
                    answers[d.seat] = seat.decide(game.events, d.legal, hand)
                else:
                    agent = agents[d.seat]
                    assert agent is not None
                    answers[d.seat] = agent.act(d.observation, d.legal)
            game.step(answers)
            steps += 1
            if steps > max_steps:
                raise RuntimeError(f"game did not end within {max_steps} steps")
        for seat in seats.values():
            seat.finish(game.events)
    except Forfeited:
        pass  # the match ends at the error; the offender's report says where
    finally:
        for seat in seats.values():
            seat.close()
    return [s.report for s in seats.values()]

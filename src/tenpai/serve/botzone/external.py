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
    "PREFIXES",
    "BotzoneSeat",
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


@dataclass(slots=True)
class SeatReport(seat_report.SeatReport):
    """One Botzone seat's protocol record in one game; ``runs`` counts the times its program
    was asked (every decision, and every pass-through request when it keeps state)."""

    runs: int = 0


class BotzoneSeat:
    """The judge's side of one bot (see the module docstring); an :class:`Agent` of sorts."""

    def __init__(self, seat: int, name: str, runner: Runner, *, ask_all: bool = False) -> None:
        self.seat = seat
        self.name = name
        self.runner = runner
        self.ask_all = ask_all
        self.report = SeatReport(seat, name)
        self.requests: list[str] = []
        self.responses: list[str] = []
        self._writer = RequestWriter()
        self._fed = 0
        self._queued: int | None = None

    # ------------------------------------------------------------------ requests
    def _catch_up(self, events: Sequence[Event]) -> list[str]:
        new: list[str] = []
        for e in events[self._fed:]:
            new.extend(turn[self.seat] for turn in self._writer.feed(e))
        self._fed = len(events)
        return new

    def _pass_through(self, request: str) -> None:
        """A request with ``PASS`` as the only answer."""
        self.requests.append(request)
        if not (self.ask_all or self.runner.tracking):
            self.responses.append("PASS")
            return
        line = self._run()
        self.responses.append("PASS")
        if line is not None and line.strip() != "PASS":
            self.report.charge("unsolicited", f"{line.strip()[:120]!r} to {request!r}")

    def _run(self) -> str | None:
        self.report.runs += 1
        try:
            return self.runner.ask(self.requests, self.responses)
        except BotFailure as exc:
            self.report.charge(exc.kind, str(exc))
            return None

    # ------------------------------------------------------------------ deciding
    def decide(self, events: Sequence[Event], legal: Sequence[Event], hand: Sequence[int]
               ) -> Event:
        """The bot's choice for the engine's decision now (``events``: the game so far)."""
        self.report.decisions += 1
        new = self._catch_up(events)
        if not new:  # the discard after this seat's own pong or chow
            t, self._queued = self._queued, None
            for e in legal:
                if e.type == "dahai" and e.pai == t:
                    return e
            self.report.charge("illegal", "no discard queued after a call")
            return safe_default(legal)
        self._queued = None
        for r in new[:-1]:
            self._pass_through(r)
        self.requests.append(new[-1])
        line = self._run()
        if line is None:
            self.responses.append("PASS")
            return safe_default(legal)
        self.responses.append(line.strip())
        try:
            got = interpret(line, legal, hand)
        except AnswerError as exc:
            self.report.charge(exc.kind, f"{exc} (to {new[-1]!r})")
            return safe_default(legal)
        self._queued = got.discard
        return got.action

    def finish(self, events: Sequence[Event]) -> None:
        """The requests after the seat's last decision (for transcripts); a kept-running bot
        is not sent them — the match is over."""
        for r in self._catch_up(events):
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
    None); every bot is closed on the way out, whatever happens."""
    try:
        steps = 0
        while not game.done:
            answers: dict[int, Event] = {}
            for d in game.pending():
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
    finally:
        for seat in seats.values():
            seat.close()
    return [s.report for s in seats.values()]

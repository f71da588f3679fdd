"""How the judge asks one bot for one response: a program run per turn or kept running.

A :class:`ProgramRunner` follows Botzone: each turn the program gets the whole history (simple
or JSON form) and answers once; a program that prints the keep-running line after its answer
is kept, and from then on gets only each new request.  A bot that answers late, dies, or
writes an oversized line is killed; the next request starts it again from the whole history,
as a fresh per-turn run.  :class:`InProcessRunner` plays one of our own
:class:`~tenpai.serve.botzone.bot.BotzoneBot` in this process (tests, fast arenas), and
:class:`ScriptedRunner` replays recorded responses (transcript checks).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Literal, Protocol

from tenpai.engine.kept_bot import KeptBotRunner
from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.protocol import KEEP_RUNNING, MAX_LINE
from tenpai.serve.mjai.process import BotExited, BotProcess, BotTimeout

__all__ = [
    "BotFailure",
    "InProcessRunner",
    "ProgramRunner",
    "Runner",
    "ScriptedRunner",
]

Interaction = Literal["simple", "json"]


class BotFailure(RuntimeError):
    """No usable line came back; ``kind`` is ``late``, ``died`` or ``oversized``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Runner(Protocol):
    @property
    def tracking(self) -> bool:
        """Whether the bot follows the match itself now (a kept-running program, or a bot in
        this process): then every request must reach it, even those it can only pass."""
        ...

    def ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        """The response to ``requests[-1]``; ``responses`` answered the earlier ones."""
        ...

    def close(self) -> None: ...


class ScriptedRunner:
    """Answers request ``i`` with ``script[i]`` (a recorded match's responses)."""

    tracking = False

    def __init__(self, script: Sequence[str]) -> None:
        self.script = list(script)

    def ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        i = len(requests) - 1
        return self.script[i] if i < len(self.script) else "PASS"

    def close(self) -> None:
        pass


class InProcessRunner(KeptBotRunner[BotzoneBot]):
    """One of our bots in this process, kept running (it sees every request once)."""

    def _follow(self, bot: BotzoneBot, request: str, response: str) -> None:
        bot.follow(request, response)

    def _answer(self, bot: BotzoneBot, request: str) -> str:
        return bot.answer(request)


class ProgramRunner:
    """An external program speaking Botzone's protocol (see the module docstring)."""

    def __init__(self, argv: Sequence[str], *, interaction: Interaction = "simple",
                 timeout: float = 6.0, label: str = "") -> None:
        self.argv = list(argv)
        self.interaction = interaction
        self.timeout = timeout
        self.label = label or self.argv[0]
        self._proc: BotProcess | None = None
        self._seen = 0  # requests the running program has had
        #: wall seconds spent waiting for answers, and program starts (for reports)
        self.waited = 0.0
        self.starts = 0

    @property
    def tracking(self) -> bool:
        return self._proc is not None and self._proc.alive

    def _full_input(self, requests: Sequence[str], responses: Sequence[str]) -> list[str]:
        if self.interaction == "json":
            return [json.dumps({"requests": list(requests), "responses": list(responses)},
                               separators=(",", ":"))]
        lines = [str(len(requests))]
        for i, r in enumerate(requests):
            lines.append(r)
            if i < len(responses):
                lines.append(responses[i])
        return lines

    def _one_input(self, request: str) -> list[str]:
        return [json.dumps(request) if self.interaction == "json" else request]

    def ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        start = time.monotonic()
        try:
            return self._ask(requests, responses)
        finally:
            self.waited += time.monotonic() - start

    def _ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        kept = self._proc is not None and self._proc.alive and self._seen == len(requests) - 1
        if not kept:
            self.close()
            self._proc = BotProcess(self.argv, label=self.label)
            self.starts += 1
            lines = self._full_input(requests, responses)
        else:
            lines = self._one_input(requests[-1])
        proc = self._proc
        assert proc is not None
        deadline = time.monotonic() + self.timeout
        try:
            proc.send(lines)
            answer = self._read(proc, deadline)
        except BotTimeout:
            self.close()
            raise BotFailure("late", f"{self.label} did not answer within {self.timeout:g} s"
                             ) from None
        except BotExited as exc:
            self.close()
            raise BotFailure("died", str(exc)) from None
        if len(answer) > MAX_LINE:
            self.close()
            raise BotFailure("oversized", f"{self.label} wrote a line of {len(answer)} "
                             "characters")
        self._seen = len(requests)
        if not self._keeps(proc, deadline):
            self.close()
        if self.interaction == "json":
            return _json_response(answer)
        return answer.strip()

    @staticmethod
    def _read(proc: BotProcess, deadline: float) -> str:
        while True:
            line = proc.read_line(max(deadline - time.monotonic(), 0.001))
            if line.strip():
                return line

    @staticmethod
    def _keeps(proc: BotProcess, deadline: float) -> bool:
        """Whether the program asked to keep running (the marker line after its answer); a
        program that exits, or says nothing more in time, is run afresh next turn."""
        wait = min(max(deadline - time.monotonic(), 0.05), 1.0)
        try:
            line = proc.read_line(wait)
        except (BotTimeout, BotExited):
            return False
        return line.strip() == KEEP_RUNNING

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close(grace=0.0)
            self._proc = None
        self._seen = 0


def _json_response(line: str) -> str:
    """The ``response`` of a JSON answer (a line that is not one stays as it is, and is then
    judged malformed)."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return line.strip()
    if isinstance(obj, dict) and isinstance(obj.get("response"), str):
        return str(obj["response"])
    return line.strip()

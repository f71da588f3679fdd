"""Botzone's two input forms (simple and JSON) and two run modes (per turn, keep running).

*Per turn* (Botzone's default): the program starts, reads the whole history — simple: a line
``n``, then ``2n-1`` lines alternating requests and this bot's responses, ending with the new
request (lines after them, Botzone's ``data`` and ``globaldata``, are ignored); JSON: one line
``{"requests": [...], "responses": [...]}`` — answers the last request and exits.

*Keep running*: after the answer the bot prints :data:`KEEP_RUNNING` and waits; Botzone then
sends only each new request (simple: the request line; JSON: the request as a JSON string, or an
object whose ``requests`` is that string — both accepted, as is a bare request line).  A new full
input (a count line, or a ``requests`` list) starts a new match.

Every answer is one line (simple: the response; JSON: ``{"response": ...}``), flushed at once.
Bad input never stops the loop: one line on stderr, and a safe answer (see
:mod:`tenpai.serve.botzone.bot`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, TextIO

from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.protocol import KEEP_RUNNING, MAX_LINE

__all__ = ["Interaction", "run_bot"]

Interaction = Literal["simple", "json"]
_MAX_TURNS = 10_000


class _InputError(ValueError):
    """Input that is not a Botzone turn at all (one-line message)."""


def _read_line(inp: TextIO) -> str | None:
    line = inp.readline()
    if line == "":
        return None
    if len(line) > MAX_LINE:
        raise _InputError(f"an input line of {len(line)} characters (at most {MAX_LINE})")
    return line.rstrip("\r\n")


def _full_simple(first: str, inp: TextIO) -> tuple[list[str], list[str]]:
    try:
        n = int(first.strip())
    except ValueError:
        raise _InputError(f"the first line {first[:40]!r} is not a turn count") from None
    if not 1 <= n <= _MAX_TURNS:
        raise _InputError(f"turn count {n} is not 1-{_MAX_TURNS}")
    requests: list[str] = []
    responses: list[str] = []
    for i in range(2 * n - 1):
        line = _read_line(inp)
        if line is None:
            raise _InputError(f"the input ends after {i} of {2 * n - 1} messages")
        (requests if i % 2 == 0 else responses).append(line)
    return requests, responses


def _from_json(text: str) -> tuple[list[str], list[str]] | str:
    """A JSON input: the full history, or one request (keep-running turns)."""
    try:
        obj: Any = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text  # a bare request line
    if isinstance(obj, str):
        return obj
    if not isinstance(obj, dict) or "requests" not in obj:
        raise _InputError("JSON input without 'requests'")
    req = obj["requests"]
    if isinstance(req, str):
        return req
    resp = obj.get("responses", [])
    if not isinstance(req, list) or not isinstance(resp, list) or not all(
        isinstance(x, str) for x in [*req, *resp]
    ):
        raise _InputError("'requests' and 'responses' must be lists of strings")
    if not req or len(resp) != len(req) - 1:
        raise _InputError(f"{len(req)} requests need {max(len(req) - 1, 0)} responses, "
                          f"got {len(resp)}")
    return list(req), list(resp)


def run_bot(
    make_bot: Callable[[], BotzoneBot],
    inp: TextIO,
    out: TextIO,
    err: TextIO,
    *,
    interaction: Interaction = "simple",
    keep_running: bool = False,
) -> int:
    """Serve Botzone turns until the input ends (keep running) or after one turn."""
    bot: BotzoneBot | None = None

    def emit(response: str) -> None:
        out.write(json.dumps({"response": response}) + "\n" if interaction == "json"
                  else response + "\n")
        if keep_running:
            out.write(KEEP_RUNNING + "\n")
        out.flush()

    def complain(message: str) -> None:
        err.write(f"tenpai botzone-bot: {message}\n")
        err.flush()

    while True:
        try:
            line = _read_line(inp)
        except _InputError as exc:
            complain(str(exc))
            emit("PASS")
            if not keep_running:
                return 2
            continue
        if line is None:
            return 0
        if not line.strip():
            continue
        try:
            got: tuple[list[str], list[str]] | str
            if interaction == "json":
                got = _from_json(line)
            elif keep_running and bot is not None and not line.strip().isdigit():
                got = line
            else:
                got = _full_simple(line, inp)
        except _InputError as exc:
            complain(str(exc))
            emit("PASS")
            if not keep_running:
                return 2
            continue
        if isinstance(got, str):
            if bot is None:
                bot = make_bot()
                bot.err = err
            emit(bot.answer(got))
        else:
            requests, responses = got
            bot = make_bot()
            bot.err = err
            for r, a in zip(requests, responses, strict=False):
                bot.follow(r, a)
            emit(bot.answer(requests[-1]))
        if not keep_running:
            return 2 if bot.lost is not None else 0

"""The kept-running in-process runner: asked once per request while it keeps up, rebuilt and led
through the history after a gap (the frame under the Botzone and training-loop bot runners)."""

from __future__ import annotations

import pytest

from tenpai.engine.kept_bot import KeptBotRunner


class _Log:
    """A bot that records what it was shown; it answers with the count of calls so far."""

    def __init__(self, built: list[_Log]) -> None:
        built.append(self)
        self.seen: list[str] = []

    def step(self, line: str) -> str:
        self.seen.append(line)
        return f"A{len(self.seen)}"


class _Runner(KeptBotRunner[_Log]):
    def _follow(self, bot: _Log, request: str, response: str) -> None:
        bot.seen.append(f"{request}->{response}")

    def _answer(self, bot: _Log, request: str) -> str:
        return bot.step(request)


def test_kept_bot_sees_each_request_once() -> None:
    built: list[_Log] = []
    runner = _Runner(lambda: _Log(built))
    assert runner.tracking
    assert runner.ask(["r0"], []) == "A1"
    assert runner.ask(["r0", "r1"], ["x"]) == "A2"
    assert len(built) == 1 and built[0].seen == ["r0", "r1"]


def test_gap_or_close_rebuilds_from_history() -> None:
    built: list[_Log] = []
    runner = _Runner(lambda: _Log(built))
    runner.ask(["r0"], [])
    # a request skipped: the bot is built again and follows the answered history first
    assert runner.ask(["r0", "r1", "r2"], ["a0", "a1"]) == "A3"
    assert built[1].seen == ["r0->a0", "r1->a1", "r2"]
    runner.close()
    runner.ask(["r0", "r1", "r2", "r3"], ["a0", "a1", "a2"])
    assert len(built) == 3 and built[2].seen == ["r0->a0", "r1->a1", "r2->a2", "r3"]


def test_history_without_its_responses_is_refused() -> None:
    runner = _Runner(lambda: _Log([]))
    with pytest.raises(ValueError):
        runner.ask(["r0", "r1"], [])

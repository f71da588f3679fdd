"""A text-protocol bot played in this process and kept running between requests.

A judge that speaks a request/response protocol (Botzone's) asks a bot for the answer to the
newest request, passing the whole history.  A program kept running gets only the new request;
a program started afresh reads the whole history first.  :class:`KeptBotRunner` does the same
with a bot object in this process: while it has seen every request but the newest it is
asked only that one; after a gap (the first request, a replay, a runner closed) a new bot is
built and led through the history before it answers.

Two runners share this frame: the serve layer's ``InProcessRunner`` (one of our own Botzone
bots) and the rl layer's ``BotFileRunner`` (a Botzone submission file loaded as a module).
It lives here, below both, because ``rl`` may not import ``serve``; subclasses say only how
their bot follows a request already answered and how it answers the newest one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["KeptBotRunner"]

BotT = TypeVar("BotT")


class KeptBotRunner(ABC, Generic[BotT]):
    """A bot of type ``BotT`` in this process that sees every request once (see the module)."""

    #: the bot follows the match itself, so every request must reach it (even a forced pass)
    tracking = True

    def __init__(self, make_bot: Callable[[], BotT]) -> None:
        self._make = make_bot
        self._bot: BotT | None = None
        self._seen = 0

    def ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        """The answer to ``requests[-1]``; ``responses`` answered the earlier requests."""
        if self._bot is None or self._seen != len(requests) - 1:
            self._bot = self._make()
            for request, response in zip(requests[:-1], responses, strict=True):
                self._follow(self._bot, request, response)
        self._seen = len(requests)
        return self._answer(self._bot, requests[-1])

    def close(self) -> None:
        self._bot = None

    @abstractmethod
    def _follow(self, bot: BotT, request: str, response: str) -> None:
        """Lead a fresh ``bot`` through an earlier ``request`` that got ``response``."""

    @abstractmethod
    def _answer(self, bot: BotT, request: str) -> str:
        """``bot``'s answer to the newest ``request``."""

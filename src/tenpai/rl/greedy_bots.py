"""The shanten-greedy Botzone bot as training opponents, played in this process (issue 43).

Target (a) of issue 43 is measured against three seats of
``botzone:src/tenpai/bench/botzone_greedy_bot.py --keep-running``: a plain-Python Botzone
submission (it imports tenpai only to count the fans of a complete hand, and finds it beside
its own file), played by the arena as a program our engine judges.  Training
against it through a program per seat would pay a process start and a pipe round trip per
request; instead this module loads the bot's file as a module of its own (not as part of
tenpai) and drives its ``Bot`` class exactly as the file's keep-running ``main`` does — one
``Bot()`` per seat and game, every request passed to ``Bot.step`` in order, the answer to the
last one returned.  The seat around it is the arena's own judge seat
(``BotzoneSeat``/``play_game`` of the ``botzone:`` external-seat module, found through the
agent registry as the arena finds it, since that module lives in the serve layer above ``rl``),
so the requests, the checks of the answers and the fallbacks are the arena's.  A test plays the
same deals both ways and finds the same games.

The bot draws no random numbers (ties go to the lower tile, its caches only memoise pure
functions), so given its requests its answers are fixed: the samples of a training deal differ
only by the learner's choices and the bots' answers to them, as the leave-one-out baseline
needs.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Protocol, cast

from tenpai.agents.registry import external_seats
from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.engine.kept_bot import KeptBotRunner

__all__ = [
    "BOT_NAME",
    "GREEDY_BOT",
    "BotFileRunner",
    "GreedyBotError",
    "load_bot",
    "play_with_bots",
]

#: The bot's file in the package (the arena's seats name it relative to the repository).
GREEDY_BOT: Final = Path(__file__).resolve().parents[1] / "bench" / "botzone_greedy_bot.py"
#: The name its seats carry in a game (the arena's line-up name of the same bot).
BOT_NAME: Final = "botzone:src/tenpai/bench/botzone_greedy_bot.py --keep-running"


class GreedyBotError(ValueError):
    """A bot file that cannot be played in this process; the message names the file."""


class _Bot(Protocol):
    def step(self, line: str) -> str: ...


@cache
def load_bot(path: Path = GREEDY_BOT) -> Callable[[], _Bot]:
    """The ``Bot`` class of the Botzone bot file ``path``, loaded once as a stand-alone module."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"_botzone_bot_{digest}", path)
    if not path.is_file() or spec is None or spec.loader is None:
        raise GreedyBotError(f"{path}: not a Python file")
    module: ModuleType = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # the bot's own code: any failure to load it is the file's
        raise GreedyBotError(f"{path}: does not load ({type(err).__name__}: {err})") from None
    bot = getattr(module, "Bot", None)
    if not callable(getattr(bot, "step", None)):
        raise GreedyBotError(f"{path}: defines no Bot class with a step(request) method")
    return cast(Callable[[], _Bot], bot)


class BotFileRunner(KeptBotRunner[_Bot]):
    """The judge's runner for a bot file in this process, kept running (it sees every request
    once, as the program does after its keep-running line)."""

    def _follow(self, bot: _Bot, request: str, response: str) -> None:
        # a fresh start steps through the earlier requests, as the program's main does with
        # its first input, and skips the responses in that history as the program does
        bot.step(request)

    def _answer(self, bot: _Bot, request: str) -> str:
        return bot.step(request)


def play_with_bots(game: GameFlow, agents: Sequence[Agent | None],
                   path: Path = GREEDY_BOT) -> list[Any]:
    """Play ``game`` with ``agents`` and the bot of ``path`` in every seat whose agent is None;
    the bot seats' protocol reports (errors by kind), as the arena stores them."""
    botzone = external_seats("botzone:")
    make = load_bot(path)
    seats = {s: botzone.BotzoneSeat(s, BOT_NAME, BotFileRunner(make))
             for s, a in enumerate(agents) if a is None}
    return list(botzone.play_game(game, agents, seats))

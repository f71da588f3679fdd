"""The greedy Botzone bot counts in view only what a player sees: an exposed kong's tiles,
never a concealed one's.

Before session 39 a kong declared after a draw (concealed: Botzone shows the others no tile)
added three copies of the last discard to the bot's ``seen`` counts, as if it had been a kong
on that discard: the discard heuristic then thought those copies gone.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

BOT = Path(__file__).resolve().parents[2] / "src" / "tenpai" / "bench" / "botzone_greedy_bot.py"
#: The bot's deal: no W1, W2 or W3, so it never claims the discards below.
HAND = "B1 B2 B3 B5 B6 B7 T1 T2 T3 T5 T6 T7 J1"


def _bot_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("greedy_bot_seen_under_test", BOT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _dealt() -> tuple[ModuleType, Any]:
    mod = _bot_module()
    bot = mod.Bot()
    bot.step("0 0 0")
    bot.step("1 0 0 0 0 " + HAND)
    return mod, bot


def test_a_concealed_kong_after_a_draw_shows_nothing() -> None:
    mod, bot = _dealt()
    w1 = mod.INDEX["W1"]
    bot.step("3 1 PLAY W1")
    bot.step("3 2 DRAW")
    bot.step("3 2 GANG")
    assert bot.seen[w1] == 1 and bot.shown[w1] == 1  # the discard only


def test_a_kong_on_a_discard_shows_all_four() -> None:
    mod, bot = _dealt()
    w2 = mod.INDEX["W2"]
    bot.step("3 1 PLAY W2")
    bot.step("3 3 GANG")
    assert bot.seen[w2] == 4 and bot.shown[w2] == 4
    bot.step("3 3 DRAW")
    bot.step("3 3 PLAY W3")
    assert bot.seen[w2] == 4 and bot.seen[mod.INDEX["W3"]] == 1

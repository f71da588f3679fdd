"""The greedy Botzone bot counts in view only what a player sees: an exposed kong's tiles,
never a concealed one's.

Before session 39 a kong declared after a draw (concealed: Botzone shows the others no tile)
added three copies of the last discard to the bot's ``seen`` counts, as if it had been a kong
on that discard: the discard heuristic then thought those copies gone.
"""

from __future__ import annotations

from typing import Any

from tenpai.rl.greedy_bots import load_bot

#: The bot's deal: no W1, W2 or W3, so it never claims the discards below.
HAND = "B1 B2 B3 B5 B6 B7 T1 T2 T3 T5 T6 T7 J1"
#: The bot's tile order starts with the characters W1..W9.
W1, W2, W3 = 0, 1, 2


def _dealt() -> Any:
    bot = load_bot()()
    bot.step("0 0 0")
    bot.step("1 0 0 0 0 " + HAND)
    return bot


def test_a_concealed_kong_after_a_draw_shows_nothing() -> None:
    bot = _dealt()
    bot.step("3 1 PLAY W1")
    bot.step("3 2 DRAW")
    bot.step("3 2 GANG")
    assert bot.seen[W1] == 1 and bot.shown[W1] == 1  # the discard only


def test_a_kong_on_a_discard_shows_all_four() -> None:
    bot = _dealt()
    bot.step("3 1 PLAY W2")
    bot.step("3 3 GANG")
    assert bot.seen[W2] == 4 and bot.shown[W2] == 4
    bot.step("3 3 DRAW")
    bot.step("3 3 PLAY W3")
    assert bot.seen[W2] == 4 and bot.seen[W3] == 1

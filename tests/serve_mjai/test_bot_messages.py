"""The bot's message handling: possible_actions, batches, seats, mjsonp answers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.serve.mjai.bot import BotError, MjaiBot

HIDDEN = ["?"] * 13
START = {
    "type": "start_kyoku",
    "bakaze": "E",
    "kyoku": 1,
    "honba": 0,
    "kyotaku": 0,
    "oya": 0,
    "dora_marker": "4m",
    "scores": [25000] * 4,
    "tehais": [
        HIDDEN,
        HIDDEN,
        HIDDEN,
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "W"],
    ],
}
OPENING = [
    {"type": "start_game", "id": 3, "names": ["a", "b", "c", "d"]},
    START,
    {"type": "tsumo", "actor": 0, "pai": "?"},
    {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
    {"type": "tsumo", "actor": 1, "pai": "?"},
    {"type": "dahai", "actor": 1, "pai": "P", "tsumogiri": True},
    {"type": "tsumo", "actor": 2, "pai": "?"},
]


def _feed(bot: MjaiBot, messages: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    return [bot.handle([m]) for m in messages]


def test_claims_follow_possible_actions_when_given() -> None:
    bot = MjaiBot(make_agent("efficiency", 0))
    assert _feed(bot, OPENING) == [None] * len(OPENING)
    # The server offers nothing on this East: no decision, whatever the hand could do.
    no_offer = {"type": "dahai", "actor": 2, "pai": "E", "tsumogiri": False, "possible_actions": []}
    assert bot.handle([no_offer]) is None
    # Without possible_actions the bot works out the pon itself.
    bot2 = MjaiBot(make_agent("efficiency", 0))
    _feed(bot2, OPENING)
    reply = bot2.handle([{"type": "dahai", "actor": 2, "pai": "E", "tsumogiri": False}])
    assert reply is not None and reply["type"] in ("pon", "none")


def test_own_turn_adds_the_implied_discards_to_possible_actions() -> None:
    bot = MjaiBot(make_agent("random", 5))
    _feed(bot, OPENING)
    bot.handle([{"type": "dahai", "actor": 2, "pai": "F", "tsumogiri": True}])
    offered = [{"type": "reach", "actor": 3}]
    reply = bot.handle([{"type": "tsumo", "actor": 3, "pai": "S", "possible_actions": offered}])
    assert reply is not None and reply["type"] in ("reach", "dahai")
    # riichi + the 12 distinct kinds of the 13 tiles before the draw + S drawn, as a tsumogiri
    assert len(bot.legal(offered)) == 1 + 12 + 1


def test_a_batch_is_answered_once_for_its_last_message() -> None:
    bot = MjaiBot(make_agent("efficiency", 0))
    batch = [*OPENING, {"type": "dahai", "actor": 2, "pai": "F", "tsumogiri": True}]
    assert bot.handle(batch) is None
    reply = bot.handle([{"type": "tsumo", "actor": 3, "pai": "S"}])
    assert reply is not None and reply["actor"] == 3


def test_mjsonp_mode_answers_every_message_and_joins() -> None:
    bot = MjaiBot(make_agent("efficiency", 0), mode="mjsonp", name="x", room="r")
    assert bot.handle([{"type": "hello"}]) == {"type": "join", "name": "x", "room": "r"}
    assert _feed(bot, OPENING) == [{"type": "none"}] * len(OPENING)
    assert bot.handle([{"type": "end_game"}]) is None and bot.ended
    with pytest.raises(BotError, match="server error"):
        bot.handle([{"type": "error", "message": "bad"}])


def test_seat_options() -> None:
    fixed = MjaiBot(make_agent("random", 0), seat=1)
    fixed.handle([OPENING[0]])
    assert fixed.tracker is not None and fixed.tracker.seat == 1
    strict = MjaiBot(make_agent("random", 0), seat_from_start_game=True)
    with pytest.raises(BotError, match="no id"):
        strict.handle([{"type": "start_game"}])
    with pytest.raises(BotError, match="either"):
        MjaiBot(make_agent("random", 0), seat=1, seat_from_start_game=True)
    # A stream that contradicts the hand is refused, not guessed at.
    bot = MjaiBot(make_agent("random", 0))
    _feed(bot, OPENING[:2])
    with pytest.raises(BotError, match="cannot follow"):
        bot.handle([json.loads('{"type":"dahai","actor":3,"pai":"C","tsumogiri":false}')])

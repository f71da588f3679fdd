"""The 16 real Botzone matches: our judge writes the same requests, and our bot follows them.

Skipped without ../shared/data.  For every match, our engine deals the match's own wall and
takes each bot's recorded answers: the requests it writes must be the real ones, request for
request, and the scores the real scores.  Then each seat's real requests are fed to our bot:
every answer must be a response of the grammar and a legal move, and after every request the
bot's rebuilt state (own hand, every meld, every discard, each wall) must equal the state
folded from the engine's own play of the match.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.agents import make_agent
from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.external import BotzoneSeat, play_game
from tenpai.serve.botzone.judge import AnswerError, interpret
from tenpai.serve.botzone.protocol import parse_response
from tenpai.serve.botzone.runners import ScriptedRunner

from .helpers import Match, engine_game, load_matches, public_views


@pytest.fixture(scope="module")
def matches(data_dir: Path) -> list[Match]:
    found = load_matches(data_dir)
    if not found:
        pytest.skip("no Botzone match exports in the data folder")
    return found


def test_all_sixteen_matches_present(matches: list[Match]) -> None:
    assert len(matches) == 16


def _judge(m: Match) -> tuple[list[BotzoneSeat], tuple[int, ...]]:
    game = engine_game(m)
    seats = {s: BotzoneSeat(s, f"real{s}", ScriptedRunner(m.responses[s])) for s in range(4)}
    reports = play_game(game, [None] * 4, seats)
    assert all(not r.errors for r in reports), [dict(r.errors) for r in reports]
    return [seats[s] for s in range(4)], game.final_scores


def test_judge_writes_the_real_requests(matches: list[Match]) -> None:
    for m in matches:
        seats, scores = _judge(m)
        for s in range(4):
            assert seats[s].requests == m.requests[s], f"{m.name} seat {s}"
        assert list(scores) == m.scores, m.name


def test_bot_follows_every_seat_of_every_match(matches: list[Match]) -> None:
    answered = 0
    for m in matches:
        game = engine_game(m)
        seats = {s: BotzoneSeat(s, f"real{s}", ScriptedRunner(m.responses[s]))
                 for s in range(4)}
        play_game(game, [None] * 4, seats)
        for s in range(4):
            views = public_views(game.events, s)
            assert len(views) == len(m.requests[s])
            bot = BotzoneBot(make_agent("efficiency", s))
            for i, req in enumerate(m.requests[s]):
                answer = bot.answer(req)
                assert bot.lost is None, f"{m.name} seat {s} request {i}: {bot.lost}"
                parse_response(answer)  # the grammar
                decision = None if bot.state.awaiting_own_draw() else bot.state.my_decision()
                if decision is None:
                    assert answer == "PASS", f"{m.name} seat {s} request {i}: {answer}"
                else:
                    try:
                        interpret(answer, decision[1], decision[0].hand)
                    except AnswerError as exc:
                        pytest.fail(f"{m.name} seat {s} request {i} {req!r}: {exc}")
                answered += 1
                bot.sent(m.responses[s][i])
                if i >= 1:
                    assert bot.state.public_view() == views[i], (
                        f"{m.name} seat {s} after request {i} {req!r}"
                    )
    assert answered == sum(len(r) for m in matches for r in m.requests)

"""Our mjai bot driven by a real game: a Tenhou Houou record converted to mjai.

The record is replayed through the engine with every decision the engine offers captured
(seat, round, how many round events had happened, the legal actions).  Each seat's masked mjai
stream then goes into the bot: it must answer exactly where the engine had a decision for that
seat, and every answer must be one of the engine's legal actions.  The same stream piped into a
``tenpai mjai-bot`` process must give the same answers line for line.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.records import read_any
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import riichi_rules_for
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.ruleset import TENHOU
from tenpai.serve.mjai.bot import MjaiBot
from tenpai.serve.mjai.wire import dumps, event_to_wire, parse_action, parse_line

from .helpers import MJLOG_DIR, tenpai_exe

Key = tuple[int, int, int]  # (round index, round events so far, seat)


def _record() -> tuple[list[Event], dict[Key, tuple[Event, ...]]]:
    files = sorted(MJLOG_DIR.glob("*.mjlog")) if MJLOG_DIR.is_dir() else []
    if not files:
        pytest.skip(f"no Tenhou records in {MJLOG_DIR} (../shared/data absent)")
    (game,) = read_any(files[0])
    rules = riichi_rules_for(game, "tenhou")
    assert rules == TENHOU, "the chosen record must be played under Tenhou's ranked rules"
    captured: dict[Key, tuple[Event, ...]] = {}
    rounds = [-1]
    original_decide = RiichiRound._decide
    original_init = RiichiRound.__init__

    def init(self: RiichiRound, *args: Any, **kwargs: Any) -> None:
        rounds[0] += 1
        original_init(self, *args, **kwargs)

    def decide(self: RiichiRound, seat: int, legal: Any) -> Any:
        captured[(rounds[0], len(self.events), seat)] = tuple(legal)
        return original_decide(self, seat, legal)

    mp = pytest.MonkeyPatch()
    mp.setattr(RiichiRound, "_decide", decide)
    mp.setattr(RiichiRound, "__init__", init)
    try:
        # the capture instruments the Python round, so the replay must run on it (the
        # default, the compiled table, offers the same decisions without calling _decide)
        result = replay_riichi(game.events(), rules=rules, final_scores=game.final_scores,
                               engine="python")
    finally:
        mp.undo()
    assert result.ok, result.divergence
    events = [e for e in result.events if e.type != "none"]
    return events, captured


def _stream(events: list[Event], seat: int) -> Iterator[tuple[str, Key]]:
    """(mjai line, key after it) for one seat; the key locates engine decisions."""
    rnd, count = -1, 0
    for e in events:
        if e.type == "start_kyoku":
            rnd, count = rnd + 1, 0
        if e.type not in ("start_game", "end_game"):
            count += 1
        wire = event_to_wire(mask_event(e, seat))
        if e.type == "start_game":
            wire["id"] = seat
        yield dumps(wire), (rnd, count, seat)


def _key(e: Event) -> tuple[object, ...]:
    return (e.type, e.pai, tuple(sorted(e.consumed)), e.tsumogiri, e.target)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_bot_answers_exactly_at_engine_decisions_and_legally(seat: int) -> None:
    events, captured = _record()
    bot = MjaiBot(make_agent("efficiency", 7), seat_from_start_game=True)
    asked = answered = 0
    for line, key in _stream(events, seat):
        reply = bot.handle(parse_line(line))
        legal = captured.get(key)
        if legal is None:
            assert reply is None, (key, reply)
            continue
        asked += 1
        assert reply is not None, (key, "the engine had a decision here")
        action = parse_action(dumps(reply))
        if action.type == "none":
            assert any(e.type == "none" for e in legal)
        else:
            assert _key(action) in {_key(e) for e in legal}, (key, reply)
        answered += 1
    assert asked == answered and asked > 100


def test_bot_process_over_a_pipe_gives_the_same_answers() -> None:
    events, _ = _record()
    seat = 2
    lines = [line for line, _ in _stream(events, seat)]
    bot = MjaiBot(make_agent("efficiency", 7), seat_from_start_game=True)
    expected = [dumps(r) for line in lines if (r := bot.handle(parse_line(line))) is not None]
    argv = [tenpai_exe(), "mjai-bot", "--agent", "efficiency", "--seed", "7"]
    proc = subprocess.run(
        [*argv, "--seat-from-start-game"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == expected
    assert len(expected) > 100


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"type":"start_game","id":0}\n{"type":"tsumo"\n', "input line 2: not JSON"),
        ("\n", "input line 1: empty line"),
        ('{"type":"tsumo","actor":0,"pai":"1m"}\n', "tsumo before start_game"),
        ('{"type":"start_game"}\n', "start_game carries no id"),
    ],
)
def test_malformed_input_exits_non_zero_with_one_clear_line(text: str, needle: str) -> None:
    proc = subprocess.run(
        [tenpai_exe(), "mjai-bot", "--agent", "random", "--seat-from-start-game"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stdout == ""

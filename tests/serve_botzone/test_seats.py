"""Botzone bots as MCR seats, our engine their judge: our own bot as a program gives the same
games as in-process agents; broken bots are charged by kind, the game goes on, and no process
is left behind."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.engine.flow import GameFlow
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.external import BotzoneSeat, play_game
from tenpai.serve.botzone.runners import InProcessRunner, ProgramRunner
from tenpai.serve.mjai.process import live_processes

from .helpers import REPO_SRC


def _game(seed: int) -> GameFlow:
    return make_game("mcr", seed, list("abcd"), {"preset": "botzone"})


def _norm(events: list[Event]) -> list[dict[str, object]]:
    """Events without the tsumogiri flag, which Botzone's words cannot carry (``PLAY t`` of a
    tile held twice, one just drawn)."""
    return [{k: v for k, v in e.to_mjai().items() if k != "tsumogiri"} for e in events]


def _in_process(seed: int, agent: str = "efficiency") -> GameFlow:
    g = _game(seed)
    play(g, [make_agent(agent, s) for s in range(4)])
    return g


def _tenpai(*args: str) -> list[str]:
    return [sys.executable, "-m", "tenpai", *args]


@pytest.fixture(autouse=True)
def _src_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO_SRC))


@pytest.mark.parametrize(("agent", "seed"), [("efficiency", 0), ("efficiency", 3),
                                             ("expert", 1), ("random", 2)])
def test_our_bot_in_process_plays_the_same_games(agent: str, seed: int) -> None:
    g = _game(seed)

    def maker(s: int) -> Callable[[], BotzoneBot]:
        return lambda: BotzoneBot(make_agent(agent, s))

    seats = {s: BotzoneSeat(s, "b", InProcessRunner(maker(s)))
             for s in range(4)}
    reports = play_game(g, [None] * 4, seats)
    assert all(not r.errors for r in reports)
    assert _norm(g.events) == _norm(_in_process(seed, agent).events)


def test_four_bot_programs_keep_running_play_the_same_game() -> None:
    seed = 5
    g = _game(seed)
    seats = {}
    for s in range(4):
        form: Literal["simple", "json"] = "json" if s == 3 else "simple"
        argv = _tenpai("botzone-bot", "--agent", "efficiency", "--seed", str(s),
                       "--keep-running", "--interaction", form)
        seats[s] = BotzoneSeat(s, f"bot{s}", ProgramRunner(argv, interaction=form,
                                                            timeout=60.0))
    reports = play_game(g, [None] * 4, seats)
    assert all(not r.errors for r in reports), [dict(r.errors) for r in reports]
    # kept running: one start each
    assert [getattr(seats[s].runner, "starts", None) for s in range(4)] == [1, 1, 1, 1]
    assert _norm(g.events) == _norm(_in_process(seed).events)
    assert not live_processes()


@pytest.mark.slow
def test_a_per_turn_bot_program_plays_the_same_game() -> None:
    seed = 2
    g = _game(seed)
    argv = _tenpai("botzone-bot", "--agent", "efficiency", "--seed", "0")
    seat = BotzoneSeat(0, "bot0", ProgramRunner(argv, timeout=60.0))
    agents = [None, *(make_agent("efficiency", s) for s in (1, 2, 3))]
    (report,) = play_game(g, agents, {0: seat})
    assert not report.errors and report.runs == report.decisions - _calls(g, 0)
    assert getattr(seat.runner, "starts", None) == report.runs
    assert _norm(g.events) == _norm(_in_process(seed).events)


def _calls(g: GameFlow, seat: int) -> int:
    """Decisions answered from a queued discard (after one's own pong or chow)."""
    return sum(1 for e in g.events if e.type in ("pon", "chi") and e.actor == seat)


BROKEN = r'''
import os, sys, time
MODE = sys.argv[1]
n = int(sys.stdin.readline())
lines = [str(n)] + [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
last = lines[2 * n - 1]
w = last.split()
draws = sum(1 for x in lines[1::2] if x.startswith("2 "))
if w[0] != "2":
    print("PASS"); sys.exit(0)
if MODE == "malformed" and draws == 2:
    print("PLAY"); sys.exit(0)
if MODE == "illegal" and draws == 2:
    print("HU"); sys.exit(0)
if MODE == "unknown" and draws == 2:
    print("PLAY Q1"); sys.exit(0)
if MODE == "late" and draws == 2:
    time.sleep(30)
if MODE == "oversized" and draws == 2:
    sys.stdout.write("PLAY " + "W1" * 5_000_000 + "\n"); sys.exit(0)
if MODE == "dies" and draws >= 3:
    os._exit(3)
print("PLAY " + w[1])
'''


@pytest.mark.parametrize(("mode", "kind"), [
    ("malformed", "malformed"), ("unknown", "malformed"), ("illegal", "illegal"),
    ("late", "late"), ("oversized", "oversized"), ("dies", "died"),
])
def test_broken_bots_are_charged_and_the_game_goes_on(tmp_path: Path, mode: str,
                                                      kind: str) -> None:
    script = tmp_path / "broken.py"
    script.write_text(BROKEN, encoding="utf-8")
    seat = BotzoneSeat(0, mode, ProgramRunner([sys.executable, str(script), mode],
                                              timeout=3.0))
    g = _game(4)
    agents = [None, *(make_agent("efficiency", s) for s in (1, 2, 3))]
    (report,) = play_game(g, agents, {0: seat})
    assert g.done
    expected = report.decisions - _calls(g, 0) if mode == "dies" else 1
    if mode == "dies":  # every draw from the third on; a pass-only start may answer first
        assert report.errors[kind] >= 1
        assert set(report.errors) == {"died"}
    else:
        assert dict(report.errors) == {kind: expected}, report.examples
    assert not live_processes()


def test_a_kept_running_bot_that_dies_is_restarted_from_the_history(tmp_path: Path) -> None:
    """A keep-running program that dies mid-game: charged once, then started afresh with the
    whole history, and the game ends normally."""
    script = tmp_path / "flaky.py"
    marker = tmp_path / "died-once"
    script.write_text(f'''
import os, sys
sys.path.insert(0, {str(REPO_SRC)!r})
from tenpai.agents import make_agent
from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.io import run_bot

class Dying:
    def __init__(self):
        self.n = 0
    def readline(self):
        self.n += 1
        line = sys.stdin.readline()
        if self.n == 40 and not os.path.exists({str(marker)!r}):
            # die holding a request: dying between turns would be a plain restart, not a loss
            open({str(marker)!r}, "w").close()
            os._exit(9)
        return line

sys.exit(run_bot(lambda: BotzoneBot(make_agent("efficiency", 0)), Dying(), sys.stdout,
                 sys.stderr, keep_running=True))
''', encoding="utf-8")
    seat = BotzoneSeat(0, "flaky", ProgramRunner([sys.executable, str(script)], timeout=60.0))
    g = _game(2)
    agents = [None, *(make_agent("efficiency", s) for s in (1, 2, 3))]
    (report,) = play_game(g, agents, {0: seat})
    assert marker.exists() and g.done
    assert dict(report.errors) == {"died": 1}
    assert not live_processes()
    assert os.environ.get("PYTHONPATH") == str(REPO_SRC)

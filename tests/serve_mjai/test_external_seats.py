"""External mjai bots as arena seats: real peers, our own bot as a process, broken bots.

Every game here is a whole tonpuu game on the engine; the external seats are real processes.
After each game the test checks that every process the seat started is gone and that no zombie
is left behind.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path

import pytest

from tenpai.agents import make_agent
from tenpai.arena.games import ArenaConfigError
from tenpai.arena.record import play_scheduled
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import GameKey
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.serve.mjai import external
from tenpai.serve.mjai.external import SeatReport, play_game
from tenpai.serve.mjai.process import BotProcess, live_processes

from .helpers import (
    MANUE,
    TSUMOGIRI,
    descendants_alive,
    my_zombies,
    need_peers,
    tenpai_exe,
    write_wrapper,
)


def _spawned(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the pid of every bot process started from now on."""
    pids: list[int] = []
    original = BotProcess.__init__

    def init(self: BotProcess, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        pids.append(self.pid)

    monkeypatch.setattr(BotProcess, "__init__", init)
    return pids


def _play(
    names: list[str], seed: int, timeout: float = 60.0, *, all_last: bool = False
) -> tuple[RiichiGame, list[SeatReport]]:
    """A whole tonpuu game, or with ``all_last`` one that starts at East 4 (mjai-manue needs
    seconds per discard, so a whole game of it would not fit the test budget)."""
    if all_last:
        # Seat 0 above the 30,000 target, so the game ends with this hand (no extension)
        # unless the dealer, seat 3, keeps the deal.
        game = RiichiGame(
            seed=seed, names=names, start=(0, 3, 0, 0), scores=(31_000, 23_000, 23_000, 23_000)
        )
    else:
        game = RiichiGame(seed=seed, names=names)
    agents: list[Agent | None] = [
        None if n.startswith("mjai:") else make_agent(n, seed + s) for s, n in enumerate(names)
    ]
    reports = play_game(game, names, agents, timeout=timeout)
    assert game.done and len(game.final_scores) == 4
    assert sum(game.final_scores) + 1000 * game.kyotaku == 100_000
    return game, reports


def _no_leftovers(pids: list[int]) -> None:
    assert pids, "no bot process was started"
    assert descendants_alive(pids) == []
    assert my_zombies() == []
    assert live_processes() == []


def test_mjai_manue_and_tsumogiri_play_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    need_peers()
    pids = _spawned(monkeypatch)
    names = [f"mjai:{MANUE}", "efficiency", f"mjai:{TSUMOGIRI}", "defensive"]
    game, reports = _play(names, seed=3, all_last=True)
    by_seat = {r.seat: r for r in reports}
    assert by_seat[0].decisions > 5 and by_seat[2].decisions > 5
    assert dict(by_seat[0].errors) == {} and dict(by_seat[2].errors) == {}
    # The tsumogiri bot discards exactly what it drew, every time.
    draws = [e.pai for e in game.events if e.type == "tsumo" and e.actor == 2]
    discards = [e for e in game.events if e.type == "dahai" and e.actor == 2]
    assert all(d.tsumogiri for d in discards) and len(discards) <= len(draws)
    _no_leftovers(pids)


def test_our_bot_process_as_a_seat_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pids = _spawned(monkeypatch)
    cmd = shlex.join([tenpai_exe(), "mjai-bot", "--agent", "efficiency", "--seat-from-start-game"])
    wrapper = write_wrapper(tmp_path, "tenpai-efficiency", f"exec {cmd}")
    names = [f"mjai:{wrapper}", "efficiency", "random", "defensive"]
    _game, (report,) = _play(names, seed=11, timeout=60.0)
    assert report.decisions > 20
    assert dict(report.errors) == {}
    _no_leftovers(pids)


def test_broken_bots_are_charged_and_the_game_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need_peers()
    pids = _spawned(monkeypatch)
    garbage = write_wrapper(tmp_path, "garbage", f"'{TSUMOGIRI}' | sed -u 's/.*/not json {{/'")
    silent = write_wrapper(tmp_path, "silent", "while read -r line; do :; done")
    quitter = write_wrapper(tmp_path, "quitter", f"sed -u 40q | '{TSUMOGIRI}'")
    names = [f"mjai:{garbage}", f"mjai:{silent}", f"mjai:{quitter}", "efficiency"]
    game, reports = _play(names, seed=5, timeout=5.0)
    by_seat = {r.seat: r for r in reports}
    assert by_seat[0].errors["garbage"] == by_seat[0].decisions > 10
    assert by_seat[1].errors["timeout"] == 1
    assert by_seat[1].errors["dropped"] == by_seat[1].decisions - 1 > 10
    assert by_seat[2].errors["exited"] == 1
    assert by_seat[2].errors["dropped"] > 5
    # Each failed decision fell back to the safe default: seat 0 only ever discarded its draw.
    assert all(e.tsumogiri for e in game.events if e.type == "dahai" and e.actor == 0)
    _no_leftovers(pids)


def test_illegal_and_unsolicited_answers_are_charged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pids = _spawned(monkeypatch)
    # Answers every line with a discard of a tile nobody can hold five of: always illegal, and
    # unsolicited whenever no decision was asked.
    liar = write_wrapper(
        tmp_path,
        "liar",
        'while read -r line; do echo \'{"type":"dahai","actor":0,"pai":"C"}\'; done',
    )
    names = [f"mjai:{liar}", "efficiency", "efficiency", "efficiency"]
    _, (report,) = _play(names, seed=2)
    errors = dict(report.errors)
    # Which of the liar's lines answer a decision and which arrive unasked depends on how fast
    # the liar writes them (under load a late line is read as the next answer), so the whole
    # game only pins what holds at any speed; the unasked line is pinned by the test below.
    assert errors.get("illegal", 0) > 0
    assert set(errors) <= {"illegal", "unsolicited"}
    _no_leftovers(pids)


def test_a_line_nobody_asked_for_is_charged_unsolicited(tmp_path: Path) -> None:
    echo = write_wrapper(
        tmp_path,
        "echo",
        'while read -r line; do echo \'{"type":"dahai","actor":0,"pai":"C"}\'; done',
    )
    seat = external.ExternalSeat(0, f"mjai:{echo}", timeout=30.0)
    try:
        seat.feed([Event("start_game", names=("a", "b", "c", "d"))])
        proc = seat.proc
        assert proc is not None
        # Wait until the bot's reply to a line that asked nothing is there, so that the next
        # feed finds it pending whatever the machine's load (no race with the bot's speed).
        deadline = time.monotonic() + 30.0
        while proc._lines.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        seat.feed([Event("end_game")])
        assert dict(seat.report.errors) == {"unsolicited": 1}
    finally:
        seat.close()


def test_a_crash_in_the_game_loop_still_ends_every_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    need_peers()
    pids = _spawned(monkeypatch)

    class Crash:
        name = "crash"

        def act(self, observation: object, legal: object) -> Event:
            raise RuntimeError("agent bug")

        def act_batch(self, requests: object) -> list[Event]:
            raise RuntimeError("agent bug")

    names = [f"mjai:{TSUMOGIRI}", "crash", f"mjai:{TSUMOGIRI}", f"mjai:{TSUMOGIRI}"]
    game = RiichiGame(seed=1, names=names)
    with pytest.raises(RuntimeError, match="agent bug"):
        play_game(game, names, [None, Crash(), None, None], timeout=20.0)
    assert len(pids) == 3
    _no_leftovers(pids)


def test_arena_rejects_missing_or_non_executable_programs(tmp_path: Path) -> None:
    with pytest.raises(ArenaConfigError, match="does not exist"):
        make_config("riichi", [f"mjai:{tmp_path}/nope", "sl", "sl", "sl"], 4, 0)
    plain = tmp_path / "plain.txt"
    plain.write_text("not a program")
    with pytest.raises(ArenaConfigError, match="not an executable file"):
        make_config("riichi", [f"mjai:{plain}", "random", "random", "random"], 4, 0)
    with pytest.raises(ArenaConfigError, match="Riichi only"):
        make_config("mcr", [f"mjai:{plain}", "random", "random", "random"], 4, 0)


def test_arena_config_resolves_the_path_and_plays_through_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need_peers()
    pids = _spawned(monkeypatch)
    monkeypatch.chdir(MANUE.parent)
    config, _ = make_config("riichi", ["mjai:./mjai-tsumogiri", "random", "random", "random"], 4, 9)
    assert config.agents[0] == f"mjai:{Path(TSUMOGIRI).resolve()}"
    record = play_scheduled("riichi", config.options, config.agents, 9, GameKey(0, 1))
    (proto,) = record.protocol
    assert proto.seat == 1 and proto.decisions > 10
    # Seed 9 has an added kan by seat 0, after whose replacement draw mjai-tsumogiri writes a
    # pass nobody asked for: counted apart, and the game unharmed.
    assert [(k, n) for k, n, _ in proto.errors] == [("stray_none", 1)]
    assert external.is_external(record.seats[1].agent)
    _no_leftovers(pids)

"""Clients that leave, come back, misbehave or dawdle: the table plays on, the game ends, the
mjlog replays, and each client's fault is counted under its kind."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.serve.tenhou.client import TenhouClient
from tenpai.serve.tenhou.server import ServerConfig
from tenpai.serve.tenhou.wire import format_tag

from .helpers import RawClient, play_until, protocol, run_table, saved, table_config

FILL = ("efficiency", "defensive", "efficiency")


def _config(tmp: Path, **table: Any) -> ServerConfig:
    return ServerConfig(games=1, seed=21, fill=FILL, save=tmp, table=table_config(**table))


def _replays(tmp: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tenpai", "replay", *map(str, saved(tmp))],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _finished(run: Any, name: str) -> dict[str, Any]:
    assert run.failures == []
    (result,) = run.results
    assert sum(result["final_scores"]) == 100_000
    return protocol(result, name)


def test_a_client_that_disconnects_mid_hand_is_played_for(tmp_path: Path) -> None:
    def leave(port: int) -> bool:
        raw = RawClient(port, "leaver")
        raw.login()
        drawn = play_until(raw, own_discards=3)
        raw.close()  # with its fourth draw unanswered
        return drawn is not None

    run = run_table(_config(tmp_path), {"leaver": leave})
    assert run.outcomes["leaver"] is True
    rec = _finished(run, "leaver")
    assert rec["errors"]["disconnected"] == 1
    assert rec["errors"]["defaulted"] > 5  # tsumogiri and passes for the rest of the game
    _replays(tmp_path)


def test_a_client_may_come_back_and_play_on_after_reinit(tmp_path: Path) -> None:
    def leave_and_return(port: int) -> Any:
        raw = RawClient(port, "phoenix")
        raw.login()
        assert play_until(raw, own_discards=2) is not None
        raw.close()
        client = TenhouClient(make_agent("efficiency", 5), "127.0.0.1", port, name="phoenix",
                              timeout=60.0)
        return client.play_game()

    def watch(port: int) -> list[str]:
        raw = RawClient(port, "watcher")
        raw.login()
        assert play_until(raw, own_discards=10**6) is None  # to the end of the game
        return [t.name for t in raw.seen if t.name in ("BYE", "UN") and "dan" not in t.attrs]

    config = ServerConfig(games=1, seed=21, fill=FILL[:2], save=tmp_path, table=table_config())
    run = run_table(config, {"phoenix": leave_and_return, "watcher": watch})
    outcome = run.outcomes["phoenix"]
    assert not isinstance(outcome, Exception), outcome
    # The others hear that the player left and came back, as on Tenhou.
    assert run.outcomes["watcher"] == ["BYE", "UN"]
    rec = _finished(run, "phoenix")
    assert rec["reconnects"] == 1
    assert rec["errors"].get("disconnected") == 1
    # Back at the table it decided for itself, with no further fault.
    assert set(rec["errors"]) <= {"disconnected", "defaulted"}
    assert outcome.decisions > 5
    _replays(tmp_path)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b'<D p="12"\x00', "not a Tenhou tag"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"<" + b"A" * 5000, "without a NUL"),
        (b'<D p="1&#x41;"/>\x00', "not a Tenhou tag"),
    ],
)
def test_malformed_messages_drop_the_client_not_the_table(
    tmp_path: Path, data: bytes, why: str
) -> None:
    def garble(port: int) -> bool:
        raw = RawClient(port, "garbler")
        raw.login()
        assert play_until(raw, own_discards=1) is not None
        raw.send_raw(data)
        return raw.closed_by_server()

    run = run_table(_config(tmp_path), {"garbler": garble})
    assert run.outcomes["garbler"] is True
    rec = _finished(run, "garbler")
    assert rec["errors"]["garbage"] == 1 and why in rec["examples"]["garbage"]
    _replays(tmp_path)


def test_an_illegal_discard_drops_the_client(tmp_path: Path) -> None:
    def cheat(port: int) -> bool:
        raw = RawClient(port, "cheat")
        raw.login()
        drawn = play_until(raw, own_discards=0)
        assert drawn is not None
        init = next(t for t in reversed(raw.seen) if t.name == "INIT")
        mine = set(init.int_list("hai")) | {drawn}
        foreign = next(i for i in range(136) if i not in mine)
        raw.send(format_tag("D", {"p": foreign}))
        return raw.closed_by_server()

    run = run_table(_config(tmp_path), {"cheat": cheat})
    assert run.outcomes["cheat"] is True
    rec = _finished(run, "cheat")
    assert rec["errors"]["illegal"] == 1 and "does not hold" in rec["examples"]["illegal"]


def test_out_of_turn_messages_drop_the_client(tmp_path: Path) -> None:
    def jump(port: int) -> bool:
        raw = RawClient(port, "jumper")
        raw.login()
        raw.until(lambda t: t.name == "GO")
        raw.send('<D p="0"/>')  # a discard while the table waits for NEXTREADY
        return raw.closed_by_server()

    run = run_table(_config(tmp_path), {"jumper": jump})
    assert run.outcomes["jumper"] is True
    rec = _finished(run, "jumper")
    assert rec["errors"]["out_of_turn"] == 1 and "between hands" in rec["examples"]["out_of_turn"]


def test_a_call_after_ones_own_discard_is_out_of_turn(tmp_path: Path) -> None:
    def extra(port: int) -> bool:
        raw = RawClient(port, "eager")
        raw.login()
        drawn = play_until(raw, own_discards=0)
        assert drawn is not None
        # The discard answers the draw; the pon in the same write answers nothing.
        raw.send(format_tag("D", {"p": drawn}), '<N type="1" hai0="1" hai1="2"/>')
        return raw.closed_by_server()

    run = run_table(_config(tmp_path), {"eager": extra})
    assert run.outcomes["eager"] is True
    rec = _finished(run, "eager")
    assert rec["errors"]["out_of_turn"] == 1 and "nobody asked" in rec["examples"]["out_of_turn"]


def test_a_slow_client_times_out_and_its_seat_plays_on(tmp_path: Path) -> None:
    def dawdle(port: int) -> bool:
        raw = RawClient(port, "sloth")
        raw.login()
        assert play_until(raw, own_discards=1) is not None
        return raw.closed_by_server(wait=20.0)  # never answers this draw

    started = time.monotonic()
    run = run_table(_config(tmp_path, timeout=0.5), {"sloth": dawdle})
    assert run.outcomes["sloth"] is True
    rec = _finished(run, "sloth")
    assert rec["errors"]["timeout"] == 1 and rec["errors"]["defaulted"] > 5
    assert time.monotonic() - started < 60
    _replays(tmp_path)


def test_garbage_in_the_lobby_is_refused_and_the_server_serves_the_next_client(
    tmp_path: Path,
) -> None:
    def junk_then_play(port: int) -> Any:
        for data in (b'<JOIN t="0,1"/>\x00', b"GET / HTTP/1.1\r\n\r\n\x00", b"\x00\x00<Z/>"):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            s.settimeout(10)
            assert s.recv(100) in (b"",)  # refused: closed without an answer
            s.close()
        client = TenhouClient(make_agent("efficiency", 1), "127.0.0.1", port, name="ok",
                              timeout=60.0)
        return client.play_game()

    run = run_table(_config(tmp_path), {"ok": junk_then_play})
    outcome = run.outcomes["ok"]
    assert not isinstance(outcome, Exception), outcome
    rec = _finished(run, "ok")
    assert rec["errors"] == {}


def test_a_client_that_leaves_the_queue_is_not_seated(tmp_path: Path) -> None:
    config = ServerConfig(games=1, seed=2, fill=("efficiency", "efficiency"), save=tmp_path,
                          table=table_config())

    def leave_queue(port: int) -> bool:
        raw = RawClient(port, "quitter")
        raw.login()
        raw.close()
        return True

    def late(name: str) -> Any:
        def play(port: int) -> Any:
            time.sleep(1.0)  # after the quitter has gone
            return TenhouClient(make_agent("efficiency", 3), "127.0.0.1", port, name=name,
                                timeout=60.0).play_game()

        return play

    run = run_table(config, {"quitter": leave_queue, "b": late("b"), "c": late("c")})
    assert run.failures == []
    (result,) = run.results
    assert sorted(n for n, k in zip(result["names"], result["kinds"], strict=True)
                  if k == "client") == ["b", "c"]


def test_a_second_answer_to_a_claim_offer_is_counted_not_punished(tmp_path: Path) -> None:
    """tenhou-python-bot answers a ron-and-call offer twice; the first answer counts."""

    def twice(port: int) -> bool:
        raw = RawClient(port, "twice")
        raw.login()
        double = ("<N/>", '<N type="1" hai0="0" hai1="1"/>')
        return play_until(raw, own_discards=10**6, claim_reply=double) is None

    run = run_table(_config(tmp_path), {"twice": twice})
    assert run.outcomes["twice"] is True  # played to the end, never dropped
    rec = _finished(run, "twice")
    assert rec["errors"].get("second_answer", 0) >= 1
    assert set(rec["errors"]) <= {"second_answer", "stray_pass"}, rec

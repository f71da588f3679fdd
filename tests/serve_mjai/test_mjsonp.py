"""``tenpai mjai-bot --connect mjsonp://…``: our bot as a TCP client of an mjsonp server.

The server here is a small referee written for the test: it says hello, reads the join, then
plays a whole engine game with the client at seat 0 and built-in agents elsewhere, sending each
event (as seat 0 sees it) and reading exactly one answer per message, as mjsonp requires.  Every
answer to a decision must be one of the engine's legal actions and every other answer a pass.
"""

from __future__ import annotations

import json
import socket
import subprocess
import threading
from typing import Any

from tenpai.agents import make_agent
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.serve.mjai.external import _match
from tenpai.serve.mjai.wire import dumps, event_to_wire, parse_action

from .helpers import tenpai_exe


class _Referee(threading.Thread):
    """Serves one game to one client; ``problems`` lists every protocol fault it saw."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.problems: list[str] = []
        self.joined: dict[str, Any] = {}
        self.decisions = 0
        self.game = RiichiGame(seed=21, names=("client", "b", "c", "d"))

    def run(self) -> None:
        self.sock.settimeout(60)
        conn, _ = self.sock.accept()
        conn.settimeout(60)
        with conn, conn.makefile("r", encoding="utf-8") as rd:

            def ask(obj: dict[str, Any]) -> str:
                conn.sendall((dumps(obj) + "\n").encode())
                return rd.readline()

            hello = {"type": "hello", "protocol": "mjsonp", "protocol_version": 3}
            self.joined = json.loads(ask(hello))
            agents = [None, *(make_agent("efficiency", s) for s in (1, 2, 3))]
            game, fed = self.game, 0
            while True:
                replies = []
                for e in game.events[fed:]:
                    wire = event_to_wire(mask_event(e, 0))
                    if e.type == "start_game":
                        wire["id"] = 0
                    if e.type == "end_game":
                        conn.sendall((dumps(wire) + "\n").encode())
                        return
                    replies.append((e, ask(wire)))
                fed = len(game.events)
                pending = {d.seat: d for d in game.pending()}
                for _, line in replies[:-1]:
                    self._expect_none(line)
                answers: dict[int, Event] = {}
                for seat, d in pending.items():
                    if seat == 0:
                        self.decisions += 1
                        chosen = _match(parse_action(replies[-1][1]), d.legal, 0)
                        if chosen is None:
                            self.problems.append(f"illegal {replies[-1][1].strip()}")
                            chosen = d.legal[-1]
                        answers[0] = chosen
                    else:
                        agent = agents[seat]
                        assert agent is not None
                        answers[seat] = agent.act(d.observation, d.legal)
                if 0 not in pending and replies:
                    self._expect_none(replies[-1][1])
                game.step(answers)

    def _expect_none(self, line: str) -> None:
        if parse_action(line).type != "none":
            self.problems.append(f"answer where no decision was due: {line.strip()}")


def test_mjsonp_client_plays_a_whole_game() -> None:
    ref = _Referee()
    ref.start()
    proc = subprocess.run(
        [
            tenpai_exe(),
            "mjai-bot",
            "--agent",
            "efficiency",
            "--name",
            "tenpai-test",
            "--connect",
            f"mjsonp://127.0.0.1:{ref.port}/room7",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    ref.join(timeout=30)
    ref.sock.close()
    assert proc.returncode == 0, proc.stderr
    assert ref.joined == {"type": "join", "name": "tenpai-test", "room": "room7"}
    assert ref.game.done
    assert ref.problems == []
    assert ref.decisions > 30


def test_mjsonp_url_is_checked() -> None:
    proc = subprocess.run(
        [tenpai_exe(), "mjai-bot", "--agent", "random", "--connect", "http://x:1/r"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "mjsonp://" in proc.stderr

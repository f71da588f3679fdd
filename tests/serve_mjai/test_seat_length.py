"""An arena seat that runs our own mjai bot under another game length than the arena's is
warned about at the start of the run: mjai never tells the bot the length, so
``mjai:tenpai mjai-bot --agent search`` in a tonpuu arena (the default) would value East 4 as if
South followed.  Only our bot's command line is read (other programs' flags mean nothing here),
and a matching length says nothing.
"""

from __future__ import annotations

import json
import shlex
import sys

import pytest
from typer.testing import CliRunner

from tenpai.arena.runner import make_config, seat_warnings
from tenpai.cli.main import app
from tenpai.serve.mjai.seat_length import length_warning, own_bot_length

from .helpers import REPO, tenpai_exe


@pytest.mark.parametrize(("command", "length"), [
    ("tenpai mjai-bot --agent search", "hanchan"),
    ("/venv/bin/tenpai mjai-bot --agent search --length tonpuu", "tonpuu"),
    ("tenpai mjai-bot --length=tonpuu --agent search", "tonpuu"),
    ("'/venv/bin/tenpai' 'mjai-bot' '--length' 'tonpuu'", "tonpuu"),
    ("tenpai mjai-bot --length tonpuu --length hanchan", "hanchan"),  # the last one, as the CLI
    ("tenpai mjai-bot --preset tenhou_sanma --seat 2", "hanchan"),
    ("/usr/bin/python3.11 -m tenpai mjai-bot --length tonpuu", "tonpuu"),
    ("python -u -X utf8 -m tenpai mjai-bot --agent sl", "hanchan"),
    ("python -mtenpai mjai-bot --length=tonpuu", "tonpuu"),
    ("/usr/bin/env PYTHONPATH=/x/src python3 -m tenpai mjai-bot --length tonpuu", "tonpuu"),
])
def test_our_bots_length_is_read_from_its_command_line(command: str, length: str) -> None:
    assert own_bot_length("mjai:" + command) == length


@pytest.mark.parametrize("command", [
    "/peers/mjai-manue/mjai-manue",
    "/peers/mjai-manue/mjai-manue --length tonpuu",
    "/tmp/tenpai-sanma",  # a wrapper script: its command line is not ours to read
    "tenpai tenhou-client --length tonpuu",
    "tenpai mjai-bots --length tonpuu",
    "python bot.py -m tenpai mjai-bot",
    "python -m other mjai-bot",
    "python -c 'import tenpai' -m tenpai mjai-bot",
    "tenpai mjai-bot --length east",  # the bot refuses it when it starts
    "tenpai mjai-bot --preset nope",
    "tenpai 'mjai-bot",  # cannot be split
    "",
])
def test_another_program_or_a_refused_command_has_no_length(command: str) -> None:
    assert own_bot_length("mjai:" + command) is None


def test_the_warning_names_the_seat_both_lengths_and_the_fix() -> None:
    seat = "mjai:/venv/bin/tenpai mjai-bot --agent search"
    line = length_warning(seat, "tonpuu")
    assert line is not None and "\n" not in line
    assert repr(seat) in line and "assuming a hanchan" in line and "plays tonpuu" in line
    assert line.endswith("add --length tonpuu to its command")
    told = length_warning("mjai:tenpai mjai-bot --length tonpuu", "hanchan")
    assert told is not None and told.endswith("change it to --length hanchan")
    assert length_warning(seat + " --length tonpuu", "tonpuu") is None
    assert length_warning(seat, "hanchan") is None
    assert length_warning("mjai:/peers/mjai-manue/mjai-manue", "tonpuu") is None


def _seat(*args: str) -> str:
    return "mjai:" + shlex.join(args)


def test_the_run_warns_once_per_mismatched_seat_of_our_bot() -> None:
    """Through the arena's own configuration (the programs resolved): a repeated seat is one
    warning, a seat that says the arena's length none."""
    plain = _seat(tenpai_exe(), "mjai-bot", "--agent", "efficiency")
    told = _seat(sys.executable, "-m", "tenpai", "mjai-bot", "--agent", "efficiency",
                 "--length=tonpuu")
    config, _ = make_config("riichi", [plain, plain, told, "random"], 4, 0)
    (line,) = seat_warnings(config)
    assert repr(config.agents[0]) in line and "assuming a hanchan" in line
    config, _ = make_config("riichi", [plain, plain, told, "random"], 4, 0, {"length": "hanchan"})
    (line,) = seat_warnings(config)
    assert repr(config.agents[2]) in line and "assuming a tonpuu" in line
    config, _ = make_config("riichi", ["random", told, "random", "random"], 4, 0)
    assert seat_warnings(config) == []


def test_tenpai_arena_prints_the_warning_on_stderr_and_plays_on() -> None:
    """A real run (4 games, two bot processes a game): one warning line, for the seat without
    ``--length``, before the games; the games are played all the same."""
    bot = ["/usr/bin/env", f"PYTHONPATH={REPO / 'src'}", sys.executable, "-m", "tenpai",
           "mjai-bot", "--agent", "efficiency", "--seat-from-start-game"]
    plain, told = _seat(*bot), _seat(*bot, "--length", "tonpuu")
    r = CliRunner().invoke(app, ["arena", "--agents", f"{plain},{told},random,random",
                                 "--games", "1", "--seed", "3", "--workers", "1",
                                 "--no-progress", "--json"])
    assert r.exit_code == 0, r.stderr
    warnings = [x for x in r.stderr.splitlines() if x.startswith("warning:")]
    assert len(warnings) == 1, r.stderr
    assert "mjai-bot --agent efficiency --seat-from-start-game'" in warnings[0]
    assert "assuming a hanchan" in warnings[0] and "add --length tonpuu" in warnings[0]
    assert r.stderr.index("warning:") < r.stderr.index("played 4 games now")
    assert json.loads(r.stdout)["games"] == 4

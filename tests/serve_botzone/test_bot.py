"""Our bot on Botzone's stdio: both input forms, both run modes, and bad input answered
safely with one line on stderr (never a traceback on stdout)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.engine.runner import play
from tenpai.serve.botzone.bot import BotzoneBot
from tenpai.serve.botzone.io import run_bot
from tenpai.serve.botzone.judge import requests_for
from tenpai.serve.botzone.protocol import KEEP_RUNNING, parse_response

from .helpers import REPO_SRC


def _make() -> BotzoneBot:
    return BotzoneBot(make_agent("efficiency", 0))


def _run(text: str, *, interaction: str = "simple", keep: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_bot(_make, io.StringIO(text), out, err,
                   interaction="json" if interaction == "json" else "simple", keep_running=keep)
    return code, out.getvalue(), err.getvalue()


def _game_requests(seed: int = 2, seat: int = 0) -> list[str]:
    g = make_game("mcr", seed, list("abcd"), {"preset": "botzone"})
    play(g, [make_agent("efficiency", s) for s in range(4)])
    return requests_for(g.events, seat)


DEAL = "1 0 0 0 0 W1 W2 W3 W5 W6 B2 B3 B4 T7 T8 T9 F1 F1"


def test_per_turn_simple_answers_the_last_request() -> None:
    text = "\n".join(["3", "0 0 1", "PASS", DEAL, "PASS", "2 J2", ""])
    code, out, err = _run(text)
    assert code == 0 and err == ""
    assert out == "PLAY J2\n"  # the lone dragon goes


def test_per_turn_json() -> None:
    line = json.dumps({"requests": ["0 0 1", DEAL, "2 J2"], "responses": ["PASS", "PASS"]})
    code, out, _ = _run(line + "\n", interaction="json")
    assert code == 0 and json.loads(out) == {"response": "PLAY J2"}


@pytest.mark.parametrize("interaction", ["simple", "json"])
def test_keep_running_answers_each_request_with_the_marker(interaction: str) -> None:
    reqs = _game_requests()
    if interaction == "json":
        first = json.dumps({"requests": reqs[:1], "responses": []})
        rest = [json.dumps(r) for r in reqs[1:]]
    else:
        first = "1\n" + reqs[0]
        rest = reqs[1:]
    code, out, err = _run("\n".join([first, *rest]) + "\n", interaction=interaction, keep=True)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[1::2] == [KEEP_RUNNING] * len(reqs)
    answers = [json.loads(x)["response"] if interaction == "json" else x for x in lines[0::2]]
    assert len(answers) == len(reqs)
    for a in answers:
        parse_response(a)
    # per turn with the whole history, each answer is the same as kept running
    for n in (3, len(reqs) // 2, len(reqs)):
        text = "\n".join([str(n), *[x for i in range(n) for x in
                                    ([reqs[i], answers[i]] if i < n - 1 else [reqs[i]])]])
        assert _run(text + "\n")[1].strip() == answers[n - 1]


@pytest.mark.parametrize(("lines", "says"), [
    (["2", "0 0 1", "PASS", "1 0 0 0 0 W1 W2"], "13 tiles"),               # garbled
    (["2", "0 0 1", "PASS", "3 1 PLAY W1"], "before the deal"),             # out of order
    (["3", "0 0 1", "PASS", DEAL, "PASS", "2 Q7"], "unknown tile name"),    # unknown tile
    (["x"], "not a turn count"),
    (["3", "0 0 1"], "input ends"),
])
def test_bad_input_gets_one_line_and_a_safe_answer(lines: list[str], says: str) -> None:
    code, out, err = _run("\n".join(lines) + "\n")
    assert out == "PASS\n" and code == 2
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


_BIG = "3 1 PLAY " + "W1" * 5_000_000  # a 10 MB line


@pytest.mark.parametrize(("text", "says"), [
    ('{"requests": ["0 0 1", \n', "unknown request type"),                # garbled
    (json.dumps({"requests": ["0 0 1", "3 1 PLAY W1"], "responses": ["PASS"]}),
     "before the deal"),                                                     # out of order
    (json.dumps({"requests": ["0 0 1", DEAL, "2 Q7"], "responses": ["PASS", "PASS"]}),
     "unknown tile name"),                                                   # unknown tile
    (json.dumps({"requests": ["0 0 1", _BIG], "responses": ["PASS"]}), "characters"),
    (json.dumps([1, 2]), "without 'requests'"),
])
def test_bad_json_input_gets_one_line_and_a_safe_answer(text: str, says: str) -> None:
    code, out, err = _run(text + "\n", interaction="json")
    assert json.loads(out) == {"response": "PASS"} and code == 2
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_ten_megabyte_line_per_turn() -> None:
    code, out, err = _run("\n".join(["3", "0 0 1", "PASS", DEAL, "PASS", _BIG]) + "\n")
    assert out == "PASS\n" and code == 2
    assert err.count("\n") == 1 and "10000010 characters" in err


def test_out_of_order_in_keep_running_mode_stays_safe_and_alive() -> None:
    text = "\n".join(["1", "0 0 1", "3 0 PLAY W1", DEAL, "2 W4"]) + "\n"
    code, out, err = _run(text, keep=True)
    assert code == 0
    assert out.splitlines()[0::2] == ["PASS", "PASS", "PASS", "PLAY W4"]
    assert err.count("\n") == 1 and "before the deal" in err


def test_a_lost_bot_still_discards_its_draw() -> None:
    text = "\n".join(["4", "0 0 1", "PASS", DEAL, "PASS", "3 2 PLAY W9", "PASS", "2 J2"])
    code, out, err = _run(text + "\n")
    assert out == "PLAY J2\n" and code == 2
    assert err.count("\n") == 1  # the bad request, named once


def test_ten_megabyte_line_in_keep_running_mode() -> None:
    reqs = _game_requests()
    text = "\n".join(["1", reqs[0], "3 1 PLAY " + "W1" * 5_000_000, *reqs[1:4]]) + "\n"
    code, out, err = _run(text, keep=True)
    assert code == 0
    answers = out.splitlines()[0::2]
    assert answers[1] == "PASS" and len(answers) == 5
    assert err.count("\n") == 1 and "characters" in err


def test_cli_bad_input_exit_code_and_clean_stdout() -> None:
    env = {"PYTHONPATH": str(REPO_SRC), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-m", "tenpai", "botzone-bot", "--agent", "efficiency"],
                       input="1\n3 9 PLAY W1\n", capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.stdout == "PASS\n"
    assert p.stderr.count("\n") == 1 and "not a seat" in p.stderr
    assert p.returncode == 2
    p = subprocess.run([sys.executable, "-m", "tenpai", "botzone-bot", "--agent", "sl"],
                       input="", capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1

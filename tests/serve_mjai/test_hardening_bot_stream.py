"""Issue 39, item 5: ``tenpai mjai-bot`` checks the stream as replay does.

Events that cannot happen used to end in tracebacks (``HandError: 15 tiles`` from the agent, an
``OverflowError`` for ``actor 1e400``, a ``RecursionError`` for deep JSON), and impossible
sequences were answered as if nothing were wrong (a discard with no draw before it, a riichi
confirmation with no riichi, dealer seat 9, a win with nothing to win on).  Each is now one line
on stderr naming the input line and the event, exit 2, and no answer after it.  An agent of
another rule set is refused before the first line is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

G_MJLOG = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "riichi" /
           "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" /
           "2010081709gm-00a9-0000-fe3371ad.mjlog")


def _stream(seed: int = 5) -> list[dict[str, Any]]:
    """A real game's whole stream (every hand shown), as the issue's ``g.mjson`` is."""
    from tenpai.agents import make_agent
    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play

    g = make_game("riichi", seed, ["a", "b", "c", "d"], {"length": "tonpuu"})
    play(g, [make_agent("efficiency", i) for i in range(4)])
    return [e.to_mjai() for e in g.events]


def _bot(lines: list[str], agent: str = "efficiency") -> Any:
    return CliRunner().invoke(app, ["mjai-bot", "--agent", agent],
                              input="\n".join(lines) + "\n")


def _dump(stream: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(m) for m in stream]


def _first(stream: list[dict[str, Any]], **match: Any) -> int:
    return next(i for i, m in enumerate(stream) if all(m.get(k) == v for k, v in match.items()))


def _one_line(res: Any, line_no: int, *words: str) -> None:
    assert res.exit_code == 2, (res.exit_code, res.stdout[-500:], res.stderr[-2000:])
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert f"input line {line_no}:" in err[0], err[0]
    for w in words:
        assert w in err[0], err[0]


def _answers_before(lines: list[str], bad: int) -> int:
    """How many answers the bot gives to the good lines before line ``bad`` (1-based)."""
    res = _bot(lines[: bad - 1])
    assert res.exit_code == 0, res.stderr
    return len(res.stdout.splitlines())


def test_the_whole_stream_is_followed() -> None:
    res = _bot(_dump(_stream()))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip()


@pytest.mark.skipif(not G_MJLOG.is_file(), reason="needs ../shared/data")
def test_the_issue_record_is_followed() -> None:
    from tenpai.records.mjlog_read import read_mjlog

    game = read_mjlog(G_MJLOG)
    lines = [json.dumps(e.to_mjai()) for e in game.events()]
    res = _bot(lines)
    assert res.exit_code == 0, res.stderr


def test_a_repeated_draw_is_refused_before_the_agent_sees_15_tiles() -> None:
    lines = _dump(_stream())
    bad = [*lines[:3], lines[2], *lines[3:]]  # (head -3; sed -n 3p) | tenpai mjai-bot
    res = _bot(bad)
    _one_line(res, 4, "tsumo")
    assert "HandError" not in res.stderr
    assert len(res.stdout.splitlines()) == _answers_before(bad, 4)


def _inserted(after: int, msg: dict[str, Any], stream: list[dict[str, Any]] | None = None
              ) -> tuple[list[str], int]:
    s = list(stream or _stream())
    s.insert(after + 1, msg)
    return _dump(s), after + 2


@pytest.mark.parametrize(("name", "make", "words"), [
    ("riichi on 13 tiles", lambda s: _inserted(1, {"type": "reach", "actor": 0}, s),
     ["reach"]),
    ("riichi confirmation with no riichi",
     lambda s: _inserted(_first(s, type="dahai", actor=1), {"type": "reach_accepted",
                                                            "actor": 1}, s),
     ["reach_accepted", "declared no riichi"]),
    ("a win with nothing to win on",
     lambda s: _inserted(1, {"type": "hora", "actor": 1, "target": 2, "pai": "1m"}, s),
     ["hora"]),
    ("a tsumo win without a draw",
     lambda s: _inserted(_first(s, type="dahai", actor=0),
                         {"type": "hora", "actor": 0, "target": 0, "pai": "1m"}, s),
     ["hora", "not just drawn"]),
])
def test_impossible_sequences_are_refused(name: str, make: Any, words: list[str]) -> None:
    lines, bad = make(_stream())
    res = _bot(lines)
    _one_line(res, bad, *words)
    assert len(res.stdout.splitlines()) == _answers_before(lines, bad), name


def test_a_draw_while_another_seat_must_discard() -> None:
    s = _stream()
    first = _first(s, type="tsumo", actor=0)
    lines, bad = _inserted(first, {"type": "tsumo", "actor": 1, "pai": "?"}, s)
    _one_line(_bot(lines), bad, "tsumo", "yet to discard")


def test_a_discard_with_no_draw_before_it() -> None:
    s = _stream()
    draw = _first(s, type="tsumo", actor=1)
    lines = _dump(s[:draw] + s[draw + 1:])
    _one_line(_bot(lines), draw + 1, "dahai", "no draw")


def _deal(change: Any) -> tuple[list[str], int]:
    s = _stream()
    i = _first(s, type="start_kyoku")
    s[i] = change(json.loads(json.dumps(s[i])))
    return _dump(s), i + 1


@pytest.mark.parametrize(("change", "words"), [
    (lambda k: {**k, "oya": 9}, ["dealer seat 9"]),
    (lambda k: {**k, "tehais": [[*k["tehais"][0], "1m"], *k["tehais"][1:]]}, ["14 tiles"]),
    (lambda k: {**k, "tehais": [*k["tehais"], k["tehais"][0]]}, ["5 hands"]),
    (lambda k: {**k, "tehais": [["1m"] * 5 + k["tehais"][0][5:], *k["tehais"][1:]]},
     ["fifth 1m", "start_kyoku"]),
    (lambda k: {**k, "honba": -1}, ["honba"]),
])
def test_deals_that_cannot_be(change: Any, words: list[str]) -> None:
    lines, bad = _deal(change)
    _one_line(_bot(lines), bad, *words)


@pytest.mark.parametrize("text", [
    '{"type":"dahai","actor":1e400,"pai":"1m","tsumogiri":true}',
    '{"type":"dahai","actor":Infinity,"pai":"1m","tsumogiri":true}',
    '{"type":"dahai","actor":NaN,"pai":"1m","tsumogiri":true}',
    "[" * 100_000 + "]" * 100_000,
    '{"type":"start_game","names":7}',
])
def test_unreadable_values(text: str) -> None:
    lines = _dump(_stream())
    lines.insert(3, text)
    res = _bot(lines)
    _one_line(res, 4)


def test_a_fifth_copy_named_by_its_event() -> None:
    s = _stream()
    i = _first(s, type="start_kyoku")
    k = s[i]
    shown = [*k["tehais"][0], k["dora_marker"]].count("9p")
    for _ in range(5):  # dora markers of 9p until a fifth copy shows
        s.insert(i + 1, {"type": "dora", "dora_marker": "9p"})
    res = _bot(_dump(s))
    _one_line(res, i + 1 + 5 - shown, "dora", "fifth 9p")


@pytest.mark.parametrize("agent", ["pg_mcr", "sl_mcr", "dropout", "mcts", "no_such_agent"])
def test_agents_of_another_rule_set_are_refused_at_start(agent: str) -> None:
    res = _bot(_dump(_stream())[:5], agent)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in res.stderr, res.stderr
    assert agent in err[0]
    assert res.stdout == ""

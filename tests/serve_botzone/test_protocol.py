"""Botzone's request and response grammar: every form read and written back, and bad lines
refused with one clear message."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.serve.botzone.protocol import (
    MAX_LINE,
    ProtocolError,
    parse_request,
    parse_response,
)

REQUESTS = [
    "0 2 1",
    "1 0 0 0 0 W3 T2 B7 F2 W9 T9 T8 F1 F3 T1 T2 W9 W4",
    "2 T7",
    "3 1 DRAW",
    "3 0 PLAY F2",
    "3 3 PENG W8",
    "3 2 CHI B3 J1",
    "3 1 GANG",
    "3 0 BUGANG F2",
]


@pytest.mark.parametrize("line", REQUESTS)
def test_requests_round_trip(line: str) -> None:
    assert parse_request(line).text() == line


def test_request_fields() -> None:
    r = parse_request("3 2 CHI B3 J1")
    assert (r.kind, r.verb, r.player) == (3, "CHI", 2)
    assert r.tiles == (T.from_botzone("B3"), T.from_botzone("J1"))
    init = parse_request("0 3 2")
    assert (init.player, init.quan) == (3, 2)


@pytest.mark.parametrize("line", ["PASS", "PLAY W1", "GANG", "GANG F3", "BUGANG T9",
                                  "PENG J2", "CHI T4 W9", "HU"])
def test_responses_round_trip(line: str) -> None:
    assert parse_response(line).text() == line


@pytest.mark.parametrize(("line", "says"), [
    ("", "empty"),
    ("4 1 2", "unknown request type"),
    ("3 7 PLAY W1", "not a seat"),
    ("3 1 PLAY Z9", "unknown tile name"),
    ("3 1 PLAY", "takes 1 tile"),
    ("3 1 DISCARD W1", "known verb"),
    ("1 0 0 0 0 W1 W2", "13 tiles"),
    ("0 1", "'0 id quan'"),
    ("2 W1 W2", "'2 tile'"),
])
def test_bad_requests(line: str, says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        parse_request(line)


@pytest.mark.parametrize(("line", "says"), [
    ("", "empty"),
    ("DISCARD W1", "unknown response"),
    ("PLAY", "wrong number"),
    ("CHI W2", "wrong number"),
    ("PLAY X1", "unknown tile"),
    ("PLAY H1", "flower"),
])
def test_bad_responses(line: str, says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        parse_response(line)


def test_oversized_lines_are_refused_in_one_line() -> None:
    big = "PLAY " + "W1 " * (MAX_LINE // 3 + 10)
    with pytest.raises(ProtocolError, match="characters") as exc:
        parse_response(big)
    assert "\n" not in str(exc.value) and len(str(exc.value)) < 200
    with pytest.raises(ProtocolError, match="characters"):
        parse_request("3 1 PLAY " + "x" * 10_000_000)

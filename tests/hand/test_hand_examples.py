"""Hand-picked examples with known answers, and the errors bad input must raise."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tenpai.hand import (
    HandError,
    discard_ukeire,
    is_complete,
    is_complete_mcr,
    shanten,
    shanten_batch,
    shanten_chiitoi,
    shanten_honors_knitted,
    shanten_knitted_straight,
    shanten_kokushi,
    shanten_mcr,
    shanten_seven_pairs_mcr,
    shanten_standard,
    ukeire,
    waits,
)
from tenpai.tiles import parse_counts


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s1122z", 0),
        ("123m456p789s11222z", -1),
        ("19m19p19s1234567z", 0),
        ("19m19p19s12345677z", -1),
        ("1133557799m112z", 0),  # six pairs and a single: seven pairs tenpai
        ("11m", -1),  # four melds called, pair complete
        ("1m", 0),
        ("1111m", 1),  # 1111m + 1 draw: no pair without a fifth copy
        ("1111m2345p", 0),
        ("147m258p369s1234z", 6),  # seven pairs is the closest Riichi form
    ],
)
def test_known_shanten(hand: str, expected: int) -> None:
    assert shanten(parse_counts(hand)) == expected


def test_four_of_a_kind_is_one_pair_in_riichi_seven_pairs() -> None:
    hand = parse_counts("1111m22m33m44m55m6m")  # 13 tiles: six pairs only with 1111 as two
    assert shanten_chiitoi(hand) == 2
    assert shanten_seven_pairs_mcr(hand) == 0


def test_forms_separately() -> None:
    hand = parse_counts("159m19p19s123466z")
    assert shanten_kokushi(hand) == 1
    assert shanten_standard(hand) >= 4
    assert shanten_standard(parse_counts("147m258p369s1234z")) == 8


def test_waits_and_ukeire() -> None:
    assert waits(parse_counts("123m456p789s1122z")) == [27, 28]
    assert waits(parse_counts("1112345678999m")) == list(range(9))  # nine gates
    assert waits(parse_counts("19m19p19s1234567z")) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30,
                                                       31, 32, 33]
    assert waits(parse_counts("123m456p789s1123z")) == []
    result = ukeire(parse_counts("123m456p789s1122z"))
    assert result.tiles == [(27, 2), (28, 2)] and result.total == 4
    visible = [0] * 34
    visible[27] = 2
    assert ukeire(parse_counts("123m456p789s1122z"), visible).total == 2


def test_discard_ukeire_finds_the_winning_discard() -> None:
    options = discard_ukeire(parse_counts("123m456p789s11225z"))
    best = min(options, key=lambda o: (o.shanten, -o.total))
    assert best.discard == 31 and best.shanten == 0 and best.total == 4


def test_mcr_forms() -> None:
    assert shanten_knitted_straight(parse_counts("147m258p369s11z22z")) == 0
    assert shanten_knitted_straight(parse_counts("147m258p369s11z")) == -1  # a meld called
    assert shanten_knitted_straight(parse_counts("147m258p369s1z")) == 0
    assert is_complete_mcr(parse_counts("147m258p369s123m11z"))
    assert shanten_honors_knitted(parse_counts("147m258p369s12345z")) == -1
    assert shanten_honors_knitted(parse_counts("147m258p3s1234567z")) == -1
    assert shanten_mcr(parse_counts("147m258p369s1234z")) == 0
    assert not is_complete(parse_counts("147m258p369s12345z"))


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([0] * 33, "expected 34 counts"),
        ([5] + [0] * 33, r"counts\[0\] = 5"),
        ([-1] + [0] * 33, r"counts\[0\] = -1"),
        ([1] * 34, "at most 14"),
        (parse_counts("123m"), "3k\\+1 or 3k\\+2"),
        ([0] * 34, "3k\\+1 or 3k\\+2"),
        (np.zeros(34, dtype=float), "integer"),
    ],
)
def test_bad_input_raises_hand_error(counts: object, message: str) -> None:
    with pytest.raises(HandError, match=message):
        shanten(counts)  # type: ignore[arg-type]
    with pytest.raises(HandError):
        shanten_standard(counts)  # type: ignore[arg-type]


def test_form_size_errors() -> None:
    with pytest.raises(HandError, match="13 or 14"):
        shanten_chiitoi(parse_counts("1122m"))
    with pytest.raises(HandError, match="3k\\+1"):
        waits(parse_counts("123m456p789s11223z"))
    with pytest.raises(HandError, match=r"visible\[27\]"):
        ukeire(parse_counts("123m456p789s1122z"), [0] * 27 + [3] + [0] * 6)
    with pytest.raises(HandError, match=r"hands\[1\]"):
        shanten_batch(np.array([[0] * 33 + [2], [0] * 34]))


def test_numpy_and_tuple_inputs() -> None:
    hand = parse_counts("123m456p789s1122z")
    assert shanten(np.array(hand)) == shanten(tuple(hand)) == shanten(bytes(hand)) == 0


def test_bench_cli_prints_json_last() -> None:
    from tenpai.cli.main import app

    result = CliRunner().invoke(app, ["bench", "hand", "--hands", "300", "--repeat", "1",
                                       "--shanten-hands", "300", "--rounds", "3", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    for key in ("shanten_per_s", "ratio_vs_mahjong", "ratio_vs_riichienv",
                "batch_shanten_hands_per_s"):
        assert key in summary
    assert summary["shanten_per_s"] > 0
    low, high = summary["shanten_ours_range"]
    assert 0 < low <= summary["shanten_per_s"] <= high

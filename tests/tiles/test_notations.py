"""Tile notations: round trips (hypothesis) and errors that name the bad token and place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenpai import tiles as T

tile_codes = st.integers(min_value=0, max_value=T.NUM_TILES - 1)
no_flower = st.integers(min_value=0, max_value=36)
kinds = st.integers(min_value=0, max_value=33)


@given(st.lists(tile_codes, max_size=20))
def test_compact_round_trip_keeps_order(seq: list[int]) -> None:
    assert T.parse(T.to_compact(seq, sort=False)) == seq


@given(st.lists(tile_codes, max_size=20))
def test_compact_sorted_is_a_permutation(seq: list[int]) -> None:
    assert sorted(T.parse(T.to_compact(seq))) == sorted(seq)


@given(tile_codes)
def test_mjai_round_trip(t: int) -> None:
    assert T.from_mjai(T.to_mjai(t)) == t


@given(no_flower)
def test_tenhou6_round_trip(t: int) -> None:
    assert T.from_tenhou6(T.to_tenhou6(t)) == t


@given(st.integers(min_value=0, max_value=135))
def test_tenhou136_kind_and_red(tile_id: int) -> None:
    code = T.from_tenhou136(tile_id)
    assert T.kind_of(code) == tile_id // 4
    assert T.is_red(code) == (tile_id in T.RED_FIVE_IDS)
    assert T.from_tenhou136(tile_id, red=False) == tile_id // 4


@given(no_flower, st.integers(min_value=0, max_value=2))
def test_to_tenhou136_round_trip(t: int, copy: int) -> None:
    assert T.from_tenhou136(T.to_tenhou136(t, copy)) == t


@given(tile_codes)
def test_botzone_round_trip_except_red(t: int) -> None:
    back = T.from_botzone(T.to_botzone(t))
    assert back == (T.kind_of(t) if T.is_red(t) else t)


@given(kinds)
def test_dora_indicator_cycles(k: int) -> None:
    d = T.dora_from_indicator(k)
    assert T.suit_of(d) == T.suit_of(k)
    cycle = 9 if k < 27 else (4 if k < 31 else 3)
    x = k
    for _ in range(cycle):
        x = T.dora_from_indicator(x)
    assert x == k


def test_known_values() -> None:
    assert T.parse("123m0p7z") == [0, 1, 2, 35, 33]
    assert T.to_mjai(35) == "5pr" and T.to_mjai(31) == "P" and T.to_mjai(33) == "C"
    assert T.to_tenhou6(34) == 51 and T.from_tenhou6(47) == 33
    assert T.from_tenhou136(16) == 34 and T.from_tenhou136(17) == 4
    assert T.parse_botzone("W1 B9 T5 F4 J1 J3 H8") == [0, 17, 22, 30, 33, 31, 44]
    assert T.dora_from_indicator(8) == 0 and T.dora_from_indicator(30) == 27
    assert T.dora_from_indicator(33) == 31
    assert T.counts34(T.parse("0m55m1f"))[4] == 3


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [("123x", "123x", 0), ("11m8z", "8z", 3), ("12", "12", 0), ("1m 9f", "9f", 3)],
)
def test_compact_errors_name_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(T.TileParseError) as err:
        T.parse(text)
    assert err.value.token == token
    assert err.value.position == position
    assert isinstance(err.value, ValueError)


def test_other_notation_errors() -> None:
    with pytest.raises(T.TileParseError, match="'5x'"):
        T.parse_mjai_list(["1m", "5x"])
    with pytest.raises(T.TileParseError, match="position 3"):
        T.parse_botzone("W1 Z9")
    with pytest.raises(T.TileParseError):
        T.from_tenhou6(60)
    with pytest.raises(T.TileParseError):
        T.from_tenhou136(136)
    with pytest.raises(ValueError):
        T.red_of(0)

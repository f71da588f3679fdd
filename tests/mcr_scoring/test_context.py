"""MCRContext and Meld refuse impossible input with a message naming the field."""

from __future__ import annotations

import pytest
from mcr_helpers import chow, hand, k, pung

from tenpai.rules.mcr import MCRContext, MCRInputError, Meld, evaluate


def test_tile_count_must_fit_the_melds() -> None:
    with pytest.raises(MCRInputError, match="concealed has 13 tiles"):
        hand("123m456p789s1155z", "1z")
    with pytest.raises(MCRInputError, match="concealed has 14 tiles"):
        hand("123m456p789s11555z", "1z", (chow("4m"),))


def test_winning_tile_must_be_in_the_hand() -> None:
    with pytest.raises(MCRInputError, match="win_tile is not among"):
        hand("123m456p789s11555z", "9m")


def test_no_fifth_copy() -> None:
    with pytest.raises(MCRInputError, match="5 copies"):
        hand("11m456p789s555z", "1m", (pung("1m"),))


def test_flowers_are_a_count_not_tiles() -> None:
    with pytest.raises(MCRInputError, match="flower"):
        MCRContext((*range(13), 37), 0)


def test_meld_shapes_are_checked() -> None:
    with pytest.raises(MCRInputError, match="not a chow"):
        Meld("chow", (k("1m"), k("2m"), k("4m")))
    with pytest.raises(MCRInputError, match="not a pung"):
        Meld("pung", (k("1m"), k("1m"), k("2m")))
    with pytest.raises(MCRInputError, match="needs 4 tiles"):
        Meld("exposed_kong", (k("1m"),) * 3)
    with pytest.raises(MCRInputError, match="chow must be 1"):
        Meld("chow", (k("1m"), k("2m"), k("3m")), 2)
    with pytest.raises(MCRInputError, match="concealed kong must be 0"):
        Meld("concealed_kong", (k("1m"),) * 4, 1)


def test_situation_flags_must_agree_with_the_tiles() -> None:
    with pytest.raises(MCRInputError, match="kong_replacement needs a kong"):
        hand("123m456p789s11555z", "1z", self_drawn=True, kong_replacement=True)
    with pytest.raises(MCRInputError, match="robbing_kong cannot be a self-drawn"):
        hand("123m456p789s11555z", "1m", self_drawn=True, robbing_kong=True)
    with pytest.raises(MCRInputError, match="robbing_kong"):
        hand("123m456p789s11555z", "5z", robbing_kong=True)
    with pytest.raises(MCRInputError, match="last_copy"):
        hand("123m456p789s11555z", "1z", last_copy=True)
    with pytest.raises(MCRInputError, match="seat_wind"):
        hand("123m456p789s11555z", "1z", seat_wind=4)


def test_three_copies_in_own_melds_make_the_last_copy_certain() -> None:
    ctx = hand("345m99p", "3m", (chow("1m"), chow("2m"), chow("3m")))
    assert ctx.last_copy


def test_red_fives_read_as_fives() -> None:
    plain = evaluate(hand("345m456p567s55z", "5m", (chow("3p"),)))
    red = evaluate(hand("340m456p567s55z", "0m", (chow("3p"),)))
    assert plain == red


def test_not_a_winning_hand_gives_none() -> None:
    assert evaluate(hand("123m456p789s12355z", "1m")) is None

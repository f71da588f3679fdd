"""Point transfers: honba, deposits, pao on both presets, nagashi mangan."""

from __future__ import annotations

import pytest

from tenpai.rules.riichi import (
    EAST,
    MAHJONG_SOUL,
    SOUTH,
    TENHOU,
    WEST,
    ScoringError,
    nagashi_mangan_payments,
    payments,
)
from tenpai.rules.riichi.payments import completes_pao_sets

from .riichi_helpers import meld, score

DRAGON_MELDS = (meld("pon", "555z", 0), meld("pon", "666z", 0))


def test_ron_with_honba_and_deposits() -> None:
    r = score("23m567m345p678s55s", "4m", chankan=True, seat_wind=SOUTH, round_wind=EAST)
    assert r.ron == 3900
    d = payments(r, TENHOU, winner=1, dealer=0, discarder=2, honba=2, kyotaku=1)
    assert d == [0, 3900 + 600 + 1000, -(3900 + 600), 0]
    assert sum(d) == 1000


def test_non_dealer_tsumo_with_honba() -> None:
    r = score("234789m1234566p", "6p", tsumo=True, riichi=True, seat_wind=SOUTH,
              round_wind=EAST)
    d = payments(r, TENHOU, winner=1, dealer=0, honba=1)
    assert d == [-1400, 1400 + 800 + 800, -800, -800]


def test_dealer_tsumo() -> None:
    r = score("123m456p789s11z34s", "5s", tsumo=True, seat_wind=EAST, round_wind=SOUTH)
    assert payments(r, TENHOU, winner=2, dealer=2) == [-500, -500, 1500, -500]


def _daisangen_tsuuiisou(rules: object, tsumo: bool) -> object:
    return score("777z111z2z", "2z", *DRAGON_MELDS, tsumo=tsumo, seat_wind=SOUTH,
                 round_wind=EAST, rules=rules)


def test_pao_tsumo_tenhou_liable_player_pays_the_whole_hand() -> None:
    r = _daisangen_tsuuiisou(TENHOU, tsumo=True)
    d = payments(r, TENHOU, winner=1, dealer=0, honba=1, pao=2)  # type: ignore[arg-type]
    assert d == [0, 64300, -64300, 0]


def test_pao_tsumo_mahjong_soul_liable_only_for_the_pao_yakuman() -> None:
    r = _daisangen_tsuuiisou(MAHJONG_SOUL, tsumo=True)
    d = payments(r, MAHJONG_SOUL, winner=1, dealer=0, honba=1, pao=2)  # type: ignore[arg-type]
    assert d == [-16000, 64300, -(32300 + 8000), -8000]


def test_pao_ron_splits_and_liable_player_pays_honba() -> None:
    r = score("11m22z", "1m", *DRAGON_MELDS, meld("pon", "777z", 0), seat_wind=SOUTH,
              round_wind=EAST)
    assert (r.yakuman, r.pao_yakuman, r.ron) == (1, 1, 32000)
    d = payments(r, TENHOU, winner=1, dealer=0, discarder=2, honba=2, pao=0)
    assert d == [-16600, 32600, -16000, 0]
    # The liable player dealing in themself pays an ordinary ron.
    d = payments(r, TENHOU, winner=1, dealer=0, discarder=0, honba=2, pao=0)
    assert d == [-32600, 32600, 0, 0]


def test_the_call_that_completes_the_dragons_or_the_winds_makes_its_feeder_liable() -> None:
    dragons, winds = {31, 32, 33}, {27, 28, 29, 30}
    assert completes_pao_sets(33, dragons) and completes_pao_sets(27, winds | {0})
    assert not completes_pao_sets(33, {31, 33})  # two dragon sets
    assert not completes_pao_sets(30, {27, 28, 30})  # three wind sets
    assert not completes_pao_sets(0, dragons | {0})  # the dragons were complete before


def test_pao_is_ignored_without_a_pao_yakuman() -> None:
    r = score("23m567m345p678s55s", "4m", chankan=True, seat_wind=SOUTH, round_wind=EAST)
    assert payments(r, TENHOU, winner=1, dealer=0, discarder=2, pao=3) == [0, 3900, -3900, 0]


def test_bad_seats_are_refused() -> None:
    r = score("23m567m345p678s55s", "4m", chankan=True, seat_wind=SOUTH, round_wind=EAST)
    with pytest.raises(ScoringError, match="discarder"):
        payments(r, TENHOU, winner=1, dealer=0)
    with pytest.raises(ScoringError, match="seat 0-3"):
        payments(r, TENHOU, winner=1, dealer=0, discarder=7)
    with pytest.raises(ScoringError, match="dealer flag"):
        payments(r, TENHOU, winner=0, dealer=0, discarder=1)


def test_nagashi_mangan() -> None:
    assert nagashi_mangan_payments(1, 0, TENHOU) == [-4000, 8000, -2000, -2000]
    assert nagashi_mangan_payments(0, 0, TENHOU) == [12000, -4000, -4000, -4000]
    with pytest.raises(ScoringError):
        nagashi_mangan_payments(1, 0, TENHOU.with_(nagashi_mangan=False))


def test_west_seat_ron() -> None:
    r = score("34m345p345s678s66p", "2m", riichi=True, seat_wind=WEST, round_wind=EAST)
    assert payments(r, TENHOU, winner=2, dealer=0, discarder=0) == [-3900, 0, 3900, 0]

"""Three-player Riichi (sanma) scoring and payments, as Tenhou's three-player lobby pays them.

The expected values come from the three-player Houou records of the corpus (their ``sc`` point
changes), and the random hands are checked against the `mahjong` library with its
``is_three_player`` option and ``num_nuki_dora``.
"""

from __future__ import annotations

import random

import pytest

from tenpai import tiles as T
from tenpai.rules.riichi import (
    EAST,
    NORTH,
    SOUTH,
    TENHOU,
    TENHOU_SANMA,
    WEST,
    ScoringError,
    count_dora,
    evaluate,
    nagashi_mangan_payments,
    payments,
    preset,
    preset_for_players,
)
from tenpai.rules.riichi.random_wins import random_win

from .library_oracle import compare, describe
from .riichi_helpers import ctx, meld

S = TENHOU_SANMA


def _run(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    failures = []
    for _ in range(n):
        hand = random_win(rng, S)
        problem = compare(hand)
        if problem:
            failures.append(f"{describe(hand)}\n    {problem}")
    return failures


def test_agrees_with_the_mahjong_library_sample() -> None:
    failures = _run(31, 3000)
    assert not failures, f"{len(failures)} disagreements, first:\n" + "\n".join(failures[:5])


@pytest.mark.slow
def test_agrees_with_the_mahjong_library_full() -> None:
    failures = _run(2024, 20_000)
    assert not failures, f"{len(failures)} disagreements, first:\n" + "\n".join(failures[:5])


def test_preset_values() -> None:
    assert preset("tenhou_sanma") is S
    assert preset_for_players("tenhou", 3) is S
    assert preset_for_players("tenhou", 4) is TENHOU
    assert preset_for_players("tenhou_sanma", 3) is S
    with pytest.raises(KeyError):
        preset_for_players("mahjong_soul", 3)
    with pytest.raises(KeyError):
        preset_for_players("tenhou_sanma", 4)
    assert (S.players, S.red_fives, S.nukidora) == (3, 2, True)
    assert (S.starting_points, S.target_points) == (35_000, 40_000)
    assert (S.honba_points, S.noten_penalty, S.riichi_min_wall_tiles) == (200, 2_000, 3)


def _t(text: str) -> tuple[int, ...]:
    return tuple(T.parse(text))


#: a closed hand of three-player tiles, won on 1s: no yaku of its own but riichi or tsumo
HAND = "111999m123p456p1s"


def test_rules_refuse_impossible_combinations() -> None:
    with pytest.raises(ValueError, match="nukidora"):
        TENHOU.with_(nukidora=True)
    with pytest.raises(ValueError, match="red_fives"):
        S.with_(red_fives=3)
    with pytest.raises(ValueError, match="honba_points"):
        S.with_(honba_points=301)
    with pytest.raises(ScoringError, match="removes"):
        ctx("234999m123p456p1s", "1s", rules=S)
    with pytest.raises(ScoringError, match="North"):
        ctx(HAND, "1s", seat_wind=NORTH, rules=S)
    with pytest.raises(ScoringError, match="nukidora"):
        ctx(HAND, "1s", nukidora=1, rules=TENHOU)
    with pytest.raises(ScoringError, match="copies"):
        ctx("444z999m123p456p1s", "1s", nukidora=2, rules=S)


def test_dora_wrap_1m_and_9m() -> None:
    # 1m shows 9m, 9m shows 1m (2m-8m are not in the set)
    c = ctx(HAND, "1s", riichi=True, dora_indicators=_t("1m"), rules=S)
    assert count_dora(c)[0] == 3
    c = ctx(HAND, "1s", riichi=True, dora_indicators=_t("9m"), rules=S)
    assert count_dora(c)[0] == 3
    c = ctx(HAND, "1s", riichi=True, dora_indicators=_t("9m1m"), rules=S)
    assert count_dora(c)[0] == 6
    # the same indicator at a four-player table shows 2m
    c = ctx(HAND, "1s", riichi=True, dora_indicators=_t("1m"), rules=TENHOU)
    assert count_dora(c)[0] == 0


def test_nukidora_count_as_dora_and_again_for_a_west_indicator() -> None:
    c = ctx(HAND, "1s", riichi=True, nukidora=2, dora_indicators=_t("7p"), rules=S)
    assert count_dora(c) == (2, 0, 0)
    c = ctx(HAND, "1s", riichi=True, nukidora=2, dora_indicators=_t("3z"),
            ura_indicators=_t("3z"), rules=S)
    assert count_dora(c) == (4, 0, 2)
    r = evaluate(c)
    assert r is not None and ("dora", 4) in r.yaku and ("ura_dora", 2) in r.yaku
    # dora alone never make a win: no yaku, no win, however many Norths
    assert evaluate(ctx(HAND, "1s", nukidora=4, rules=S)) is None


def test_a_north_triplet_is_no_yakuhai_for_three_players() -> None:
    # North is neither a seat nor a round wind at a three-player table
    assert evaluate(ctx("444z999m123p456p1s", "1s", rules=S)) is None
    r = evaluate(ctx("444z999m123p456p1s", "1s", tsumo=True, rules=S))
    assert r is not None and [n for n, _ in r.yaku] == ["menzen_tsumo"]


def test_tsumo_loss_non_dealer_mangan() -> None:
    # riichi, tsumo and three Norths set aside: a non-dealer mangan, which the two others
    # pay 4,000 (dealer) and 2,000 — 6,000, not four players' 8,000 (records: sc -40 +70 -20
    # with a deposit; -41 +62 -21 with one honba)
    r = evaluate(ctx(HAND, "1s", tsumo=True, riichi=True, nukidora=3, seat_wind=SOUTH,
                     rules=S))
    assert r is not None and r.limit == "mangan" and r.players == 3
    assert (r.tsumo_dealer, r.tsumo_non_dealer, r.total) == (4000, 2000, 6000)
    assert payments(r, S, winner=1, dealer=0, kyotaku=1) == [-4000, 7000, -2000]
    assert payments(r, S, winner=1, dealer=0, honba=1) == [-4100, 6200, -2100]


def test_tsumo_loss_dealer_and_ron_honba() -> None:
    r = evaluate(ctx(HAND, "1s", tsumo=True, riichi=True, nukidora=3, rules=S))
    assert r is not None and r.dealer and r.limit == "mangan"
    assert r.total == 8000
    assert payments(r, S, winner=0, dealer=0, honba=2) == [8400, -4200, -4200]
    ron = evaluate(ctx(HAND, "1s", riichi=True, nukidora=4, seat_wind=WEST, rules=S))
    assert ron is not None and ron.ron == 8000
    # a ron pays 200 per honba (records: 8,000 with one honba is 8,200)
    assert payments(ron, S, winner=2, dealer=0, discarder=1, honba=1) == [0, -8200, 8200]


def test_pao_with_three_players() -> None:
    # daisangen by a non-dealer, seat 2 fed the third dragon: on a tsumo it pays the whole
    # hand as if it had dealt in, honba included; on a ron off seat 0 half each
    melds = (meld("pon", "555z", 2), meld("pon", "666z", 2), meld("pon", "777z", 0))
    r = evaluate(ctx("1s999m", "1s", *melds, tsumo=True, seat_wind=SOUTH, rules=S))
    assert r is not None and r.pao_yakuman == 1
    assert payments(r, S, winner=1, dealer=0, pao=2, honba=1) == [0, 32_200, -32_200]
    ron = evaluate(ctx("1s999m", "1s", *melds, seat_wind=SOUTH, rules=S))
    assert ron is not None
    assert payments(ron, S, winner=1, dealer=0, discarder=0, pao=2) == [-16_000, 32_000,
                                                                        -16_000]


def test_nagashi_mangan_with_tsumo_loss() -> None:
    # records: a non-dealer's nagashi mangan is +6,000 (dealer 4,000, other 2,000), the
    # dealer's +8,000
    assert nagashi_mangan_payments(0, 2, S) == [6000, -2000, -4000]
    assert nagashi_mangan_payments(1, 1, S) == [-4000, 8000, -4000]


def test_seat_checks_know_three_seats() -> None:
    r = evaluate(ctx(HAND, "1s", riichi=True, seat_wind=EAST, rules=S))
    assert r is not None
    with pytest.raises(ScoringError, match="seat 0-2"):
        payments(r, S, winner=0, dealer=0, discarder=3)

"""Furiten in its three kinds: own discards, a passed winning tile this turn, and after riichi."""

from __future__ import annotations

from scenario import act, discard, legal, pass_all, table

from tenpai.rules.riichi.flow.round import RiichiRound

# Seat 1 waits on 3m/6m with tanyao; the other hands are inert.
HANDS = ["13579m13579p135s", "45m234p456p678s22p", "2468m2468p2468s9s", "1234z5566z777z99s"]


def _can_ron(rnd: RiichiRound, seat: int) -> bool:
    return any(e.type == "hora" for e in legal(rnd, seat))


def test_own_discard_makes_permanent_furiten() -> None:
    rnd = table(HANDS, "1s6m3m")
    discard(rnd, 0, "1s")
    discard(rnd, 1, "6m")  # seat 1 throws one of its own winning tiles
    discard(rnd, 2, "3m")
    assert not _can_ron(rnd, 1)


def test_passing_a_win_is_furiten_until_own_discard() -> None:
    rnd = table(HANDS, "1s9p3m6m9m1z6m")
    discard(rnd, 0, "1s")
    discard(rnd, 1, "9p")
    discard(rnd, 2, "3m")
    assert _can_ron(rnd, 1)
    pass_all(rnd)  # seat 1 lets the win go
    discard(rnd, 3, "6m")
    assert not _can_ron(rnd, 1), "same-turn furiten after passing a winning tile"
    if rnd.pending() and rnd.phase == "claim":
        pass_all(rnd)
    discard(rnd, 0, "9m")
    discard(rnd, 1, "1z")  # seat 1's own discard lifts the temporary furiten
    discard(rnd, 2, "6m")
    assert _can_ron(rnd, 1)


def test_riichi_furiten_is_permanent() -> None:
    rnd = table(HANDS, "1s9p3m6m9m9p2z6m")
    discard(rnd, 0, "1s")
    act(rnd, 1, type="reach")
    discard(rnd, 1, "9p")
    discard(rnd, 2, "3m")
    assert _can_ron(rnd, 1)
    pass_all(rnd)
    discard(rnd, 3, "6m")
    assert not _can_ron(rnd, 1)

"""MCR table rules, one scenario each: minimum, claims, wall end, kongs, flowers, penalties."""

from __future__ import annotations

from tenpai.events import Event
from tenpai.rules.mcr.flow.round import FALSE_WIN, MCRRound
from tenpai.rules.mcr.flow.rules import MCR_OFFICIAL
from tenpai.tiles import parse

from .scenario import PLAIN, do, fans, find, last, legal, seat_walls, shared

# Waits on 6s/9s with 5 fans (7 self-drawn): below the minimum either way.
LOW = "234m567m345p78s99s"
# Waits on 6s (closed wait) with 三色三同顺: well above the minimum.
HIGH = "234m234p234s57s88s"
# Junk that claims nothing the scenarios discard; the dealer discards 6s first.
DEALER = "11m99m19p19s123z6s7z"
OTHER = "55z66z44z456p78p9p3m"
QUIET = "1199m1199p2255z7z"
FOURTH = "2233m3344p5566s7z"
# Waits on the fourth 8m for a concealed kong; the replacement 5z completes the hand.
KONG = "888m234p567p789s5z"


def _false(seat: int) -> Event:
    return Event("ryukyoku", actor=seat, kind=FALSE_WIN)


def test_below_minimum_is_not_a_win_on_a_discard() -> None:
    rnd = shared([DEALER, LOW, HIGH, OTHER], front="4z")
    do(rnd, 0, "dahai", "6s")
    assert find(rnd, 1, "hora") is None  # 5 fans
    assert find(rnd, 1, "chi") is not None  # a chow from the left is still there
    assert find(rnd, 2, "hora") is not None


def test_below_minimum_is_not_a_win_on_a_self_draw() -> None:
    rnd = shared([LOW, DEALER, OTHER, FOURTH], front="6s")
    assert find(rnd, 0, "hora") is None  # 不求人 + 平和 + 连六 = 7


def test_flowers_do_not_count_toward_the_minimum() -> None:
    rules = MCR_OFFICIAL.with_(full_game=False)
    # The dealer is dealt three flowers, replaced from the back: 7 fans + 3 flowers, no win.
    hands = ["234m567m345p7s" + "123f", DEALER, OTHER, FOURTH]
    rnd = shared(hands, front="6s", back="8s9s5f9s", rules=rules)
    assert [e.pai for e in rnd.events if e.type == "flower"] == parse("1235f")
    assert rnd.flowers[0] == parse("1235f")
    assert find(rnd, 0, "hora") is None


def test_flowers_score_for_the_winner() -> None:
    rules = MCR_OFFICIAL.with_(full_game=False)
    hands = ["234m234p234s57s8s" + "7f", DEALER, OTHER, FOURTH]
    rnd = shared(hands, front="6s", back="8s", rules=rules)
    do(rnd, 0, "hora")
    win = last(rnd, "hora")
    assert fans(win)["花牌"] == 1
    assert win.deltas == tuple(3 * (8 + win.han) if s == 0 else -(8 + win.han)  # type: ignore[operator]
                               for s in range(4))


def test_a_flower_drawn_in_play_is_set_aside_and_replaced_from_the_back() -> None:
    rules = MCR_OFFICIAL.with_(full_game=False)
    rnd = shared([DEALER, OTHER, QUIET, FOURTH], front="8f", back="3s",
                 rules=rules)
    kinds = [(e.type, e.pai) for e in rnd.events[1:]]
    assert kinds == [("tsumo", parse("8f")[0]), ("flower", parse("8f")[0]),
                     ("tsumo", parse("3s")[0])]
    assert rnd.drawn == parse("3s")[0] and not rnd.after_kan


def test_one_winner_per_discard_the_nearest() -> None:
    rnd = shared([DEALER, OTHER, HIGH, "234m234p234s57s99m"], front="4z")
    do(rnd, 0, "dahai", "6s")
    win2, win3 = find(rnd, 2, "hora"), find(rnd, 3, "hora")
    assert win2 is not None and win3 is not None
    rnd.step({2: win2, 3: win3})
    wins = [e for e in rnd.events if e.type == "hora"]
    assert [w.actor for w in wins] == [2]
    han = wins[0].han
    assert han is not None and wins[0].deltas == (-(8 + han), -8, 24 + han, -8)


def test_chow_only_from_the_left() -> None:
    rnd = shared([DEALER, QUIET, LOW, OTHER], front="4z")
    do(rnd, 0, "dahai", "6s")
    assert find(rnd, 2, "chi") is None  # 78s in hand, but the dealer is not on the left


def test_the_last_discard_can_only_be_won_on() -> None:
    # One tile in the wall: the dealer draws it and nobody can draw after the discard.
    rnd = shared([DEALER, "66s2255z4466p88m7z", HIGH, OTHER], front="4z", short=True)
    assert rnd.wall_remaining == 0
    do(rnd, 0, "dahai", "6s")
    assert find(rnd, 1, "pon") is None
    win = find(rnd, 2, "hora")
    assert win is not None
    rnd.step({2: win})
    assert "海底捞月" in fans(last(rnd, "hora"))


def test_a_self_draw_on_the_last_tile_is_miaoshou() -> None:
    rnd = shared([HIGH, DEALER, OTHER, FOURTH], front="6s", short=True)
    do(rnd, 0, "hora")
    f = fans(last(rnd, "hora"))
    assert "妙手回春" in f and "自摸" not in f


def test_exhaustive_draw_when_the_wall_is_empty() -> None:
    rnd = shared([DEALER, QUIET, FOURTH, OTHER], front="4z", short=True)
    do(rnd, 0, "dahai", "6s")
    assert rnd.done and last(rnd, "ryukyoku").kind == "exhaustive"
    assert rnd.result is not None and rnd.result.deltas == [0, 0, 0, 0]


def test_no_kong_without_a_replacement_tile() -> None:
    rnd = shared([KONG, DEALER, OTHER, QUIET], front="8m", short=True)
    assert find(rnd, 0, "ankan") is None


def test_kong_replacement_win() -> None:
    rnd = shared([KONG, DEALER, OTHER, FOURTH], front="8m", back="5z")
    do(rnd, 0, "ankan", "8m")
    assert last(rnd, "tsumo").pai == parse("5z")[0] and rnd.after_kan
    do(rnd, 0, "hora")
    f = fans(last(rnd, "hora"))
    assert "杠上开花" in f and "自摸" not in f


def test_a_concealed_kong_cannot_be_robbed() -> None:
    rnd = shared(["666s28m28p2s34577z", "11m99m159p19s123z7z", HIGH, OTHER], front="6s",
                 back="3z")
    do(rnd, 0, "ankan", "6s")
    assert rnd.phase == "act" and rnd.turn == 0  # straight to the replacement draw
    assert last(rnd, "tsumo").pai == parse("3z")[0]


def _added_kong_table() -> MCRRound:
    """Position 0 pungs position 1's 6s, then draws the fourth 6s; position 2 waits on 6s."""
    hands = ["66s19m19p19s12347z", "6s2233m4455p7788p", HIGH, "55z66z88m99p1p34s56m"]
    rnd = shared(hands, front="4z 2z 3z 7z 1z 6s")
    do(rnd, 0, "dahai", "4z")
    do(rnd, 1, "dahai", "6s")
    assert find(rnd, 2, "hora") is not None  # passing a win is allowed: MCR has no furiten
    do(rnd, 0, "pon", "6s")
    do(rnd, 0, "dahai", "1z")
    do(rnd, 1, "dahai", "3z")
    do(rnd, 2, "dahai", "7z")
    do(rnd, 3, "dahai", "1z")
    do(rnd, 0, "kakan", "6s")
    return rnd


def test_robbing_an_added_kong() -> None:
    rnd = _added_kong_table()
    assert rnd.phase == "rob" and [d.seat for d in rnd.pending()] == [2]
    do(rnd, 2, "hora")
    win = last(rnd, "hora")
    f = fans(win)
    assert win.target == 0 and "抢杠和" in f and "和绝张" not in f
    assert win.deltas[0] == -(8 + (win.han or 0)) and win.deltas[1] == -8


def test_an_added_kong_that_nobody_robs_stands() -> None:
    rnd = _added_kong_table()
    rnd.step({2: Event("none")})
    assert rnd.melds[0][0].type == "kakan" and rnd.after_kan and rnd.turn == 0


def test_last_copy_is_scored_when_three_are_in_view() -> None:
    # Position 1 waits on 6s/9s with 5 fans: only 和绝张 (4) lifts a 9s win over the minimum.
    rnd = shared([DEALER, "234m567m345p78s55p", QUIET, FOURTH], front="4z 1z 9s 9s 9s")
    do(rnd, 0, "dahai", "9s")
    assert find(rnd, 1, "hora") is None
    do(rnd, 1, "dahai", "1z")
    do(rnd, 2, "dahai", "9s")
    do(rnd, 3, "dahai", "9s")
    assert find(rnd, 1, "hora") is None  # the third copy: two others in view
    do(rnd, 0, "dahai", "9s")
    win = find(rnd, 1, "hora")
    assert win is not None
    rnd.step({1: win})
    assert "和绝张" in fans(last(rnd, "hora"))


def test_false_win_is_not_offered_by_default() -> None:
    rnd = shared([DEALER, LOW, HIGH, OTHER], front="4z")
    assert all(e.type != "ryukyoku" for e in legal(rnd, 0))
    do(rnd, 0, "dahai", "6s")
    assert all(e.type != "ryukyoku" for d in rnd.pending() for e in d.legal)


def test_false_win_penalty_on_ones_turn() -> None:
    rnd = shared([DEALER, LOW, HIGH, OTHER], front="4z", rules=PLAIN.with_(allow_false_win=True))
    assert _false(0) in legal(rnd, 0)
    rnd.step({0: _false(0)})
    end = last(rnd, "ryukyoku")
    assert (end.kind, end.actor, end.deltas) == ("penalty", 0, (-30, 10, 10, 10))
    assert rnd.done and rnd.scores == [-30, 10, 10, 10]


def test_false_win_in_a_claim_window_and_the_nearest_declaration() -> None:
    rules = PLAIN.with_(allow_false_win=True)
    rnd = shared([DEALER, LOW, HIGH, OTHER], front="4z", rules=rules)
    do(rnd, 0, "dahai", "6s")
    assert sorted(d.seat for d in rnd.pending()) == [1, 2, 3]  # everyone may declare
    assert find(rnd, 2, "ryukyoku") is None  # position 2 really wins: no false option
    win = find(rnd, 2, "hora")
    assert win is not None
    rnd.step({1: _false(1), 2: win})  # position 1 is nearer: its false win counts
    assert last(rnd, "ryukyoku").deltas == (10, -30, 10, 10)
    rnd = shared([DEALER, LOW, HIGH, OTHER], front="4z", rules=rules)
    do(rnd, 0, "dahai", "6s")
    rnd.step({3: _false(3), 2: win})  # the true win is nearer
    assert last(rnd, "hora").actor == 2


def test_per_seat_walls_replacement_comes_from_ones_own_wall() -> None:
    rnd = seat_walls([KONG, DEALER, OTHER, QUIET], ["8m 5z", "2z", "3z", "4z"])
    do(rnd, 0, "ankan", "8m")
    assert last(rnd, "tsumo").pai == parse("5z")[0]
    assert [rnd.wall.remaining_for(s) for s in range(4)] == [0, 1, 1, 1]
    # Position 0's wall is empty, so the hand is not drawn yet: position 1 can still draw.
    do(rnd, 0, "hora")
    assert "杠上开花" in fans(last(rnd, "hora"))


def test_per_seat_walls_end_when_the_next_players_wall_is_empty() -> None:
    rnd = seat_walls([KONG, DEALER, HIGH, OTHER], ["8m 2z", "", "3z", "4z"])
    assert find(rnd, 0, "ankan") is None  # position 1 could not draw after the kong
    do(rnd, 0, "dahai", "5z")
    assert rnd.done and last(rnd, "ryukyoku").kind == "exhaustive"

"""Rules of one 108-tile hand: the deal, claims and their priority, kongs, robbing a kong, the
ready-hand declaration and its locked hand, several winners, and the exhaustive draw."""

from __future__ import annotations

import pytest
from s108_scenario import act, discard, last, legal, pass_all, table, types

from tenpai import tiles as T
from tenpai.engine.flow import IllegalActionError
from tenpai.engine.wall import seeded_shuffle
from tenpai.events import Event
from tenpai.rules.suits108 import PAPER, TILESET, Suits108Rules, Suits108Wall
from tenpai.rules.suits108.round import Suits108Round

# --------------------------------------------------------------------------- the deal


def test_tileset_is_108_suited_tiles() -> None:
    assert len(TILESET) == 108
    assert set(TILESET) == set(range(27))
    assert all(TILESET.count(k) == 4 for k in range(27))


def test_deal_gives_13_each_and_the_dealer_a_14th() -> None:
    wall = Suits108Wall(seeded_shuffle(TILESET, 11))
    rnd = Suits108Round(PAPER, wall, hand_index=2, dealer=2, scores=[25000] * 4)
    assert [len(h) for h in rnd.hands] == [13, 13, 14, 13]
    assert rnd.wall.remaining == 108 - 52 - 1
    (d,) = rnd.pending()
    assert d.seat == 2 and {e.type for e in d.legal} >= {"dahai"}
    start = rnd.events[0]
    assert start.type == "start_kyoku" and start.oya == 2 and start.kyoku == 2


def test_a_wall_with_a_wrong_tile_is_refused() -> None:
    from tenpai.rules.suits108.wall import WallError

    with pytest.raises(WallError, match="four of each"):
        Suits108Wall([*TILESET[:-1], 27])


# --------------------------------------------------------------------------- claims

_CLAIMS = (
    "3m111p222p333p444p",  # dealer, discards 3m
    "12m456s789s11s22s9p",  # left of the discarder: may chow 3m
    "33m45m567p88p33s5s9m",  # may pong 3m, may not chow it (not the next player)
    "3m789m999p888s678p",  # waits on 3m
)


def test_chow_only_from_the_previous_player() -> None:
    rnd = table(_CLAIMS, "9s")
    discard(rnd, 0, "3m")
    assert types(rnd, 1) == {"chi", "none"}
    assert types(rnd, 2) == {"pon", "none"}
    assert types(rnd, 3) == {"hora", "none"}


def test_win_beats_pong_beats_chow() -> None:
    rnd = table(_CLAIMS, "9s")
    discard(rnd, 0, "3m")
    answers = {
        1: legal(rnd, 1)[0],
        2: legal(rnd, 2)[0],
        3: legal(rnd, 3)[0],
    }
    rnd.step(answers)
    win = last(rnd, "hora")
    assert (win.actor, win.target, win.deltas) == (3, 0, (-1000, 0, 0, 1000))
    assert rnd.done and rnd.scores == [24000, 25000, 25000, 26000]


def test_pong_beats_chow() -> None:
    rnd = table(_CLAIMS, "9s")
    discard(rnd, 0, "3m")
    rnd.step({1: legal(rnd, 1)[0], 2: legal(rnd, 2)[0], 3: Event("none")})
    assert rnd.events[-1].type == "pon" and rnd.events[-1].actor == 2
    assert rnd.phase == "discard" and rnd.turn == 2


def test_chow_when_nobody_else_claims() -> None:
    rnd = table(_CLAIMS, "9s")
    discard(rnd, 0, "3m")
    act(rnd, 1, type="chi")
    meld = rnd.melds[1][0]
    assert meld.type == "chi" and meld.target == 0
    assert sorted(T.kind_of(t) for t in meld.tiles) == [0, 1, 2]


# --------------------------------------------------------------------------- kongs


def test_closed_kong_draws_its_replacement_from_the_back() -> None:
    rnd = table(("1111p222p333p44p5m", "", "", ""), "9s", replacements="7m")
    act(rnd, 0, type="ankan")
    assert [e.type for e in rnd.events[-2:]] == ["ankan", "tsumo"]
    assert rnd.events[-1].pai == T.parse("7m")[0]
    assert rnd.wall.remaining == 108 - 52 - 2
    assert rnd.turn == 0 and rnd.phase == "act"


def test_open_kong_on_a_discard() -> None:
    rnd = table(("5m111p222p333p444p", "555m123s456s789s1s", "", ""), "9s", replacements="9m")
    discard(rnd, 0, "5m")
    assert types(rnd, 1) == {"pon", "daiminkan", "none"}
    act(rnd, 1, type="daiminkan")
    assert [e.type for e in rnd.events[-2:]] == ["daiminkan", "tsumo"]
    assert rnd.events[-1].pai == T.parse("9m")[0] and rnd.turn == 1


_ROB = (
    "5p111m222m333m444m",  # dealer, discards 5p
    "55p123s456s789s9p8p",  # pongs 5p, later draws the fourth
    "567m678m789m34p66p",  # waits on 2p / 5p
    "",
)


def _to_added_kong(rules: Suits108Rules = PAPER) -> Suits108Round:
    rnd = table(_ROB, "9s9p1p7p5p", rules=rules)
    discard(rnd, 0, "5p")
    act(rnd, 1, type="pon")
    discard(rnd, 1, "8p")
    for seat, tile in ((2, "9p"), (3, "1p"), (0, "7p")):
        if rnd.phase == "claim":
            pass_all(rnd)
        discard(rnd, seat, tile)
    if rnd.phase == "claim":
        pass_all(rnd)
    act(rnd, 1, type="kakan")
    return rnd


def test_added_kong_can_be_robbed() -> None:
    rnd = _to_added_kong()
    assert types(rnd, 2) == {"hora", "none"}
    act(rnd, 2, type="hora")
    win = last(rnd, "hora")
    assert (win.actor, win.target, win.pai) == (2, 1, T.parse("5p")[0])
    assert win.deltas == (0, -1000, 1000, 0)


def test_added_kong_stands_when_robbing_is_off() -> None:
    rnd = _to_added_kong(PAPER.with_(rob_added_kong=False))
    assert rnd.events[-1].type == "tsumo" and rnd.events[-2].type == "kakan"
    assert rnd.melds[1][0].type == "kakan"


# --------------------------------------------------------------------------- declaration

_READY = (
    "123m456m789m234p5p",  # dealer: ready after discarding 9s (or 5p)
    "123456789s1122s",
    "123456789m1234m",
    "55667788p99p678s",
)
_READY_DRAWS = "9s9p6s3m1s5p"  # 0: 9s, 1: 9p, 2: 6s, 3: 3m, 0: 1s, 1: 5p


def _declare(rules: Suits108Rules = PAPER) -> Suits108Round:
    rnd = table(_READY, _READY_DRAWS, rules=rules)
    assert "reach" in types(rnd, 0)
    act(rnd, 0, type="reach")
    assert rnd.events[-1] == Event("reach", actor=0)
    offered = {e.pai for e in legal(rnd, 0)}
    assert offered == set(T.parse("2p5p9s")), "only discards that keep the hand ready"
    discard(rnd, 0, "9s")
    pass_all(rnd)
    assert rnd.events[-2] == Event("reach_accepted", actor=0, scores=(25000,) * 4)
    assert rnd.declared[0]
    assert rnd.locked_waits[0] == tuple(T.parse("2p5p"))
    return rnd


def test_declaration_is_offered_only_to_a_ready_hand() -> None:
    rnd = table(_READY, _READY_DRAWS)
    assert "reach" in types(rnd, 0)
    not_ready = table(("123m456m789m24p5p1s", "", "", ""), "9s")
    assert "reach" not in types(not_ready, 0)


def test_declaration_can_be_switched_off() -> None:
    rnd = table(_READY, _READY_DRAWS, rules=PAPER.with_(ready_declaration=False))
    assert "reach" not in types(rnd, 0)


def test_declaring_with_a_discard_that_breaks_the_wait_is_illegal() -> None:
    rnd = table(_READY, _READY_DRAWS)
    act(rnd, 0, type="reach")
    with pytest.raises(IllegalActionError):
        rnd.step({0: Event("dahai", actor=0, pai=T.parse("1m")[0], tsumogiri=False)})


def _to_locked_draw(rnd: Suits108Round) -> None:
    """Seats 1-3 discard what they draw (passing every claim) until seat 0 draws again."""
    for seat, tile in ((1, "9p"), (2, "6s"), (3, "3m")):
        discard(rnd, seat, tile)
        if rnd.phase == "claim":
            assert not legal(rnd, 0), "a locked hand may not chow or pong"
            pass_all(rnd)


def test_locked_hand_discards_its_draw_automatically() -> None:
    rnd = _declare()
    _to_locked_draw(rnd)
    one_s = T.parse("1s")[0]
    i = max(i for i, e in enumerate(rnd.events) if e.type == "tsumo" and e.actor == 0)
    assert rnd.events[i].pai == one_s
    assert rnd.events[i + 1] == Event("dahai", actor=0, pai=one_s, tsumogiri=True)
    assert all(d.seat != 0 for d in rnd.pending())


def test_forced_discard_as_a_one_option_decision() -> None:
    rnd = _declare(PAPER.with_(auto_discard_when_locked=False))
    _to_locked_draw(rnd)
    assert legal(rnd, 0) == [Event("dahai", actor=0, pai=T.parse("1s")[0], tsumogiri=True)]


def test_locked_hand_wins_with_the_ready_bonus() -> None:
    rnd = _declare()
    _to_locked_draw(rnd)
    if rnd.phase == "claim":
        pass_all(rnd)
    discard(rnd, 1, "5p")
    assert "hora" in types(rnd, 0)
    act(rnd, 0, type="hora")
    win = last(rnd, "hora")
    assert win.yaku == (("normal", 1), ("ready", 2))
    assert win.deltas == (2000, -2000, 0, 0)


def test_locked_hand_may_kong_when_the_wait_stays() -> None:
    hands = ("111m456m789m234p5p", "123456789s1122s", "", "")
    rnd = table(hands, "9s9p6s3p1m", replacements="9m")
    act(rnd, 0, type="reach")
    discard(rnd, 0, "9s")
    pass_all(rnd)
    for seat, tile in ((1, "9p"), (2, "6s"), (3, "3p")):
        if rnd.phase == "claim":
            pass_all(rnd)
        discard(rnd, seat, tile)
    if rnd.phase == "claim":
        pass_all(rnd)
    assert types(rnd, 0) == {"ankan", "dahai"}
    act(rnd, 0, type="ankan")
    # The replacement 9m neither wins nor kongs, so the engine discards it at once.
    nine = T.parse("9m")[0]
    i = max(i for i, e in enumerate(rnd.events) if e.type == "ankan")
    assert rnd.events[i + 1] == Event("tsumo", actor=0, pai=nine)
    assert rnd.events[i + 2] == Event("dahai", actor=0, pai=nine, tsumogiri=True)
    assert rnd.locked_waits[0] == rnd.waits_of(0)


def test_locked_hand_may_not_kong_when_the_wait_changes() -> None:
    # 111m23m456p789p55s waits on 1m, 4m and 5s; a closed kong of 1m would leave 1m-4m only.
    hands = ("111m23m456p789p55s", "123456789s1122s", "", "")
    rnd = table(hands, "9s9p6s3p1m")
    act(rnd, 0, type="reach")
    discard(rnd, 0, "9s")
    pass_all(rnd)
    for seat, tile in ((1, "9p"), (2, "6s"), (3, "3p")):
        if rnd.phase == "claim":
            pass_all(rnd)
        discard(rnd, seat, tile)
    if rnd.phase == "claim":
        pass_all(rnd)
    assert types(rnd, 0) == {"hora", "dahai"}


# --------------------------------------------------------------------------- several winners

_DOUBLE = ("5p111m222m333m444m", "", "567m678m789m34p66p", "567s678s789s34p11s")


def test_first_winner_in_turn_order_takes_the_discard() -> None:
    rnd = table(_DOUBLE, "9s")
    discard(rnd, 0, "5p")
    rnd.step(
        {d.seat: next(e for e in d.legal if e.type in ("hora", "none")) for d in rnd.pending()}
    )
    wins = [e for e in rnd.events if e.type == "hora"]
    assert [w.actor for w in wins] == [2]


def test_several_winners_when_allowed() -> None:
    rnd = table(_DOUBLE, "9s", rules=PAPER.with_(multiple_winners=True))
    discard(rnd, 0, "5p")
    rnd.step(
        {d.seat: next(e for e in d.legal if e.type in ("hora", "none")) for d in rnd.pending()}
    )
    wins = [e for e in rnd.events if e.type == "hora"]
    assert [w.actor for w in wins] == [2, 3]
    assert rnd.scores == [23000, 25000, 26000, 26000]


# --------------------------------------------------------------------------- exhaustive draw


def test_exhaustive_draw_pays_nothing_after_the_whole_wall() -> None:
    wall = Suits108Wall(seeded_shuffle(TILESET, 2024))
    rnd = Suits108Round(PAPER, wall, hand_index=0, dealer=0, scores=[25000] * 4)
    while not rnd.done:
        answers = {}
        for d in rnd.pending():
            if rnd.phase in ("claim", "rob"):
                answers[d.seat] = Event("none")
            else:
                answers[d.seat] = next(e for e in d.legal if e.type == "dahai" and e.tsumogiri)
        rnd.step(answers)
    assert rnd.events[-2] == Event("ryukyoku", kind="exhaustive", deltas=(0, 0, 0, 0))
    assert rnd.wall.remaining == 0
    assert sum(e.type == "tsumo" for e in rnd.events) == 108 - 52
    assert rnd.scores == [25000] * 4

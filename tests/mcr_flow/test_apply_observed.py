"""``TableRound.apply_observed``: a move made outside the offered choices (a stand-in seat's,
as a Botzone bot's rebuilt state applies them) is checked against the table and applied by the
same code as a chosen move."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from tenpai.engine.agent import RandomAgent
from tenpai.engine.flow import IllegalActionError
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE
from tenpai.rules.mcr.flow.wall import SeatWalls
from tenpai.rules.mcr.game import MCRGame
from tenpai.tiles import from_botzone

_HANDS = ["W1 W2 W3 W5 W5 B1 B2 B3 T7 T8 F1 F1 J1", "W9 W9 B4 B5 B6 T1 T2 T3 F2 F3 J2 J2 J3",
          "W4 W6 B7 B8 B9 T4 T5 T6 F4 F4 J1 J1 W7", "W5 W6 W7 B2 B3 B4 T9 T9 T9 F2 F3 J3 W8"]
_OBSERVABLE = ("dahai", "pon", "chi", "daiminkan", "ankan", "kakan")
_WALLS = ["J1 W4 T1", "B9 W1 T2", "T7 W2 T3", "J2 W3 T4"]


def _t(name: str) -> int:
    return from_botzone(name)


def _ts(names: str) -> tuple[int, ...]:
    return tuple(_t(n) for n in names.split())


def _round() -> MCRRound:
    walls = SeatWalls([list(_ts(h)) for h in _HANDS], [list(_ts(w)) for w in _WALLS])
    return MCRRound(BOTZONE, walls, dealer=0, prevalent_wind=0)


def _discard(rnd: MCRRound, seat: int, name: str) -> None:
    """``seat`` discards ``name`` from its hand, as offered."""
    (d,) = [d for d in rnd.pending() if d.seat == seat]
    rnd.step({seat: next(e for e in d.legal if e.type == "dahai" and e.pai == _t(name))})


def _state(rnd: MCRRound) -> tuple[object, ...]:
    return (rnd.events, rnd.hands, rnd.melds, rnd.rivers, rnd.river_called, rnd.phase, rnd.turn,
            rnd.drawn, rnd.last_discard, [(d.seat, d.legal) for d in rnd.pending()])


def _phase(rnd: MCRRound) -> str:
    """``rnd.phase`` read through a call: mypy keeps the attribute narrowed by an earlier
    assert across the moves that change it."""
    return rnd.phase


def test_a_discard_the_round_did_not_offer_in_that_form() -> None:
    """The drawn tile, held once, is offered only as a tsumogiri; a view that cannot know
    whether a discard was the drawn tile applies it as a hand discard, and the round goes on
    as after the offered one."""
    rnd = _round()
    _discard(rnd, 0, "J1")
    rnd.step({})  # seat 2 could pong it; nobody does
    b9 = _t("B9")
    assert rnd.turn == 1 and rnd.drawn == b9 and rnd.hands[1].count(b9) == 1
    hand_discard = Event("dahai", actor=1, pai=b9, tsumogiri=False)
    with pytest.raises(IllegalActionError):
        copy.deepcopy(rnd).step({1: hand_discard})
    chosen = copy.deepcopy(rnd)
    chosen.step({1: Event("dahai", actor=1, pai=b9, tsumogiri=True)})
    rnd.apply_observed(hand_discard)
    assert rnd.events[-1] == hand_discard
    got, want = _state(rnd), _state(chosen)
    assert rnd.events[:-1] == chosen.events[:-1] and got[1:] == want[1:]  # only the flag differs


def _random_game(seed: int) -> tuple[list[dict[int, Event]], tuple[object, ...]]:
    """The answers of a seeded random hand, step by step, and the round at its end."""
    rnd = MCRGame(BOTZONE, seed=seed).round
    assert rnd is not None
    agents = [RandomAgent(seed * 4 + s) for s in range(4)]
    script = []
    while not rnd.done:
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()}
        script.append(answers)
        rnd.step(answers)
    return script, _state(rnd)


def test_random_hands_replayed_through_apply_observed() -> None:
    """Seeded random hands played again with every lone move (one seat acts, the others pass)
    applied by ``apply_observed`` instead of ``step`` end exactly as they did."""
    applied: Counter[str] = Counter()
    for seed in range(6):
        script, want = _random_game(seed)
        rnd = MCRGame(BOTZONE, seed=seed).round
        assert rnd is not None
        for answers in script:
            moves = [a for a in answers.values() if a.type != "none"]
            if len(moves) == 1 and moves[0].type in _OBSERVABLE:
                rnd.apply_observed(moves[0])
                applied[moves[0].type] += 1
            else:
                rnd.step(answers)
        assert _state(rnd) == want, seed
    assert applied["dahai"] > 300 and applied["pon"] + applied["chi"] > 10, applied


def _as_if_stepped(rnd: MCRRound, move: Event) -> None:
    """Apply ``move`` by ``apply_observed`` and check the round equals a copy that chose it
    through ``step`` (an open claim window is passed first)."""
    if move.type not in ("pon", "chi", "daiminkan"):
        while rnd.phase in ("claim", "rob"):
            rnd.step({})
    stepped = copy.deepcopy(rnd)
    stepped.step({move.actor: move} if move.actor is not None else {})
    rnd.apply_observed(move)
    assert _state(rnd) == _state(stepped), move


def test_kongs_as_if_chosen() -> None:
    """A concealed kong, a pong and the kong added to it, each as ``step`` applies it."""
    hands = ["J2 J2 J2 J2 T9 T9 W1 W2 W3 B1 B2 B3 F1", "T9 W4 W5 W6 B4 B5 B6 T1 T2 T3 F3 F3 J1",
             "W7 W8 W9 B7 B8 B9 T4 T5 T6 F4 F4 J3 J3", "W1 W2 W3 B1 B2 B3 T4 T5 T6 W7 W8 W9 J1"]
    walls = ["F2 F4 T9 W4", "B5 B6 W5", "T1 T2", "T3 T7"]  # a kong leaves the next a draw
    rnd = MCRRound(BOTZONE, SeatWalls([list(_ts(h)) for h in hands],
                                      [list(_ts(w)) for w in walls]), dealer=0, prevalent_wind=0)
    j2, t9 = _t("J2"), _t("T9")
    _as_if_stepped(rnd, Event("ankan", actor=0, consumed=(j2,) * 4))
    assert rnd.drawn == _t("F4")  # the replacement draw
    _as_if_stepped(rnd, Event("dahai", actor=0, pai=_t("F2"), tsumogiri=False))
    _as_if_stepped(rnd, Event("dahai", actor=1, pai=t9, tsumogiri=False))
    _as_if_stepped(rnd, Event("pon", actor=0, target=1, pai=t9, consumed=(t9, t9)))
    _as_if_stepped(rnd, Event("dahai", actor=0, pai=_t("F1"), tsumogiri=False))
    for seat, tile in ((1, "B6"), (2, "T1"), (3, "T3")):
        _as_if_stepped(rnd, Event("dahai", actor=seat, pai=_t(tile), tsumogiri=True))
    assert rnd.turn == 0 and rnd.drawn == t9
    pon = next(m for m in rnd.melds[0] if m.type == "pon")
    _as_if_stepped(rnd, Event("kakan", actor=0, pai=t9, consumed=pon.tiles))
    assert [m.type for m in rnd.melds[0]] == ["ankan", "kakan"] and rnd.drawn == _t("W4")


@pytest.mark.parametrize("move", [
    Event("dahai", actor=2, pai=_t("W4"), tsumogiri=False),       # not its turn
    Event("dahai", actor=0, pai=_t("B9"), tsumogiri=False),       # not in hand
    Event("pon", actor=1, target=0, pai=_t("J1"),
          consumed=_ts("J1 J1")),                               # no discard yet
    Event("kakan", actor=0, pai=_t("W5"), consumed=_ts("W5 W5 W5")),  # no pong
    Event("ankan", actor=0, consumed=_ts("W5 W5 W5 W6")),         # not one kind
    Event("reach", actor=0),                                            # not a table move
])
def test_refused_moves_leave_the_round_as_it_was(move: Event) -> None:
    rnd = _round()
    before = copy.deepcopy(_state(rnd))
    with pytest.raises(IllegalActionError):
        rnd.apply_observed(move)
    assert _state(rnd) == before


def test_calls_need_the_open_discard() -> None:
    rnd = _round()
    _discard(rnd, 0, "J1")
    assert rnd.phase == "claim"  # seat 2 holds a pair of J1
    j1, w5 = _t("J1"), _t("W5")
    wrong = [
        Event("pon", actor=0, target=0, pai=j1, consumed=(j1, j1)),       # its own discard
        Event("pon", actor=2, target=0, pai=w5, consumed=(w5, w5)),       # not the discard
        Event("pon", actor=2, target=1, pai=j1, consumed=(j1, j1)),       # not seat 1's
        Event("pon", actor=3, target=0, pai=j1, consumed=(j1, j1)),       # no pair held
        Event("chi", actor=2, target=0, pai=w5,
              consumed=_ts("W4 W6")),                             # not the next seat
    ]
    for move in wrong:
        before = copy.deepcopy(_state(rnd))
        with pytest.raises(IllegalActionError):
            rnd.apply_observed(move)
        assert _state(rnd) == before, move
    stepped = copy.deepcopy(rnd)
    pon = Event("pon", actor=2, target=0, pai=j1, consumed=(j1, j1))
    stepped.step({2: pon})
    rnd.apply_observed(pon)
    assert _state(rnd) == _state(stepped) and _phase(rnd) == "discard" and rnd.turn == 2


def test_nothing_after_the_hand_ended() -> None:
    rnd = _round()
    rnd.phase = "ended"
    with pytest.raises(IllegalActionError, match="the hand is over"):
        rnd.apply_observed(Event("dahai", actor=0, pai=_t("J1"), tsumogiri=False))

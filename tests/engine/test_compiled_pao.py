"""Pao on both Riichi rounds: scripted big-three-dragons and big-four-winds hands whose last
dragon or wind set is called (a pon, or for the winds also an open kan).

Random and rule-agent games almost never reach pao (a yakuman completed by a called third
dragon set), so the compiled table's differential games say little about it.  Here one hand is
scripted so that seat 1 calls all three dragon sets, the last one from seat 3, and then wins
by self-draw or on seat 0's discard: the responsible seat pays the whole self-drawn yakuman,
and half of the one won on a discard.  Both rounds must agree on every legal action, event,
result and score (``compiled_pairs.play_hand_both``), and the result must carry the pao.  The
``hora`` event names the liable seat (``Event.pao``) exactly when the win is paid under pao, and
an engine game exported to mjlog keeps it (``paoWho``).  With ``TENPAI_PURE_PYTHON=1`` or
rules the compiled table is not proven for, the hands are played on the Python round alone
(``compiled_pairs.play_hand``).  The big-four-winds hands (seat 1 calls all four winds, the
north from seat 3) are paid the same way, one yakuman under ``TENHOU``.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections import deque
from collections.abc import Callable
from typing import Any

import pytest
from compiled_pairs import play_hand

from tenpai.arena.record import pack_events
from tenpai.events import Event
from tenpai.records.mjai import parse_mjai
from tenpai.records.mjlog_read import parse_mjlog
from tenpai.records.mjlog_write import game_to_mjlog
from tenpai.records.tenhou6_read import parse_tenhou6
from tenpai.records.tenhou6_write import game_to_tenhou6
from tenpai.rules.riichi.flow.types import WinOutcome
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules
from tenpai.serve.mjai.wire import event_to_wire
from tenpai.serve.tenhou import messages

HAKU, HATSU, CHUN = 31, 32, 33
ONE_PIN = 9  # seat 1's single wait once its three dragon sets are called

#: Seat 1 holds two of each dragon; seats 0, 2 and 3 hold the third haku, hatsu and chun.
HANDS = [
    [HAKU, 1, 2, 3, 5, 6, 7, 14, 15, 16, 23, 24, 25],
    [HAKU, HAKU, HATSU, HATSU, CHUN, CHUN, 0, 1, 2, 9, 10, 11, 18],
    [HATSU, 1, 2, 3, 5, 6, 7, 14, 15, 16, 23, 24, 25],
    [CHUN, 19, 20, 21, 19, 20, 21, 12, 12, 26, 26, 17, 17],
]


def _wall(first_draws: list[int], hands: list[list[int]]) -> Callable[[], RoundWall]:
    """The scripted hands, then these live draws in order, the rest shuffled (seed 7)."""
    def make() -> RoundWall:
        left = list(RiichiGame.tileset_for(TENHOU))
        for t in [t for h in hands for t in h] + first_draws:
            left.remove(t)
        random.Random(7).shuffle(left)
        live = [*first_draws, *left[: 70 - len(first_draws)]]
        dead = left[70 - len(first_draws):]
        return RoundWall(hands=[list(h) for h in hands], live=live, dora=dead[0:5],
                         ura=dead[5:10], rinshan=dead[10:14])
    return make


def _script(plans: dict[int, list[tuple[str, int | None]]]) -> Callable[[Any], Event]:
    """Each seat plays its plan in order (a step is taken when it is offered), seat 1 takes
    any win once its plan is done (its hand is ready earlier, on a
    two-pair wait), everything else passes or discards the drawn tile (the last legal action)."""
    queues = {seat: deque(plan) for seat, plan in plans.items()}

    def answer(d: Any) -> Event:
        if d.seat == 1 and not queues[1]:
            win = next((e for e in d.legal if e.type == "hora"), None)
            if win is not None:
                return win  # type: ignore[no-any-return]
        queue = queues.get(d.seat)
        if queue:
            kind, pai = queue[0]
            for e in d.legal:
                if e.type == kind and (pai is None or e.pai == pai):
                    queue.popleft()
                    return e  # type: ignore[no-any-return]
        return d.legal[-1]  # type: ignore[no-any-return]
    return answer


PLANS: dict[int, list[tuple[str, int | None]]] = {
    0: [("dahai", HAKU)],
    1: [("pon", None), ("dahai", 18), ("pon", None), ("dahai", 11), ("pon", None),
        ("dahai", 10)],
    2: [("dahai", HATSU)],
    3: [("dahai", CHUN)],
}
#: The live draws before seat 1's next one: seat 0 (then it discards haku), 2 (hatsu), 2 (its
#: draw), 3 (chun), 2, 3 and 0 — six of them here, the seventh is chosen by each test.
FILLER = [8, 8, 8, 26, 17, 18]


def _play(first_draws: list[int], plans: dict[int, list[tuple[str, int | None]]],
          rules: RiichiRules = TENHOU, hands: list[list[int]] = HANDS) -> Any:
    rounds = play_hand(rules, _wall(first_draws, hands), [25_000] * 4, _script(plans))
    return rounds[0]


def _hora(rnd: Any) -> Event:
    events: list[Event] = rnd.events
    (hora,) = [e for e in events if e.type == "hora"]
    return hora


def test_self_drawn_big_three_dragons_is_paid_by_the_seat_that_fed_the_third_set() -> None:
    rnd = _play([*FILLER, 0, ONE_PIN], PLANS)  # seat 1 draws the one of pin, the 8th draw
    result = rnd.result
    assert result.kind == "hora" and result.winners == [1]
    assert [m.type for m in rnd.melds[1]] == ["pon", "pon", "pon"]
    assert rnd.pao[1] == 3
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    # the whole yakuman (32,000 and the honba) from seat 3, the riichi stick to the winner
    assert deltas[0] == deltas[2] == 0
    assert deltas[3] == -(32_000 + 300) and deltas[1] == 32_000 + 300 + 1_000
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 1, 3)
    assert ("daisangen", 13) in hora.yaku


def test_big_three_dragons_on_a_discard_is_split_with_the_responsible_seat() -> None:
    # seat 0 draws the one of pin at its second turn and lets it go (its plan is done)
    rnd = _play([*FILLER, ONE_PIN], PLANS)
    result = rnd.result
    assert result.kind == "hora" and result.winners == [1]
    assert rnd.pao[1] == 3
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    # half each from the discarder and the responsible seat; the honba with the responsible
    # seat (``payments.py``: the liable seat pays the honba whether the win is drawn or not)
    assert deltas[2] == 0
    assert deltas[0] == -16_000 and deltas[3] == -(16_000 + 300)
    assert deltas[1] == 32_000 + 300 + 1_000
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 0, 3)


def test_big_three_dragons_dealt_in_by_the_responsible_seat_still_names_it() -> None:
    # the one of man goes round (seats 0, 1 and 2 draw and discard it), seat 3 draws the one
    # of pin, its 10th draw, and lets it go: an ordinary ron, the liable seat paying it all
    rnd = _play([*FILLER, 0, 0, 0, ONE_PIN], PLANS)
    assert rnd.result.kind == "hora" and rnd.result.winners == [1]
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    assert deltas == [0, 32_000 + 300 + 1_000, 0, -(32_000 + 300)]
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 3, 3)


def test_a_win_not_paid_under_pao_names_no_liable_seat() -> None:
    # the same hand when the rules make only daisuushii liable: the engine still notes who fed
    # the third dragon, but the win is paid as an ordinary self-draw, so the event has no pao
    rules = TENHOU.with_(pao_yakuman=frozenset({"daisuushii"}))
    rnd = _play([*FILLER, 0, ONE_PIN], PLANS, rules)
    assert rnd.pao[1] == 3 and rnd.result.winners == [1]
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    assert deltas == [-16_100, 32_000 + 300 + 1_000, -8_100, -8_100]
    assert _hora(rnd).pao is None


def test_an_ordinary_win_names_no_liable_seat() -> None:
    # seat 1 pons haku only and wins on seat 2's hatsu (haku and hatsu, no yakuman)
    plans = {**PLANS, 1: [("pon", None), ("dahai", 18)]}
    rnd = _play([*FILLER, 0, ONE_PIN], plans)
    hora = _hora(rnd)
    assert (hora.actor, hora.target, rnd.pao[1]) == (1, 2, None)
    assert not any(name == "daisangen" for name, _ in hora.yaku)
    assert hora.pao is None and "pao" not in hora.to_mjai()


@pytest.mark.parametrize("draws", [[*FILLER, 0, ONE_PIN], [*FILLER, ONE_PIN]],
                         ids=["tsumo", "ron"])
def test_an_engine_game_exported_to_mjlog_and_tenhou6_keeps_the_liable_seat(
        draws: list[int]) -> None:
    rnd = _play(draws, PLANS)
    final = tuple(rnd.scores)
    events = [Event("start_game", names=("a", "b", "c", "d")), *rnd.events,
              Event("end_game", scores=final)]
    # the arena's path: events stored as mjai lines, read back as a record, then exported
    game = parse_mjai(zlib.decompress(pack_events(events)).decode("utf-8"), "engine")
    assert [e.pao for e in game.rounds[0] if e.type == "hora"] == [3]
    xml = game_to_mjlog(game)
    assert re.findall(r'<AGARI [^>]*paoWho="(\d)"', xml) == ["3"]
    back = parse_mjlog(xml, "written")
    assert [(e.actor, e.pao) for e in back.rounds[0] if e.type == "hora"] == [(1, 3)]
    t6 = parse_tenhou6(json.dumps(game_to_tenhou6(game)), "written")
    assert [(e.actor, e.pao) for e in t6.rounds[0] if e.type == "hora"] == [(1, 3)]


def test_a_pao_win_sent_to_clients_names_the_liable_seat() -> None:
    """Tenhou's protocol has ``paoWho`` (relative to the client's seat, as ``who``); an mjai
    server's ``hora`` carries the event's ``pao`` as one more key (mjai defines none)."""
    rnd = _play([*FILLER, ONE_PIN], PLANS)
    hora, start = _hora(rnd), rnd.events[0]
    tags = [messages.agari(hora, start, [0] * 14, [], 0, [], [], [25_000] * 4, 1, viewer, None)
            for viewer in range(4)]
    assert [re.findall(r'paoWho="(\d)"', t) for t in tags] == [["3"], ["2"], ["1"], ["0"]]
    assert event_to_wire(hora, rnd.scores)["pao"] == 3



EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30

#: Daisuushii: seat 1 holds two of each wind (three norths when its fourth call is an open kan);
#: seat 0 feeds the east, seat 2 the south and seat 3 the west and then the north.  The first
#: six draws are :data:`FILLER`'s, as in :data:`PLANS`, seat 3 discarding the north where it
#: kept its sixth draw; after its fourth call seat 1 waits on the one of pin alone, and the
#: next draws are seat 2's, seat 3's, seat 0's and then seat 1's.
_WIND_OTHERS = [
    [EAST, 1, 2, 3, 5, 6, 7, 14, 15, 16, 23, 24, 25],
    [SOUTH, 1, 2, 3, 5, 6, 7, 14, 15, 16, 23, 24, 25],
    [WEST, NORTH, 19, 20, 21, 19, 20, 21, 12, 12, 26, 26, 17],
]
WIND_HANDS = {
    "pon": [_WIND_OTHERS[0],
            [EAST, EAST, SOUTH, SOUTH, WEST, WEST, NORTH, NORTH, 0, 9, 10, 11, 18],
            *_WIND_OTHERS[1:]],
    "daiminkan": [_WIND_OTHERS[0],
                  [EAST, EAST, SOUTH, SOUTH, WEST, WEST, NORTH, NORTH, NORTH, 9, 10, 11, 18],
                  *_WIND_OTHERS[1:]],
}
#: After a pon seat 1 lets the one of man go; after the open kan it discards its replacement
#: draw (the last legal action), so both end on the same single wait.
WIND_PLANS: dict[str, dict[int, list[tuple[str, int | None]]]] = {
    fourth: {
        0: [("dahai", EAST)],
        1: [("pon", None), ("dahai", 18), ("pon", None), ("dahai", 11), ("pon", None),
            ("dahai", 10), (fourth, NORTH), *([("dahai", 0)] if fourth == "pon" else [])],
        2: [("dahai", SOUTH)],
        3: [("dahai", WEST), ("dahai", NORTH)],
    }
    for fourth in ("pon", "daiminkan")
}


def _play_winds(fourth: str, draws: list[int]) -> Any:
    rnd = _play([*FILLER, *draws], WIND_PLANS[fourth], hands=WIND_HANDS[fourth])
    assert rnd.result.kind == "hora" and rnd.result.winners == [1]
    assert [m.type for m in rnd.melds[1]] == ["pon", "pon", "pon", fourth]
    assert rnd.pao[1] == 3
    assert [name for name, _ in _hora(rnd).yaku] == ["daisuushii"]
    return rnd


@pytest.mark.parametrize("fourth", ["pon", "daiminkan"])
def test_self_drawn_big_four_winds_is_paid_by_the_seat_that_fed_the_fourth_wind(
        fourth: str) -> None:
    # the one of man goes round (seats 2, 3 and 0 draw and discard it), seat 1 draws the pin
    rnd = _play_winds(fourth, [0, 0, 0, ONE_PIN])
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 1, 3)
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    # Tenhou: one yakuman, all of it and the honba from the liable seat, the stick to the winner
    assert deltas == [0, 32_000 + 300 + 1_000, 0, -(32_000 + 300)]


@pytest.mark.parametrize("fourth", ["pon", "daiminkan"])
def test_big_four_winds_on_a_third_seats_discard_is_split_with_the_liable_seat(
        fourth: str) -> None:
    # seat 2 (neither the winner nor the liable seat) draws the one of pin and lets it go
    rnd = _play_winds(fourth, [ONE_PIN])
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 2, 3)
    deltas = [rnd.scores[s] - 25_000 for s in range(4)]
    # half each, the honba with the liable seat (as the big-three-dragons split above)
    assert deltas == [0, 32_000 + 300 + 1_000, -16_000, -(16_000 + 300)]


def test_big_four_winds_dealt_in_by_the_liable_seat_is_paid_by_it_alone() -> None:
    rnd = _play_winds("pon", [0, ONE_PIN])  # seat 3 draws the one of pin and lets it go
    hora = _hora(rnd)
    assert (hora.actor, hora.target, hora.pao) == (1, 3, 3)
    assert [rnd.scores[s] - 25_000 for s in range(4)] == [0, 32_000 + 300 + 1_000, 0,
                                                           -(32_000 + 300)]


def test_a_scorers_outcome_must_name_the_liable_seat() -> None:
    """``WinOutcome.pao`` has no default: a scorer plugged into the rounds that forgot it
    would drop the liable seat from the ``hora`` event silently; now it cannot be built."""
    fields: dict[str, Any] = {"han": 13, "fu": 30, "yaku": (("daisuushii", 13),), "points": 32_000,
              "deltas": (0, 32_000, 0, -32_000)}
    with pytest.raises(TypeError, match="pao"):
        WinOutcome(**fields)
    assert WinOutcome(**fields, pao=3).pao == 3
    assert WinOutcome(**fields, pao=None).pao is None

"""Three-player Riichi (``tenhou_sanma``) on the compiled table against the Python round.

The same proof as ``test_compiled_round.py`` gives for four players: seeded games of random and
rule agents played on both rounds give the same events, hand results and final scores; the
observations are equal at every decision; scripted hands set a North aside (robbed, passed and
then furiten, won on its replacement draw); bad states and bad answers raise typed errors.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from compiled_pairs import observations_checked, play_hand_both, same_games

from tenpai.engine.flow import IllegalActionError
from tenpai.events import Event
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.compiled_round import (
    CompiledRound,
    CompiledTableError,
    deal_state,
    open_table,
)
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA

built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")
SANMA_TONPUU = TENHOU_SANMA.with_(length="tonpuu")
NORTH = 30

@built
def test_random_sanma_hanchan_give_identical_events() -> None:
    seen = same_games(range(16), ["random"], TENHOU_SANMA)
    assert seen["hands"] >= 120 and seen["nukidora"] >= 100


@built
def test_rule_agents_give_identical_sanma_events() -> None:
    seen = same_games(range(30), ["efficiency", "random", "defensive"], SANMA_TONPUU)
    assert seen["hands"] >= 90 and seen["nukidora"] >= 150 and seen["hora"] >= 80


@built
def test_eager_agents_give_identical_sanma_events() -> None:
    seen = same_games(range(16), ["eager", "efficiency", "eager"], SANMA_TONPUU)
    assert seen["hands"] >= 55 and seen["reach_accepted"] >= 40 and seen["nukidora"] >= 100
    assert seen["pon"] >= 20 and seen["chi"] == 0


@built
@pytest.mark.slow
def test_five_hundred_sanma_hanchan_give_identical_events() -> None:
    seen = same_games(range(6000, 6200), ["random"], TENHOU_SANMA)
    seen += same_games(range(7000, 7200), ["efficiency", "random", "defensive"],
                       TENHOU_SANMA)
    seen += same_games(range(8000, 8150), ["eager", "efficiency", "eager"], TENHOU_SANMA)
    assert seen["hands"] >= 4_000 and seen["nukidora"] >= 4_000


@built
def test_sanma_observations_equal_the_python_ones() -> None:
    for seed in range(3):
        assert observations_checked(SANMA_TONPUU, seed) > 200


def test_sanma_engine_choice() -> None:
    assert compiled_round.covers(TENHOU_SANMA) and compiled_round.covers(SANMA_TONPUU)
    auto = RiichiGame(TENHOU_SANMA, seed=1, engine="auto")
    assert auto.compiled is compiled_round.available()
    assert isinstance(auto.current, CompiledRound if auto.compiled else RiichiRound)
    # sanma without Norths, or with Mahjong Soul's four-player flags, is not proven
    for rules in (TENHOU_SANMA.with_(nukidora=False), TENHOU_SANMA.with_(noten_penalty=3000)):
        assert not compiled_round.covers(rules)
        assert RiichiGame(rules, seed=1, engine="auto").compiled is False


# ---------------------------------------------------------------------- scripted hands


def _sanma_wall(hands: list[list[int]], *, draws: tuple[int, ...] = (),
                rinshan: tuple[int, ...] = (), shuffle_seed: int = 3) -> RoundWall:
    """A 108-tile wall with these hands, ``draws`` first in the live wall and ``rinshan``
    first among the replacement tiles; the rest shuffled by ``shuffle_seed``."""
    left = list(RiichiGame.tileset_for(TENHOU_SANMA))
    for t in [t for h in hands for t in h] + [*draws, *rinshan]:
        left.remove(t)
    random.Random(shuffle_seed).shuffle(left)
    n_live = 55 - len(draws)
    live, rest = [*draws, *left[:n_live]], left[n_live:]
    return RoundWall(hands=hands, live=live, dora=rest[0:5], ura=rest[5:10],
                     rinshan=[*rinshan, *rest[10:14 - len(rinshan)]], max_replacements=8)


def _play_both(make_wall: Any, answer: Any) -> list[Any]:
    return play_hand_both(TENHOU_SANMA, make_wall, [35_000, 34_000, 35_000], answer)


def _north_shanpon_wall() -> RoundWall:
    """The dealer holds a North and a 1m; seat 1 waits on North or 1m (123456789p NN 1m1m)."""
    hands = [
        [30, 0, 19, 19, 20, 20, 21, 22, 23, 24, 25, 25, 13],
        [9, 10, 11, 12, 13, 14, 15, 16, 17, 30, 30, 0, 0],
        [27, 27, 28, 28, 29, 31, 31, 32, 33, 21, 22, 24, 25],
    ]
    return _sanma_wall(hands, draws=(33,))


def _north_then_1m(rob: bool, log: list[tuple[int, tuple[str, ...]]]) -> Any:
    """The dealer sets its North aside, then discards 1m; seat 1 robs the North or passes."""
    def answer(d: Any) -> Event:
        legal: tuple[Event, ...] = d.legal
        log.append((d.seat, tuple(e.type for e in legal)))
        types = {e.type: e for e in legal}
        if d.seat == 0 and "nukidora" in types:
            return types["nukidora"]
        if d.seat == 1 and "hora" in types and types["hora"].pai == NORTH:
            return types["hora"] if rob else legal[-1]
        one_m = [e for e in legal if e.type == "dahai" and e.pai == 0 and d.seat == 0]
        return one_m[0] if one_m else legal[-1]
    return answer


@built
def test_a_robbed_north_is_an_ordinary_ron() -> None:
    log: list[tuple[int, tuple[str, ...]]] = []
    rounds = _play_both(_north_shanpon_wall, _north_then_1m(True, log))
    hora = [e for e in rounds[0].events if e.type == "hora"]
    assert [(e.actor, e.target, e.pai) for e in hora] == [(1, 0, NORTH)]
    names = {name for name, _ in hora[0].yaku}
    assert "ittsu" in names and "chankan" not in names
    assert rounds[0].nukidora == [[NORTH], [], []]
    # a ron with tsumo loss not involved: the dealer pays, honba 200 per stick
    assert hora[0].deltas[2] == 0 and hora[0].deltas[0] < 0


@built
def test_a_passed_north_makes_the_hand_furiten_until_its_next_discard() -> None:
    log: list[tuple[int, tuple[str, ...]]] = []
    rounds = _play_both(_north_shanpon_wall, _north_then_1m(False, log))
    events = rounds[0].events
    i = next(i for i, e in enumerate(events) if e.type == "dahai" and e.actor == 0 and e.pai == 0)
    assert [e.type for e in events[1:5]] == ["tsumo", "nukidora", "tsumo", "dahai"]
    assert events[4] is events[i]
    # seat 1 passed the North it waited on: the 1m it also waits on is offered as a pon only
    windows = [legal for seat, legal in log if seat == 1 and "none" in legal]
    assert windows[0] == ("hora", "none") and windows[1] == ("pon", "none")


def _north_rinshan_wall() -> RoundWall:
    """The dealer (123456789p 123s N, draws 9s) sets the North aside and draws 9s again."""
    hands = [
        [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 30],
        [27, 27, 28, 28, 29, 31, 31, 32, 33, 0, 8, 21, 22],
        [27, 28, 29, 29, 31, 32, 33, 0, 8, 23, 24, 25, 25],
    ]
    return _sanma_wall(hands, draws=(26,), rinshan=(26,))


@built
def test_a_win_on_the_norths_replacement_tile_is_rinshan_and_not_tenhou() -> None:
    def answer(d: Any) -> Event:
        legal: tuple[Event, ...] = d.legal
        types = {e.type: e for e in legal}
        for t in ("hora", "nukidora"):
            if d.seat == 0 and t in types:
                return types[t]
        return legal[-1]

    rounds = _play_both(_north_rinshan_wall, answer)
    (hora,) = [e for e in rounds[0].events if e.type == "hora"]
    yaku = dict(hora.yaku)
    assert hora.actor == 0 and hora.target == 0 and hora.pai == 26
    assert "rinshan" in yaku and "tenhou" not in yaku and yaku.get("dora", 0) >= 1
    # a dealer tsumo with tsumo loss: the two others pay, each with 100 per honba
    assert hora.deltas[1] == hora.deltas[2] < 0 and sum(hora.deltas) == 1_000


def _double_ron_wall() -> RoundWall:
    """Seats 1 and 2 both wait on 9p alone (an East pung and a haku pung for their yaku); the
    dealer holds the third 9p and lets it go first."""
    hands = [
        [17, 0, 0, 8, 8, 32, 32, 33, 33, 26, 26, 18, 18],
        [9, 10, 11, 18, 19, 20, 27, 27, 27, 14, 15, 16, 17],
        [31, 31, 31, 19, 20, 21, 10, 11, 12, 23, 24, 25, 17],
    ]
    return _sanma_wall(hands, draws=(29,))


@built
@pytest.mark.parametrize("takers", [(1, 2), (2,)], ids=["double", "single"])
def test_a_double_ron_at_three_players_pays_both_winners(takers: tuple[int, ...]) -> None:
    def answer(d: Any) -> Event:
        legal: tuple[Event, ...] = d.legal
        for e in legal:
            if d.seat == 0 and e.type == "dahai" and e.pai == 17:
                return e
            if e.type == "hora" and d.seat in takers:
                return e
        return legal[-1]

    rounds = _play_both(_double_ron_wall, answer)
    hora = [e for e in rounds[0].events if e.type == "hora"]
    assert [(e.actor, e.target, e.pai) for e in hora] == [(s, 0, 17) for s in takers]
    assert rounds[0].result.winners == list(takers)
    # the dealer pays every winner; the honba and the stick go to the first winner only
    assert all(e.deltas[0] < 0 for e in hora) and rounds[0].kyotaku == 0
    assert sum(hora[0].deltas) == 1_000 and all(sum(e.deltas) == 0 for e in hora[1:])


# ---------------------------------------------------------------------- bad input


@built
def test_illegal_sanma_answers_are_refused_and_change_nothing() -> None:
    game = RiichiGame(TENHOU_SANMA, seed=7, engine="compiled")
    (d,) = game.pending()
    events = list(game.events)
    with pytest.raises(IllegalActionError, match="not legal"):
        game.step({d.seat: Event("nukidora", actor=d.seat, pai=NORTH)}
                  if not any(e.type == "nukidora" for e in d.legal)
                  else {d.seat: Event("dahai", actor=d.seat, pai=4, tsumogiri=False)})
    with pytest.raises(IllegalActionError, match="not this seat's turn"):
        game.step({d.seat: d.legal[-1], 3: Event("none")})
    with pytest.raises(IllegalActionError, match="not legal"):
        game.step({d.seat: Event("chi", actor=d.seat, target=2, pai=18, consumed=(19, 20))})
    assert game.events == events and game.pending() == [d]
    game.step({d.seat: d.legal[-1]})
    assert game.events[len(events)] == d.legal[-1]


def _start_state(seed: int) -> tuple[Any, ...]:
    wall = RiichiGame(TENHOU_SANMA, seed=seed).wall_source(0, (0, 0, 0))
    return deal_state(wall, bakaze=0, oya=0, honba=0, kyotaku=0, scores=(35_000,) * 3)


@built
def test_bad_sanma_states_and_codes_raise_typed_errors() -> None:
    rng = random.Random(373)
    good = _start_state(5)
    refused = 0
    junk: list[Any] = [None, -5, 99, 10**30, "x", (), (1, 2, 3), ((0,) * 14,) * 3, (37,) * 5,
                       ((), (), (), ()), (-1,) * 3, 3.5, (9,) * 9]
    for _ in range(300):
        s = list(good)
        s[rng.randrange(len(s))] = rng.choice(junk)
        try:
            table = open_table(tuple(s), TENHOU_SANMA)
        except CompiledTableError:
            refused += 1
            continue
        while table.pending():
            table.step([rng.choice(codes) for _, codes, _events in table.pending()])
        assert table.result() is not None
    assert refused > 200
    with pytest.raises(CompiledTableError, match="players"):
        open_table(good, TENHOU)  # three hands for four-player rules
    with pytest.raises(CompiledTableError, match="copies"):
        s = list(good)  # a fifth North
        s[11] = ((NORTH,) * 5 + good[11][0][5:], *good[11][1:])
        open_table(tuple(s), TENHOU_SANMA)
    # random codes: only legal ones move the table, a North set aside included
    for seed in range(12):
        table = open_table(_start_state(seed), TENHOU_SANMA)
        for _ in range(600):
            pend = table.pending()
            if not pend:
                break
            legal = [codes for _, codes, _events in pend]
            if rng.random() < 0.3:
                nuki = 11 | NORTH << 4 | 63 << 10 | 63 << 16 | 63 << 22 | pend[0][0] << 28
                bad = [rng.choice([-7, nuki, 2**40, "x", rng.getrandbits(32)]) for _ in pend]
                before = table.view()
                try:
                    table.step(bad)
                except CompiledTableError:
                    assert table.view() == before
                    continue
                assert all(b == -1 or b in c for b, c in zip(bad, legal))
                table.events()
                continue
            table.step([rng.choice(c) for c in legal])
            table.events()
        assert table.result() is not None

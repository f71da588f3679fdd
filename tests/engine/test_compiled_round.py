"""The compiled per-step table against the Python round it must equal.

Seeded games of random and rule agents are played twice, on the Python round (the reference)
and on the compiled table (``_table.c`` behind :class:`CompiledRound`), and every event, every
hand's result and the final scores must be equal.  The observations the agents read are
compared decision by decision, and the C type is fed bad states and bad answers: a typed
error, never a crash.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from compiled_pairs import observations_checked, play_hand_both, same_games

from tenpai.engine import RandomAgent
from tenpai.engine.flow import Decision, IllegalActionError
from tenpai.engine.table import KIND
from tenpai.engine.wall import seeded_shuffle
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
from tenpai.rules.riichi.ruleset import MAHJONG_SOUL, TENHOU, TENHOU_SANMA

built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")
TONPUU = TENHOU.with_(length="tonpuu")



@built
def test_random_hanchan_give_identical_events() -> None:
    assert same_games(range(24), ["random"], TENHOU)["hands"] >= 200


@built
def test_rule_agents_give_identical_events() -> None:
    # efficiency and defensive read their observations (hand, rivers, melds, visible tiles):
    # a wrong lazy view would change their choices and so the events
    assert same_games(range(40), ["efficiency", "random", "defensive", "efficiency"],
                      TONPUU)["hands"] >= 150


@built
def test_eager_agents_give_identical_events() -> None:
    assert same_games(range(12), ["eager"], TONPUU)["hands"] >= 60


@built
def test_mahjong_soul_games_give_identical_events() -> None:
    # triple ron pays all three, kokushi robs a closed kan, double yakuman patterns
    rules = MAHJONG_SOUL.with_(length="tonpuu")
    assert same_games(range(10), ["random"], rules)["hands"] >= 60
    assert same_games(range(10), ["eager", "efficiency", "eager", "random"], rules)["hands"] >= 45


@built
@pytest.mark.slow
def test_mahjong_soul_hundreds_of_games_give_identical_events() -> None:
    seen = same_games(range(4000, 4150), ["random"], MAHJONG_SOUL)
    seen += same_games(range(5000, 5150), ["eager", "efficiency", "eager", "defensive"],
                       MAHJONG_SOUL)
    assert seen["hands"] >= 2_500


@built
@pytest.mark.slow
def test_thousand_games_give_identical_events() -> None:
    seen = same_games(range(1000, 1400), ["random"], TENHOU)
    seen += same_games(range(2000, 2400), ["efficiency", "random", "defensive", "random"], TENHOU)
    seen += same_games(range(3000, 3300), ["eager", "eager", "efficiency", "eager"], TENHOU)
    assert seen["hands"] >= 10_000


@built
def test_observations_equal_the_python_ones() -> None:
    for seed in range(3):
        assert observations_checked(TONPUU, seed) > 300


@built
def test_illegal_answers_are_refused_and_change_nothing() -> None:
    game = RiichiGame(TENHOU, seed=7, engine="compiled")
    rnd = game.current
    assert isinstance(rnd, CompiledRound)
    (d,) = game.pending()
    events = list(game.events)
    not_held = next(t for t in range(34) if t not in d.observation.hand)
    with pytest.raises(IllegalActionError, match="not legal"):
        game.step({d.seat: Event("dahai", actor=d.seat, pai=not_held, tsumogiri=False)})
    other = (d.seat + 1) % 4
    with pytest.raises(IllegalActionError, match="not this seat's turn"):
        game.step({d.seat: d.legal[-1], other: Event("none")})
    with pytest.raises(IllegalActionError):
        game.step({})
    assert game.events == events and game.pending() == [d]
    game.step({d.seat: d.legal[-1]})
    assert game.events[len(events)] == d.legal[-1]
    # in a claim window too: an answer from a seat that is not asked is refused
    agents = [RandomAgent(i) for i in range(4)]
    while not any(x.legal[-1].type == "none" for x in game.pending()):
        game.step({x.seat: agents[x.seat].act(x.observation, x.legal) for x in game.pending()})
    asked = {x.seat for x in game.pending()}
    outsider = next(s for s in range(4) if s not in asked)
    before = list(game.events)
    with pytest.raises(IllegalActionError, match="not this seat's turn"):
        game.step({outsider: Event("none")})
    with pytest.raises(IllegalActionError, match="not this seat's turn"):
        game.step({outsider: game.pending()[0].legal[0]})
    assert game.events == before
    game.step({})  # everyone passes
    assert len(game.events) > len(before)


def _start_state(seed: int) -> tuple[Any, ...]:
    game = RiichiGame(TENHOU, seed=seed)
    wall = game.wall_source(0, (0, 0, 0))
    return deal_state(wall, bakaze=0, oya=0, honba=0, kyotaku=0, scores=(25_000,) * 4)


def _mangle(state: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    """A state with one field replaced by something it can never hold."""
    s = list(state)
    i = rng.randrange(len(s))
    junk: list[Any] = [None, -5, 99, 10**30, "x", (), (1, 2, 3), ((0,) * 14,) * 4, (37,) * 5,
                       ((), (), ()), (-1,) * 4, 3.5]
    s[i] = rng.choice(junk)
    return tuple(s)


@built
def test_bad_states_and_codes_raise_typed_errors() -> None:
    rng = random.Random(37)
    good = _start_state(3)
    refused = 0
    for _ in range(400):
        state = _mangle(good, rng)
        try:
            table = open_table(state, TENHOU)
        except CompiledTableError:
            refused += 1
            continue
        # a mangled field the table tolerates (a score, a shorter wall) must still play out
        while table.pending():
            table.step([rng.choice(codes) for _, codes, _events in table.pending()])
        assert table.result() is not None
    assert refused > 300
    with pytest.raises(CompiledTableError, match="copies"):
        s = list(good)
        s[11] = ((good[11][1][0],) * 5 + good[11][0][5:], *good[11][1:])
        open_table(tuple(s), TENHOU)
    with pytest.raises(CompiledTableError, match="phase act"):
        s = list(good)  # a valid claim window: the table starts only at a draw
        first = good[12]
        s[11] = (good[11][0][:13], *good[11][1:])
        s[12], s[15], s[18], s[19], s[20] = -1, 1, ((first,), (), (), ()), ((0,), (), (), ()), (
            1, 0, 0, 0)
        open_table(tuple(s), TENHOU)
    with pytest.raises(CompiledTableError):
        open_table(good, TENHOU_SANMA)  # four hands for three-player rules
    table_type: Any = type(open_table(good, TENHOU))  # the C type, opaque to mypy
    bare = table_type.__new__(table_type)
    for call in (bare.view, bare.pending, lambda: bare.step([])):
        with pytest.raises(CompiledTableError, match="not initialised"):
            call()
    assert bare.result() is None and bare.events() == []
    # random answers: only legal codes move the table; anything else is refused
    for seed in range(20):
        table = open_table(_start_state(seed), TENHOU)
        for _ in range(300):
            pend = table.pending()
            if not pend:
                break
            legal = [codes for _, codes, _events in pend]
            if rng.random() < 0.3:
                bad = [rng.choice([-7, 0, 2**40, "x", None, rng.getrandbits(32)])
                       for _ in pend]
                if rng.random() < 0.2:
                    bad = [*bad, 1]
                before = table.view()
                try:
                    table.step(bad)
                except CompiledTableError:
                    assert table.view() == before
                    continue
                # a random code that happens to be legal (or a pass) is a fine answer
                assert all(b == -1 or b in c for b, c in zip(bad, legal))
                table.events()
                continue
            table.step([rng.choice(c) for c in legal])
            table.events()
        if table.result() is not None:
            with pytest.raises(CompiledTableError, match="over"):
                table.step([])


def test_engine_choice() -> None:
    assert RiichiGame(TENHOU, seed=1, engine="python").compiled is False
    auto = RiichiGame(TENHOU, seed=1)  # auto is the default
    assert auto.compiled is compiled_round.available()
    assert isinstance(auto.current, CompiledRound if auto.compiled else RiichiRound)
    assert isinstance(auto.round, RiichiRound)  # on the compiled table: built on demand
    assert compiled_round.covers(MAHJONG_SOUL.with_(length="tonpuu"))
    assert compiled_round.covers(TENHOU_SANMA)  # tests/engine/test_compiled_sanma.py
    for rules in (TENHOU.with_(kuikae="none"), MAHJONG_SOUL.with_(red_fives=0)):
        assert RiichiGame(rules, seed=1, engine="auto").compiled is False
        with pytest.raises(ValueError, match="compiled table"):
            RiichiGame(rules, seed=1, engine="compiled")
    assert compiled_round.covers(TENHOU.with_(length="tonpuu", starting_points=30_000))
    with pytest.raises(ValueError, match="unknown engine"):
        RiichiGame(TENHOU, seed=1, engine="rust")  # type: ignore[arg-type]
    from tenpai.rules.riichi.game import default_scorer

    assert RiichiGame(TENHOU, seed=1, engine="auto", scorer=default_scorer()).compiled is False


def test_pure_python_switch_keeps_the_python_round() -> None:
    code = ("from tenpai.rules.riichi import compiled_round as c; "
            "from tenpai.rules.riichi.game import RiichiGame; "
            "print(c.available(), RiichiGame(engine='auto').compiled)")
    env = dict(os.environ, TENPAI_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]


# ---------------------------------------------------------------------- scripted hands


def _scripted_wall(hands: list[list[int]], *, planted: int, at: int,
                   shuffle_seed: int) -> RoundWall:
    """A wall with these starting hands and the tile ``planted`` as the ``at``-th live draw;
    the other tiles shuffled by ``shuffle_seed`` (the same wall whatever the test)."""
    left = list(RiichiGame.tileset_for(TENHOU))
    for t in [t for h in hands for t in h] + [planted]:
        left.remove(t)
    random.Random(shuffle_seed).shuffle(left)
    live = [*left[:at], planted, *left[at:69]]
    dead = left[69:]
    return RoundWall(hands=hands, live=live, dora=dead[0:5], ura=dead[5:10],
                     rinshan=dead[10:14])


def _ron_wall() -> RoundWall:
    """Seats 1-3 each wait on 5s alone (all simples, closed); the dealer draws the red 5s."""
    hands = [
        [27, 27, 27, 28, 28, 28, 29, 29, 29, 30, 30, 30, 31],
        [1, 2, 3, 10, 11, 12, 19, 20, 21, 14, 14, 14, 22],
        [2, 3, 4, 11, 12, 13, 23, 24, 25, 15, 15, 15, 22],
        [5, 6, 7, 14, 15, 16, 19, 20, 21, 7, 7, 7, 22],
    ]
    return _scripted_wall(hands, planted=36, at=0, shuffle_seed=5)


def _play_both(make_wall: Any, answer: Any) -> list[Any]:
    return play_hand_both(TENHOU, make_wall, [25_000, 25_000, 24_000, 25_000], answer)


def _scripted(ron_seats: tuple[int, ...]) -> Callable[[Decision], Event]:
    def answer(d: Decision) -> Event:
        for e in d.legal:
            if e.type == "dahai" and e.pai == 36:
                return e
            if e.type == "hora" and d.seat in ron_seats:
                return e
        return d.legal[-1]
    return answer


@built
def test_triple_ron_aborts_and_double_ron_pays_both() -> None:
    three = _play_both(_ron_wall, _scripted((1, 2, 3)))
    assert three[0].result.abort == "triple_ron"
    two = _play_both(_ron_wall, _scripted((1, 3)))
    assert two[0].result.kind == "hora" and two[0].result.winners == [1, 3]
    one = _play_both(_ron_wall, _scripted((2,)))
    assert one[0].result.winners == [2]


@built
def test_four_winds_abort() -> None:
    def east_in_every_hand(index: int, key: Any) -> RoundWall:
        tiles = [t for t in seeded_shuffle(RiichiGame.tileset_for(TENHOU), 99 + index)
                 if t != 27]
        for seat in range(4):
            tiles.insert(13 * seat, 27)
        return RoundWall.from_shuffled(tiles)

    def east_first(d: Decision) -> Event:
        east = [e for e in d.legal if e.type == "dahai" and e.pai == 27]
        if east:
            return east[0]
        return d.legal[-1]  # a pass, or the drawn tile

    games = [RiichiGame(TENHOU, wall_source=east_in_every_hand, engine=e)
             for e in ("python", "compiled")]
    while len(games[0].results) < 3:
        answers = {d.seat: east_first(d) for d in games[0].pending()}
        for g in games:
            g.step(answers)
    assert games[0].events == games[1].events
    assert [r.abort for r in games[0].results] == ["four_winds"] * 3


def _kind(dahai: Event) -> int:
    assert dahai.pai is not None, dahai
    return KIND[dahai.pai]


def _chankan_wall() -> RoundWall:
    """Seat 0 holds two 5p, seat 1 discards a third, seat 0 pons it and draws the red 5p on
    its next turn; seat 2 waits on 5p (4p6p, all simples) and robs the added kan."""
    hands = [
        [13, 13, 27, 27, 28, 28, 29, 29, 30, 31, 32, 33, 33],
        [13, 0, 0, 9, 9, 18, 18, 27, 28, 29, 30, 31, 32],
        [1, 2, 3, 4, 5, 6, 20, 21, 22, 25, 25, 12, 14],
        [8, 8, 17, 17, 26, 26, 0, 9, 18, 30, 31, 32, 33],
    ]
    # no 4p/6p/5p-completing tile for seat 2 in its own draws matters: it discards each one
    return _scripted_wall(hands, planted=35, at=5, shuffle_seed=11)


@built
def test_chankan_on_an_added_kan() -> None:
    state = {"kakan": False}

    def answer(d: Decision) -> Event:
        types = {e.type: e for e in d.legal}
        if "kakan" in types:
            state["kakan"] = True
            return types["kakan"]
        if "hora" in types and d.seat == 2 and state["kakan"]:
            return types["hora"]
        if "pon" in types and d.seat == 0:
            return types["pon"]
        dahai = [e for e in d.legal if e.type == "dahai"]
        if d.seat == 1 and any(e.pai == 13 for e in dahai):
            return next(e for e in dahai if e.pai == 13)
        if not dahai:
            return d.legal[-1]  # a pass
        drawn = [e for e in dahai if e.tsumogiri]
        if drawn and not (d.seat == 2 and _kind(drawn[0]) in (12, 13, 14)):
            return drawn[0]
        return next(e for e in dahai if _kind(e) not in (12, 13, 14))

    rounds = _play_both(_chankan_wall, answer)
    hora = [e for e in rounds[0].events if e.type == "hora"]
    assert state["kakan"] and len(hora) == 1 and hora[0].actor == 2
    assert any(name == "chankan" for name, _ in hora[0].yaku)

"""Three-player Riichi at the table: no chi, North set aside (nukidora), eight replacement
draws, three hands per wind round, tsumo loss and whole games with invariants checked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from scenario import act, discard, legal, pass_all

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.engine import GameFlow, RandomAgent, play
from tenpai.events import Event
from tenpai.rules.riichi.flow.invariants import check_round
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.scoring import score_win
from tenpai.rules.riichi.flow.wall import RoundWall, WallError
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU_SANMA

S = TENHOU_SANMA
TOTAL = 3 * 35_000
N = T.parse("4z")[0]


def table3(hands: Sequence[str], draws: str = "", *, rinshan: str = "", dora: str = "1p",
           kyoku: int = 0) -> RiichiRound:
    wall = RoundWall.from_record(
        RiichiGame.tileset_for(S), [T.parse(h) for h in hands], T.parse(draws), T.parse(dora),
        [], T.parse(rinshan),
    )
    return RiichiRound(S, wall, bakaze=0, kyoku=kyoku, honba=0, kyotaku=0,
                       scores=(35_000,) * 3, scorer=score_win)


def test_tileset_has_108_tiles_and_two_red_fives() -> None:
    tiles = RiichiGame.tileset_for(S)
    assert len(tiles) == 108
    kinds = Counter(T.kind_of(t) for t in tiles)
    assert all(kinds[k] == 0 for k in range(1, 8)) and kinds[0] == kinds[8] == 4
    assert sorted(t for t in tiles if T.is_red(t)) == [T.RED_PIN, T.RED_SOU]
    assert len(RiichiGame.tileset_for(S.with_(red_fives=0))) == 108


def test_wall_has_55_draws_and_eight_replacements() -> None:
    tiles = RiichiGame.tileset_for(S)
    wall = RoundWall.from_shuffled(tiles, 3)
    assert len(wall.hands) == 3 and wall.remaining == 55
    got = [wall.draw_rinshan() for _ in range(8)]
    assert wall.remaining == 47 and wall.replacements_left == 0
    with pytest.raises(WallError):
        wall.draw_rinshan()
    drawn = [wall.draw() for _ in range(47)]
    # every tile once: hands, draws, replacements, the undrawn rest
    left = wall.undrawn_tiles()
    assert Counter([t for h in wall.hands for t in h] + got + drawn + left) == Counter(tiles)


#: hands that want nothing the tests deal (no pair of a discarded tile, not ready)
JUNK1 = "2468p2468s13579p"
JUNK2 = "2468p2468s3377p7s"
#: thirteen orphans with the North: ready for kokushi only while it keeps its North
ORPHANS_N = "4z19m19p19s123567z"


def test_no_chi_with_three_players() -> None:
    rnd = table3(["1p9p19m19s1234567z", "23p19m19s1234567z", JUNK2], "9p")
    discard(rnd, 0, "1p")
    assert not any(e.type == "chi" for e in legal(rnd, 1))


def test_kita_draws_a_replacement_and_counts_as_a_call() -> None:
    rnd = table3([ORPHANS_N, JUNK1, JUNK2], "2p", rinshan="3p")
    kita = [e for e in legal(rnd, 0) if e.type == "nukidora"]
    assert kita == [Event("nukidora", actor=0, pai=N)]
    before = rnd.wall.remaining
    act(rnd, 0, type="nukidora")
    assert rnd.nukidora[0] == [N]
    assert rnd.events[-1] == Event("tsumo", actor=0, pai=T.parse("3p")[0])
    assert rnd.wall.remaining == before - 1
    assert rnd.any_call and rnd.after_kan  # first go-around over; a win now is rinshan
    check_round(rnd, RiichiGame.tileset_for(S), TOTAL)
    assert not any(e.type == "nukidora" for e in legal(rnd, 0))  # no second North
    view = rnd._observe(1)
    assert view.nukidora == ((N,), (), ()) and view.visible_counts()[N] == 1


def test_no_kita_right_after_a_pon() -> None:
    rnd = table3(["1p9p19m19s1234567z", "11p9m4z2468s13579s", JUNK2], "9m")
    discard(rnd, 0, "1p")
    act(rnd, 1, type="pon")
    assert {e.type for e in legal(rnd, 1)} == {"dahai"}


def test_kita_in_riichi_only_with_the_drawn_north() -> None:
    # seat 0 is ready on 1s-4s, declares riichi with its first discard and then draws a North
    rnd = table3(["123p456p789p11s23s", JUNK1, JUNK2], "9s1m1m4z")
    act(rnd, 0, type="reach")
    discard(rnd, 0, "9s")
    for seat in (1, 2):
        if rnd.phase == "claim":
            pass_all(rnd)
        act(rnd, seat, type="dahai", tsumogiri=True)
    if rnd.phase == "claim":
        pass_all(rnd)
    assert {e.type for e in legal(rnd, 0)} == {"nukidora", "dahai"}
    assert rnd.ippatsu[0]
    act(rnd, 0, type="nukidora")
    assert rnd.riichi[0] and not rnd.ippatsu[0]  # a North set aside ends ippatsu


def test_ron_on_a_north_set_aside_is_no_chankan() -> None:
    # seat 1 waits on the North (seven pairs); seat 0 sets its North aside
    rnd = table3([ORPHANS_N, "1199m1199p1199s4z", JUNK2], "2p")
    act(rnd, 0, type="nukidora")
    assert rnd.phase == "rob"
    ron = [e for e in legal(rnd, 1) if e.type == "hora"]
    assert ron == [Event("hora", actor=1, target=0, pai=N)]
    act(rnd, 1, type="hora")
    hora = next(e for e in rnd.events if e.type == "hora")
    names = {n for n, _ in hora.yaku}
    assert "chankan" not in names and "chiitoitsu" in names
    assert hora.deltas == (-6400, 6400, 0)  # chiitoitsu + honroutou, 4 han 25 fu


def test_passing_a_ron_on_a_north_is_furiten() -> None:
    rnd = table3([ORPHANS_N, "1199m1199p1199s4z", JUNK2], "2p")
    act(rnd, 0, type="nukidora")
    pass_all(rnd)
    assert rnd.furiten_temp[1]


def test_kita_breaks_double_riichi() -> None:
    rnd = table3([ORPHANS_N, "123p456p789p11s23s", JUNK2], "2p9s", rinshan="3p")
    act(rnd, 0, type="nukidora")
    discard(rnd, 0, "2p")
    if rnd.phase == "claim":
        pass_all(rnd)
    act(rnd, 1, type="reach")
    discard(rnd, 1, "9s")
    assert rnd.riichi[1] and not rnd.double_riichi[1]


def test_winning_on_the_replacement_tile_is_rinshan() -> None:
    # the dealer is ready on 3p, draws a North, sets it aside and draws 3p
    rnd = table3(["12p456p789p11s999s", JUNK1, JUNK2], "4z", rinshan="3p", dora="1m")
    act(rnd, 0, type="nukidora")
    act(rnd, 0, type="hora")
    hora = next(e for e in rnd.events if e.type == "hora")
    names = {n for n, _ in hora.yaku}
    assert {"rinshan", "menzen_tsumo", "ittsu"} <= names and "tenhou" not in names
    assert ("dora", 1) in hora.yaku  # the North set aside
    # tsumo loss: the dealer's tsumo is paid by the two others
    assert hora.deltas[1] == hora.deltas[2] < 0 and hora.deltas[0] == -2 * hora.deltas[1]


def test_three_hands_per_wind_and_the_dealer_moves_round_three_seats() -> None:
    game = RiichiGame(S, seed=5)
    play(game, [RandomAgent(i) for i in range(3)])
    starts = [e for e in game.events if e.type == "start_kyoku"]
    assert all(e.kyoku in (0, 1, 2) and e.oya == e.kyoku for e in starts)
    assert all(len(e.scores) == 3 and len(e.tehais) == 3 for e in starts)
    assert len(game.final_scores) == 3 and sum(game.final_scores) == TOTAL
    assert game.events[0] == Event("start_game", names=("A", "B", "C"))


def _checker(game: GameFlow) -> None:
    assert isinstance(game, RiichiGame)
    if game.round is not None:
        check_round(game.round, game.tileset, TOTAL)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_invariants(seed: int) -> None:
    game = RiichiGame(S, seed=seed)
    play(game, [RandomAgent(seed * 10 + i) for i in range(3)], check=_checker)
    assert game.done and sum(game.final_scores) == TOTAL
    kinds = {e.type for e in game.events}
    assert "chi" not in kinds


@pytest.mark.parametrize("seed", range(3))
def test_efficiency_games_keep_invariants(seed: int) -> None:
    game = RiichiGame(S, seed=seed)
    play(game, [make_agent("efficiency", seed * 10 + i) for i in range(3)], check=_checker)
    assert game.done and sum(game.final_scores) == TOTAL
    for e in game.events:
        if e.type == "ryukyoku" and e.kind == "exhaustive" and any(e.deltas):
            # no-ten payments: 2,000 in all, split between the seats ready or not ready
            assert sorted(e.deltas) in ([-1000, -1000, 2000], [-2000, 1000, 1000])
        if e.type == "hora":
            assert e.han is not None and e.han >= 1


def test_rules_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(ValueError, match="names"):
        RiichiGame(S, names=("A", "B", "C", "D"))
    with pytest.raises(ValueError, match="scores"):
        RiichiGame(S, scores=(25_000,) * 4)


@pytest.mark.parametrize("name", ["efficiency", "defensive"])
def test_rule_bots_play_three_player_games_and_set_norths_aside(name: str) -> None:
    game = RiichiGame(S.with_(length="tonpuu"), seed=11)
    play(game, [make_agent(name, i) for i in range(3)], check=_checker)
    assert game.done and sum(game.final_scores) == TOTAL
    assert any(e.type == "nukidora" for e in game.events)

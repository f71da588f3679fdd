"""The Riichi point flow of an arena run: its parts add up to the arena's own figures."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tenpai.arena.distributions import student_t_ppf
from tenpai.arena.stats import paired_test
from tenpai.arena.store import ResultsStore, SeatRow
from tenpai.bench.mcr_replay import stored_games
from tenpai.bench.riichi_point_flow import main
from tenpai.bench.riichi_tallies import FLOWS, GameReplay, SeatGame, read_runs
from tenpai.events import Event
from tenpai.rules.riichi import (
    MAHJONG_SOUL,
    SOUTH,
    TENHOU,
    Meld,
    RiichiRules,
    WinContext,
    evaluate,
    payments,
)
from tenpai.tiles import parse

_BASE_FLOWS = ("f_ron", "f_tsumo", "f_di_riichi", "f_di_dama", "f_di_open", "f_paid_tsumo",
               "f_pao")


@pytest.fixture
def run_db(riichi_rule_run: Path) -> Path:
    return riichi_rule_run


def _query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    store = ResultsStore(db)
    try:
        return list(store.query(sql))
    finally:
        store.close()


def _seat_rows(db: Path) -> list[SeatRow]:
    store = ResultsStore(db)
    try:
        return store.seat_rows()
    finally:
        store.close()


def _by_key(seats: list[SeatGame]) -> dict[tuple[int, int, int], SeatGame]:
    return {(s.deal, s.rotation, s.seat): s for s in seats}


def _json_report(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main([*argv, "--json"])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_every_seat_parts_sum_to_its_stored_score_change(run_db: Path) -> None:
    seats = _by_key(read_runs([str(run_db)]))
    start = {(g.deal, g.rotation): next(e.scores for e in g.events if e.type == "start_kyoku")
             for g in stored_games([str(run_db)], "test")}
    rows = _seat_rows(run_db)
    assert len(seats) == len(rows) == 32
    for r in rows:
        t = seats[(r.deal, r.rotation, r.seat)].tally
        change = r.score - start[(r.deal, r.rotation)][r.seat]
        assert sum(t[k] for k, _ in FLOWS) == change == t["score"]
        assert t["f_riichi_paid"] == -1000 * r.riichi
    # the flows of the hands' payments are the stored hands' deltas, sticks and honba included
    deltas: defaultdict[tuple[int, int, int], int] = defaultdict(int)
    for deal, rotation, *d in _query(run_db, "SELECT deal, rotation, delta0, delta1, delta2, "
                                             "delta3 FROM rounds"):
        for seat in range(4):
            deltas[(deal, rotation, seat)] += d[seat]
    for key, s in seats.items():
        paid = sum(s.tally[k] for k in (*_BASE_FLOWS, "f_draw", "f_sticks_won", "f_honba"))
        assert paid == deltas[key]
    # what one seat gets another pays: base points, honba and sticks each sum to zero a game
    games: defaultdict[tuple[int, int], list[SeatGame]] = defaultdict(list)
    for s in seats.values():
        games[(s.deal, s.rotation)].append(s)
    for four in games.values():
        assert sum(s.tally[k] for s in four for k in _BASE_FLOWS) == 0
        assert sum(s.tally["f_honba"] for s in four) == 0
        assert sum(s.tally["f_draw"] for s in four) == 0
        assert sum(s.tally[k] for s in four
                   for k in ("f_riichi_paid", "f_sticks_won", "f_sticks_end")) == 0
    assert any(s.tally["f_honba"] for s in seats.values())
    assert any(s.tally["f_sticks_won"] for s in seats.values())


def _replay(events: list[Event], rules: RiichiRules = TENHOU) -> list[Counter[str]]:
    tallies: list[Counter[str]] = [Counter() for _ in range(4)]
    replay = GameReplay(tallies, rules)
    for e in events:
        replay.apply(e)
    return tallies


_HANDS = tuple(tuple(range(13)) for _ in range(4))


def test_a_double_ron_gives_honba_and_sticks_to_its_first_winner() -> None:
    t = _replay([
        Event("start_kyoku", bakaze=0, kyoku=0, honba=2, kyotaku=0, oya=0,
              scores=(25000,) * 4, tehais=_HANDS),
        Event("tsumo", actor=0, pai=13), Event("dahai", actor=0, pai=13),
        Event("hora", actor=1, target=0, deltas=(-8600, 8600, 0, 0), han=3, fu=40),
        Event("hora", actor=2, target=0, deltas=(-3900, 0, 3900, 0), han=2, fu=40),
        Event("end_kyoku"), Event("end_game", scores=(12500, 33600, 28900, 25000))])
    assert (t[0]["f_di_dama"], t[0]["f_honba"], t[0]["di"], t[0]["dealt_in_hands"]) == \
           (-11900, -600, 2, 1)
    assert (t[1]["f_ron"], t[1]["f_honba"], t[1]["f_sticks_won"]) == (8000, 600, 0)
    assert (t[2]["f_ron"], t[2]["f_honba"], t[2]["f_sticks_won"]) == (3900, 0, 0)
    assert t[0]["di_free"] == 2 and t[0]["di_nothr"] == 2
    assert t[0]["double_rons"] == 0  # counted per game by read_runs, not per seat here


def test_a_discard_under_riichi_knows_the_tiles_that_passed_since() -> None:
    t = _replay([
        Event("start_kyoku", bakaze=0, kyoku=0, honba=0, kyotaku=0, oya=0,
              scores=(25000,) * 4, tehais=_HANDS),
        Event("tsumo", actor=1, pai=13), Event("reach", actor=1), Event("dahai", actor=1, pai=13),
        Event("reach_accepted", actor=1),
        Event("tsumo", actor=2, pai=20), Event("dahai", actor=2, pai=20),
        # seat 3 holds 20, safe against seat 1 only because it passed after the riichi
        Event("tsumo", actor=3, pai=20), Event("dahai", actor=3, pai=20),
        # seat 0 holds 20 too and deals in with 5
        Event("tsumo", actor=0, pai=20), Event("dahai", actor=0, pai=5),
        Event("hora", actor=1, target=0, deltas=(-8000, 9000, 0, 0), han=3, fu=40),
        Event("end_kyoku"), Event("end_game", scores=(17000, 33000, 25000, 25000))])
    assert [(x["thr_disc"], x["thr_had_safe"], x["thr_safe_disc"]) for x in t] == \
           [(1, 1, 0), (0, 0, 0), (1, 0, 0), (1, 1, 1)]
    assert (t[0]["thr_unsafe_with_safe"], t[0]["di_thr"], t[0]["di_thr_into_riichi"],
            t[0]["di_thr_had_safe_vs_winner"], t[0]["di_thr_had_allsafe"]) == (1, 1, 1, 1, 1)
    assert (t[0]["f_di_riichi"], t[1]["f_ron"], t[1]["f_sticks_won"]) == (-8000, 8000, 1000)
    assert [x["faced"] for x in t] == [1, 0, 1, 1] and t[1]["r_won"] == 1


def test_a_riichi_tsumo_takes_honba_from_each_payer_and_its_own_stick_back() -> None:
    t = _replay([
        Event("start_kyoku", bakaze=0, kyoku=0, honba=1, kyotaku=0, oya=0,
              scores=(25000,) * 4, tehais=_HANDS),
        Event("tsumo", actor=3, pai=13), Event("reach", actor=3), Event("dahai", actor=3, pai=13),
        Event("reach_accepted", actor=3),
        Event("tsumo", actor=3, pai=14),
        Event("hora", actor=3, target=3, deltas=(-2100, -1100, -1100, 5300), han=3, fu=30),
        Event("end_kyoku"), Event("end_game", scores=(22900, 23900, 23900, 29300))])
    assert (t[3]["f_tsumo"], t[3]["f_honba"], t[3]["f_sticks_won"], t[3]["f_riichi_paid"]) == \
           (4000, 300, 1000, -1000)
    assert [(x["f_paid_tsumo"], x["f_honba"]) for x in t[:3]] == \
           [(-2000, -100), (-1000, -100), (-1000, -100)]
    assert (t[3]["win_riichi"], t[3]["r_won"], t[3]["riichi"]) == (1, 1, 1)
    assert all(sum(x[k] for k, _ in FLOWS) == x["score"] for x in t)
    assert [x["faced"] for x in t] == [1, 1, 1, 0]


#: By the wait: seat 1's dealt hand and its closed tiles at the win (the winning tile last).
#: Seat 1 (not the dealer) calls haku from seat 0, hatsu from seat 2 and chun from seat 3, so
#: seat 3 is liable for its daisangen (pao); it then waits on 1m, or on 2z with 111z (daisangen
#: and tsuuiisou, a double yakuman of which only daisangen is pao's).
_PAO_HANDS = {"1m": ("556677z234p1m999s", "234p1m1m"), "2z": ("556677z111z2z999s", "111z2z2z")}
_PAO_CALLS = ((0, "5z", "9s"), (2, "6z", "9s"), (3, "7z", "9s"))


def _pao_hand(wait: str, loser: int | None, rules: RiichiRules) -> tuple[list[Event],
                                                                         list[int], list[int]]:
    """One hand (2 honba, a riichi stick on the table) where seat 1 wins the hand of ``wait``
    off ``loser`` (``None``: a self-draw): the events, the engine's deltas, and the honba part
    of them (the deltas with 2 honba minus those with none)."""
    dealt, closed = _PAO_HANDS[wait]
    hands = [tuple(parse("1112223334445s"))] * 4
    hands[1] = tuple(parse(dealt))
    events = [Event("start_kyoku", bakaze=0, kyoku=0, honba=2, kyotaku=1, oya=0,
                    scores=(25000, 25000, 24000, 25000), tehais=tuple(hands))]
    melds = []
    for frm, tile, away in _PAO_CALLS:
        t = parse(tile)[0]
        events += [Event("tsumo", actor=frm, pai=t), Event("dahai", actor=frm, pai=t),
                   Event("pon", actor=1, target=frm, pai=t, consumed=(t, t)),
                   Event("dahai", actor=1, pai=parse(away)[0])]
        melds.append(Meld("pon", (t, t, t), frm))
    w = parse(wait)[0]
    if loser is None:
        events.append(Event("tsumo", actor=1, pai=w))
    else:
        events += [Event("tsumo", actor=loser, pai=w), Event("dahai", actor=loser, pai=w)]
    result = evaluate(WinContext(closed=tuple(parse(closed)), win_tile=w, melds=tuple(melds),
                                 tsumo=loser is None, seat_wind=SOUTH, rules=rules))
    assert result is not None and ("daisangen", 13) in result.yaku

    def pay(honba: int) -> list[int]:
        return payments(result, rules, winner=1, dealer=0, discarder=loser, honba=honba,
                        kyotaku=1, pao=3)
    deltas = pay(2)
    events += [Event("hora", actor=1, target=1 if loser is None else loser, pai=w,
                     deltas=tuple(deltas), han=result.han, fu=result.fu, yaku=result.yaku),
               Event("end_kyoku"),
               Event("end_game", scores=tuple(s + d for s, d in zip(events[0].scores, deltas,
                                                                     strict=True)))]
    return events, deltas, [a - b for a, b in zip(deltas, pay(0), strict=True)]


@pytest.mark.parametrize(("rules", "wait", "loser"), [
    (TENHOU, "1m", None),  # the liable seat pays it all
    (TENHOU, "1m", 0),  # half each from the discarder and the liable seat
    (TENHOU, "1m", 3),  # dealt in by the liable seat: an ordinary ron
    (MAHJONG_SOUL, "2z", None),  # liable for daisangen only, the rest as a tsumo
    (MAHJONG_SOUL, "2z", 0),  # half the daisangen from each, the rest from the discarder
], ids=["tenhou-tsumo", "tenhou-ron", "tenhou-ron-off-liable", "soul-tsumo", "soul-ron"])
def test_a_pao_win_splits_its_honba_as_the_engine_pays_it(
        rules: RiichiRules, wait: str, loser: int | None) -> None:
    events, deltas, honba = _pao_hand(wait, loser, rules)
    t = _replay(events, rules)
    assert [x["f_honba"] for x in t] == honba and honba[1] == 600
    assert [sum(x[k] for k, _ in FLOWS) for x in t] == [x["score"] for x in t] == deltas
    assert t[1]["f_sticks_won"] == 1000 and t[1]["f_honba"] + t[1]["win_pts"] + 1000 == deltas[1]
    liable = loser != 3
    paid_by_3 = -deltas[3] - 600
    assert (t[3]["f_pao"], t[3]["pao_paid_n"]) == ((-paid_by_3, 1) if liable else (0, 0))
    assert t[3]["f_di_open"] == (0 if liable else -paid_by_3)
    if loser == 0:
        assert (t[0]["f_di_open"], t[0]["di"], t[0]["dealt_in_hands"]) == (deltas[0], 1, 1)
    assert sum(x["f_paid_tsumo"] for x in t) == (
        -(t[1]["win_pts"] + t[3]["f_pao"]) if loser is None else 0)


def test_a_win_naming_its_liable_seat_is_tallied_the_same_and_checked() -> None:
    # the engine's hora now names the liable seat (results files before it did not)
    events, _, _ = _pao_hand("1m", 0, TENHOU)
    i = next(i for i, e in enumerate(events) if e.type == "hora")
    named = [*events[:i], events[i].with_(pao=3), *events[i + 1:]]
    assert _replay(named) == _replay(events)
    wrong = [*events[:i], events[i].with_(pao=2), *events[i + 1:]]
    with pytest.raises(ValueError, match="names seat 2 liable"):
        _replay(wrong)


def test_the_counts_agree_with_the_arena_columns(run_db: Path) -> None:
    seats = _by_key(read_runs([str(run_db)]))
    rows = _seat_rows(run_db)
    for r in rows:
        t = seats[(r.deal, r.rotation, r.seat)].tally
        assert (t["hands"], t["wins"], t["dealt_in_hands"], t["riichi"], t["calls"]) == \
               (r.hands, r.wins, r.deal_ins, r.riichi, r.calls)
        assert t["rank_sum"] == r.rank and t["games"] == 1
    assert all(sum(getattr(r, k) for r in rows) > 0
               for k in ("wins", "deal_ins", "riichi", "calls"))
    ron: defaultdict[tuple[int, int, int], int] = defaultdict(int)
    tsumo: defaultdict[tuple[int, int, int], int] = defaultdict(int)
    dealt: defaultdict[tuple[int, int, int], int] = defaultdict(int)
    for deal, rotation, winner, from_seat in _query(
            run_db, "SELECT deal, rotation, winner, from_seat FROM wins"):
        (tsumo if from_seat is None else ron)[(deal, rotation, winner)] += 1
        if from_seat is not None:
            dealt[(deal, rotation, from_seat)] += 1
    for key, s in seats.items():
        assert (s.tally["win_ron"], s.tally["win_tsumo"], s.tally["di"]) == \
               (ron[key], tsumo[key], dealt[key])
    draws = _query(run_db, "SELECT COUNT(*) FROM rounds WHERE outcome = 'ryukyoku' AND "
                           "draw_kind = 'exhaustive'")[0][0]
    assert sum(s.tally["draw_hands"] for s in seats.values()) == 4 * draws


def test_the_report_figures_are_the_arena_figures(
        run_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json_report(capsys, [str(run_db), "--seat-agent", "efficiency"])
    assert doc["seat_games"] == 32 and len(doc["reports"]) == 1
    rows = {r["label"]: r for r in doc["reports"][0]["rows"]}
    arena = paired_test(_seat_rows(run_db), "efficiency", "defensive")
    rank = rows["average rank"]
    assert math.isclose(rank["diff"], arena.mean_diff, abs_tol=1e-9)
    assert math.isclose(rank["low"], arena.low, abs_tol=1e-9)
    assert math.isclose(rank["high"], arena.high, abs_tol=1e-9)
    score = rows["final score change (points/game)"]
    assert math.isclose(score["diff"], arena.score_diff or 0.0, abs_tol=1e-9)
    assert math.isclose(score["low"], arena.score_low or 0.0, abs_tol=1e-9)
    parts = rows["  sum of the parts"]
    assert all(math.isclose(parts[k], score[k], abs_tol=1e-9) for k in ("ours", "others", "diff"))
    seat_rows = _seat_rows(run_db)
    ours = [r for r in seat_rows if r.agent == "efficiency"]
    assert math.isclose(rows["hands with a call / hand"]["ours"],
                        sum(r.calls for r in ours) / sum(r.hands for r in ours))
    assert math.isclose(rows["riichi rate (accepted / hand)"]["ours"],
                        sum(r.riichi for r in ours) / sum(r.hands for r in ours))
    per_game = {r["label"]: r for r in doc["reports"][0]["rows"]
                if r["section"] == "point flows, points per game (sum = score change)"}
    flows = sum(per_game[label]["diff"] for _, label in FLOWS)
    assert math.isclose(flows, score["diff"], abs_tol=1e-6)
    before, last = rows["score change before the last hand /game"], \
        rows["points in the last hand (incl. leftover) /game"]
    assert math.isclose(before["diff"] + last["diff"], score["diff"], abs_tol=1e-6)


def test_a_run_paired_with_itself_changes_nothing(
        run_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json_report(capsys, [str(run_db), "--seat-agent", "efficiency", "--against",
                                str(run_db)])
    paired = doc["paired"]
    assert len(paired) > 100 and all(p["deals"] == 2 for p in paired)
    defined = [p for p in paired if p["diff"] is not None]
    assert len(defined) > 50
    assert all(p["diff"] == p["low"] == p["high"] == 0.0 and p["here"] == p["base"]
               for p in defined)
    main([str(run_db), "--seat-agent", "efficiency", "--against", str(run_db)])
    out = capsys.readouterr().out
    assert "seat-games with another score change than in the base run: 0" in out


def test_runs_of_the_same_deals_pair_deal_by_deal(
        run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        riichi_arena: Callable[[Path, str, int, int], None]) -> None:
    other = tmp_path / "other_seating.db"
    riichi_arena(other, "efficiency,efficiency,defensive,defensive", 7, 8)
    doc = _json_report(capsys, [str(other), "--seat-agent", "efficiency", "--against",
                                str(run_db)])
    rank = next(p for p in doc["paired"] if p["label"] == "average rank")
    # by hand: per deal, the mean rank of efficiency's seats here minus there (equal counts
    # per deal, so the pooled difference is the mean of these and its interval is theirs)
    per_deal: list[float] = []
    for deal in (0, 1):
        means = [sum(r.rank for r in rows if r.agent == "efficiency" and r.deal == deal) /
                 sum(1 for r in rows if r.agent == "efficiency" and r.deal == deal)
                 for rows in (_seat_rows(other), _seat_rows(run_db))]
        per_deal.append(means[0] - means[1])
    mean = sum(per_deal) / 2
    half = student_t_ppf(0.975, 1) * abs(per_deal[0] - per_deal[1]) / math.sqrt(2) / math.sqrt(2)
    assert math.isclose(rank["diff"], mean, abs_tol=1e-9)
    assert math.isclose(rank["low"], mean - half, abs_tol=1e-9)
    assert math.isclose(rank["high"], mean + half, abs_tol=1e-9)
    assert rank["deals"] == 2


def test_a_cut_run_is_paired_on_the_deals_both_hold(
        run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        riichi_arena: Callable[[Path, str, int, int], None]) -> None:
    """A run cut after its first deal against a base of two: both arms are read on deal 0
    only (the base's own figure too), not the cut run's deal against the whole base."""
    cut = tmp_path / "cut.db"
    riichi_arena(cut, "efficiency,efficiency,defensive,defensive", 7, 4)
    doc = _json_report(capsys, [str(cut), "--seat-agent", "efficiency", "--against",
                                str(run_db)])
    rank = next(p for p in doc["paired"] if p["label"] == "average rank")

    def deal0(rows: list[SeatRow]) -> float:
        mine = [r.rank for r in rows if r.agent == "efficiency" and r.deal == 0]
        return sum(mine) / len(mine)

    here, base = deal0(_seat_rows(cut)), deal0(_seat_rows(run_db))
    whole_base = [r.rank for r in _seat_rows(run_db) if r.agent == "efficiency"]
    assert base != sum(whole_base) / len(whole_base)  # the two deals differ: the test can fail
    assert rank["deals"] == 1
    assert math.isclose(rank["base"], base, abs_tol=1e-9)
    assert math.isclose(rank["diff"], here - base, abs_tol=1e-9)
    assert rank["low"] is None and rank["high"] is None  # one deal: no interval


def test_a_run_of_another_seed_is_refused(
        run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        riichi_arena: Callable[[Path, str, int, int], None]) -> None:
    other = tmp_path / "seed_8.db"
    riichi_arena(other, "efficiency,defensive,efficiency,defensive", 8, 4)
    with pytest.raises(SystemExit) as exc:
        main([str(other), "--seat-agent", "efficiency", "--against", str(run_db)])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"riichi_point_flow: {other} and {run_db} deal game (deal 0, rotation 0) "
                   "from different walls: not the same seed\n")


def test_two_files_are_pooled_then_reported_each(
        run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy.db"
    shutil.copy(run_db, copy)
    doc = _json_report(capsys, [str(run_db), str(copy), "--seat-agent", "efficiency"])
    pooled, first, second = doc["reports"]
    assert doc["seat_games"] == 64 and pooled["deals"] == 4 and first["deals"] == 2
    for a, b, c in zip(pooled["rows"], first["rows"], second["rows"], strict=True):
        assert a["label"] == b["label"] == c["label"]
        assert b["ours"] == c["ours"]
        if a["digits"] is None:
            assert a["ours"] == 2 * b["ours"]
        elif a["ours"] is not None:
            assert math.isclose(a["ours"], b["ours"], abs_tol=1e-9)

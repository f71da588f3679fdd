"""MCR and the 108-tile rules in the arena: registry, seat→player mapping, end-to-end runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena.games import ArenaConfigError, make_game, rules_entry
from tenpai.arena.record import RecordError, hand_seating, play_scheduled, summarize
from tenpai.arena.schedule import GameKey
from tenpai.cli import arena as arena_cli
from tenpai.engine.runner import play
from tenpai.events import Event


def test_registry_knows_mcr_and_suits108_with_their_presets() -> None:
    mcr = rules_entry("mcr")
    assert mcr.options({}) == {"preset": "mcr_official"}
    assert mcr.options({"preset": "botzone"}) == {"preset": "botzone"}
    assert set(mcr.choices["preset"]) == {"botzone", "mcr_official"}
    s108 = rules_entry("suits108")
    assert s108.options({}) == {"preset": "paper"}
    with pytest.raises(ArenaConfigError, match="choose"):
        mcr.options({"preset": "tenhou"})
    with pytest.raises(ArenaConfigError, match="take no option length"):
        s108.options({"length": "hanchan"})


def test_same_seed_same_first_hand_whatever_the_preset_factory() -> None:
    for rules, options in (("mcr", {"preset": "botzone"}), ("mcr", {}), ("suits108", {})):
        a = make_game(rules, 5, ["a", "b", "c", "d"], options)
        b = make_game(rules, 5, ["w", "x", "y", "z"], options)
        first_a = next(e for e in a.events if e.type == "start_kyoku")
        first_b = next(e for e in b.events if e.type == "start_kyoku")
        assert first_a.tehais == first_b.tehais


def test_hand_seating_reads_the_mcr_meta_and_checks_it() -> None:
    assert hand_seating(Event("start_kyoku", bakaze=0, kyoku=0)) == (0, 1, 2, 3)
    moved = Event("start_kyoku", bakaze=1, kyoku=0, meta={"seating": [1, 0, 3, 2]})
    assert hand_seating(moved) == (1, 0, 3, 2)
    with pytest.raises(RecordError, match="not a permutation"):
        hand_seating(Event("start_kyoku", bakaze=1, kyoku=0, meta={"seating": [0, 0, 1, 2]}))


def test_summarize_maps_positions_to_players() -> None:
    # Second round of a full MCR game: position p holds player seating[p] = (1, 0, 3, 2)[p].
    events = [
        Event("start_kyoku", bakaze=1, kyoku=0, honba=0, meta={"seating": [1, 0, 3, 2]}),
        Event("pon", actor=2, target=0, pai=0, consumed=(0, 0)),
        Event("hora", actor=3, target=0, pai=5, deltas=(-16, -8, -8, 32), han=8),
        Event("start_kyoku", bakaze=1, kyoku=1, honba=0, meta={"seating": [1, 0, 3, 2]}),
        Event("ryukyoku", kind="exhaustive", deltas=(0, 0, 0, 0)),
    ]
    first, second = summarize(events)
    assert first.called == [False, False, False, True]  # position 2 = player 3
    assert first.deltas == [-8, -16, 32, -8]
    (win,) = first.wins
    assert (win.winner, win.from_seat, win.points, win.han) == (2, 1, 32, 8)
    assert first.deal_in == 1
    assert second.outcome == "ryukyoku" and second.deltas == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("rules", "options"),
    [("mcr", {"preset": "mcr_official"}), ("mcr", {"preset": "botzone"}), ("suits108", {})],
)
def test_hand_tallies_add_up_to_the_final_scores(rules: str, options: dict[str, str]) -> None:
    """Per player, the recorded hand payments equal the game's score change; wins and deal-ins
    agree with the hands.  With seat changes a wrong mapping breaks the first check."""
    lineup = ["expert", "efficiency", "random", "efficiency"]
    for deal in range(2):
        key = GameKey(deal, 1)
        record = play_scheduled(rules, options, lineup, 11, key)
        game = make_game(rules, record.seed, [s.agent for s in record.seats], options)
        start = next(e for e in game.events if e.type == "start_kyoku").scores
        for seat in record.seats:
            paid = sum(h.deltas[seat.seat] for h in record.hands)
            assert paid == seat.score - start[seat.seat], (rules, deal, seat)
            assert seat.wins == sum(
                1 for h in record.hands if any(w.winner == seat.seat for w in h.wins)
            )
            assert seat.hands == len(record.hands)
        assert sum(s.rank for s in record.seats) == 10
        if rules == "mcr" and options["preset"] == "mcr_official":
            assert len(record.hands) == 16


def test_a_full_mcr_game_changes_seats_and_the_record_follows() -> None:
    names = ["expert", "efficiency", "random", "random"]
    game = make_game("mcr", 3, names, {})
    play(game, [make_agent(n, i) for i, n in enumerate(names)])
    seatings = [tuple(e.meta["seating"]) for e in game.events
                if e.type == "start_kyoku" and e.meta]
    assert len(seatings) == 16 and len(set(seatings)) == 4  # seats change every round
    hands = summarize(game.events)
    for player in range(4):
        assert sum(h.deltas[player] for h in hands) == game.final_scores[player]
    # the identity reading (positions taken as players) would not add up here
    naive = [0, 0, 0, 0]
    for e in game.events:
        if e.type in ("hora", "ryukyoku"):
            for pos, d in enumerate(e.deltas):
                naive[pos] += d
    assert tuple(naive) != game.final_scores


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    arena_cli.register(app)
    return app


@pytest.mark.parametrize(
    ("rules", "extra", "games"),
    [("mcr", ["--preset", "botzone"], 8), ("mcr", [], 4), ("suits108", [], 4)],
)
def test_arena_command_runs_mcr_and_suits108(
    app: typer.Typer, tmp_path: Path, rules: str, extra: list[str], games: int
) -> None:
    db = tmp_path / "r.db"
    args = [
        "arena", "--rules", rules, *extra, "--agents", "expert,efficiency,random,expert",
        "--games", str(games), "--seed", "4", "--db", str(db), "--workers", "1",
        "--no-progress", "--json",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["config"]["rules"] == rules and data["games"] == games
    by_name = {a["agent"]: a for a in data["agents"]}
    assert by_name["expert"]["games"] == 2 * games and by_name["random"]["games"] == games
    assert sum(sum(a["rank_counts"]) for a in data["agents"]) == 4 * games
    assert {(p["a"], p["b"]) for p in data["paired_tests"]} >= {("expert", "efficiency")}
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and json.loads(again.stdout)["run"]["played_now"] == 0


def test_arena_report_for_mcr(app: typer.Typer, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    db, out = tmp_path / "m.db", tmp_path / "rep"
    args = [
        "arena", "--rules", "mcr", "--preset", "botzone", "--agents",
        "expert,efficiency,random,random", "--games", "8", "--db", str(db), "--workers", "1",
        "--no-progress", "--report", str(out),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text()
    assert "mcr" in md and "| expert | 8 |" in md
    assert "score diff [95% CI]" in md


def test_mcr_summary_shows_the_paired_score_difference(app: typer.Typer, tmp_path: Path) -> None:
    # Botzone ranks by score: the MCR summary prints it beside the place difference.
    args = [
        "arena", "--rules", "mcr", "--preset", "botzone", "--agents",
        "expert,efficiency,expert,efficiency", "--games", "20", "--seed", "3",
        "--db", str(tmp_path / "s.db"), "--workers", "1", "--no-progress",
    ]  # 5 deals: the fewest for which an interval is shown
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "score per game difference" in text
    assert "score per game ± 95% interval" in text


def test_bad_mcr_preset_is_a_usage_error(app: typer.Typer, tmp_path: Path) -> None:
    args = [
        "arena", "--rules", "mcr", "--preset", "tenhou", "--agents", "random,random,random,random",
        "--games", "4", "--db", str(tmp_path / "x.db"), "--workers", "1", "--no-progress",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "preset" in result.output

"""The score breakdown of an MCR arena run: its parts add up to the arena's own figures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tenpai import tiles as T
from tenpai.arena.stats import paired_test
from tenpai.arena.store import ResultsStore
from tenpai.bench.mcr_replay import TableReplay, stored_games
from tenpai.bench.mcr_score_breakdown import SOURCES, compare, main, read_run, report


@pytest.fixture
def run_db(mcr_planner_run: Path) -> Path:
    return mcr_planner_run


def test_every_seat_score_is_its_hand_payment(run_db: Path) -> None:
    hands = read_run(str(run_db))
    assert len(hands) == 48
    for h in hands:
        assert h.delta == h.row.score
        assert h.source in SOURCES[:-1]
    games: dict[tuple[int, int], list[str]] = {}
    for h in hands:
        games.setdefault((h.row.deal, h.row.rotation), []).append(h.source)
    for sources in games.values():
        wins = [s for s in sources if s in SOURCES[:2]]
        assert len(wins) <= 1
        if "own self-draw win" in sources:
            assert sorted(sources).count("another's self-draw") == 3
        if "own discard win" in sources:
            assert sources.count("dealt in") == 1
            assert sources.count("another's win off a third seat") == 2


def test_the_counts_match_the_stored_wins(run_db: Path) -> None:
    hands = read_run(str(run_db))
    store = ResultsStore(run_db)
    try:
        tsumo = next(store.query("SELECT COUNT(*) FROM wins WHERE from_seat IS NULL"))[0]
        ron = next(store.query("SELECT COUNT(*) FROM wins WHERE from_seat IS NOT NULL"))[0]
        fans = sorted(r[0] for r in store.query("SELECT han FROM wins"))
        rows = store.seat_rows()
    finally:
        store.close()
    assert sum(h.source == "own self-draw win" for h in hands) == tsumo
    assert sum(h.source == "own discard win" for h in hands) == ron
    assert sum(h.source == "dealt in" for h in hands) == ron
    assert sorted(h.fans or 0 for h in hands if h.source in SOURCES[:2]) == fans
    assert tsumo + ron > 0
    # the paired total is the arena's own score difference, and the parts sum to it
    lines = report(hands, "planner")
    arena = paired_test(rows, "planner", "efficiency")
    total_line = next(x for x in lines if x.startswith("paired by wall"))
    shown = f"{arena.score_diff:+.2f} [{arena.score_low:+.2f}, {arena.score_high:+.2f}]"
    assert shown in total_line
    parts = lines[lines.index(total_line) + 1:]
    assert len(parts) == len(SOURCES)
    assert abs(sum(float(p.split()[-3]) for p in parts) - (arena.score_diff or 0.0)) < 0.05


def test_the_replay_holds_the_winners_tiles(run_db: Path) -> None:
    checked = 0
    for game in stored_games([str(run_db)], "test"):
        table = TableReplay()
        for e in game.events:
            if e.type == "hora":
                assert e.actor is not None
                # the winner's concealed tiles, the discard it won on not among them
                assert table.counts[e.actor] == T.counts34(e.hora_tehais)
                checked += 1
                break
            table.apply(e)
    assert checked > 0


def test_the_report_prints_every_source(run_db: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    main([str(run_db)])
    out = capsys.readouterr().out
    names = [line[2:33].strip() for line in out.splitlines() if line.startswith("  ")]
    for source in SOURCES:
        assert names.count(source) == 3  # planner's table, efficiency's table, the paired parts
    assert "ever ready with an 8-fan discard win" in out


def test_a_cut_run_pairs_only_its_whole_walls(run_db: Path) -> None:
    """A run stopped inside a wall: the paired lines are those of the run without that wall."""
    hands = read_run(str(run_db))
    last = max(h.row.deal for h in hands)
    cut = [h for h in hands if not (h.row.deal == last and h.row.rotation >= 2)]
    without = [h for h in hands if h.row.deal != last]

    def paired(lines: list[str]) -> list[str]:
        at = next(i for i, line in enumerate(lines) if line.startswith("paired by wall"))
        return [line.split("points per game: ")[-1] for line in lines[at:]]

    cut_lines = report(cut, "planner")
    assert paired(cut_lines) == paired(report(without, "planner"))
    assert any("(2 walls, 1 played only in part left out)" in line for line in cut_lines)
    assert not any("left out" in line for line in report(hands, "planner"))


def test_two_runs_of_the_same_walls_pair_game_by_game(
        run_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        mcr_arena: Callable[[Path, str, int, int], None]) -> None:
    other = tmp_path / "expert.db"
    mcr_arena(other, "expert,efficiency,efficiency,efficiency", 5, 12)
    here, base = read_run(str(other)), read_run(str(run_db))
    lines = compare(here, "expert", base, "planner")
    store_a, store_b = ResultsStore(other), ResultsStore(run_db)
    try:
        a = paired_test(store_a.seat_rows(), "expert", "efficiency")
        b = paired_test(store_b.seat_rows(), "planner", "efficiency")
    finally:
        store_a.close()
        store_b.close()
    # every wall in both runs: the mean of the per-wall differences is the difference of means
    total = float(lines[0].split("points per game: ")[1].split()[0])
    assert abs(total - ((a.score_diff or 0.0) - (b.score_diff or 0.0))) < 0.006
    assert "(3 walls;" in lines[0]
    parts = [float(x.split()[-3]) for x in lines[1:]]
    assert len(parts) == len(SOURCES) and abs(sum(parts) - total) < 0.05
    # a run compared with itself changes nothing
    same = compare(base, "planner", base, "planner")
    assert "0 games with another result" in same[0] and "+0.00 [+0.00, +0.00]" in same[0]
    # a run stopped part-way through a wall: only the walls both runs played in full pair
    cut = [h for h in here if not (h.row.deal == max(x.row.deal for x in here)
                                   and h.row.rotation >= 2)]
    part = compare(cut, "expert", base, "planner")
    assert "(2 walls, 1 played in only one run or only in part left out;" in part[0]
    full_two = compare([h for h in here if h.row.deal != max(x.row.deal for x in here)],
                       "expert", base, "planner")
    assert part[0].split("points per game: ")[1] == full_two[0].split("points per game: ")[1]
    # other walls are refused in one line
    walls = tmp_path / "other_walls.db"
    mcr_arena(walls, "planner,efficiency,efficiency,efficiency", 6, 4)
    with pytest.raises(SystemExit) as exc:
        main([str(walls), "--against", str(run_db)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "different walls" in err and len(err.strip().splitlines()) == 1

"""Issue 18: ``tenpai arena --save-records DIR --format mjai|mjlog|tenhou6`` writes every game of
a run (resumed runs and games stored before records were asked for too), and the summary and
report point the biggest wins and worst deal-ins at ``tenpai view`` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.arena.record import play_scheduled
from tenpai.arena.runner import make_config
from tenpai.arena.saved import final_points, records_format
from tenpai.arena.schedule import all_keys
from tenpai.arena.store import ResultsStore
from tenpai.cli.main import app
from tenpai.records import read_games
from tenpai.replay.runner import replay_files

_LINEUP = ("efficiency", "random", "efficiency", "random")
_OPTIONS = {"length": "tonpuu"}
_GAMES = 8


def _arena(db: Path, *extra: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, [
        "arena", "--agents", ",".join(_LINEUP), "--games", str(_GAMES), "--db", str(db),
        "--workers", "1", "--option", "length=tonpuu", "--no-progress", *extra])
    return res.exit_code, res.stdout, res.stderr


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name != "MANIFEST.tsv")


@pytest.mark.parametrize("fmt", ["mjai", "mjlog", "tenhou6"])
def test_a_resumed_run_writes_every_game(tmp_path: Path, fmt: str) -> None:
    db, out = tmp_path / "run.db", tmp_path / "records"
    config, _ = make_config("riichi", _LINEUP, _GAMES, 0, _OPTIONS)
    with ResultsStore(db) as store:  # an earlier invocation stored three games, then stopped
        store.begin_run(config)
        for key in all_keys(_GAMES)[:3]:
            store.add_game(play_scheduled("riichi", config.options, config.agents, 0, key))
    code, _, err = _arena(db, "--save-records", str(out), "--format", fmt)
    assert code == 0, err
    assert f"records of all {_GAMES} games in {out}" in err
    files = _files(out)
    assert [p.name for p in files][:2] == [f"d00000-r0{files[0].suffix}",
                                           f"d00000-r1{files[0].suffix}"]
    assert len(files) == _GAMES
    summary = replay_files([out])  # the written games are legal and score as stored
    assert (summary.games, summary.passed) == (_GAMES, _GAMES), summary.failures
    with ResultsStore(db) as store:
        scores = {(s.deal, s.rotation, s.seat): s.score for s in store.seat_rows()}
    for path in files:
        (game,) = read_games(path)
        deal, rot = int(path.stem[1:6]), int(path.stem[-1])
        assert game.final_scores == tuple(scores[(deal, rot, s)] for s in range(4))
        assert list(game.names) == [_LINEUP[(s - rot) % 4] for s in range(4)]
    assert records_format(out) == fmt


def test_records_asked_for_after_the_run_and_games_without_events(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    assert _arena(db)[0] == 0  # the whole run, no records asked for
    with ResultsStore(db) as store:  # as if two games were stored by an older tenpai
        store._conn.execute("DELETE FROM game_events WHERE deal = 1 AND rotation IN (0, 2)")
    first, again = tmp_path / "a", tmp_path / "b"
    code, _, err = _arena(db, "--save-records", str(first))
    assert code == 0, err
    assert "played 0 games now" in err and len(_files(first)) == _GAMES
    code, _, err = _arena(db, "--save-records", str(again))
    assert code == 0, err
    # a game played again from its key is the very game that was stored
    for name in ("d00001-r0.mjson", "d00001-r2.mjson", "d00000-r3.mjson"):
        assert (first / name).read_bytes() == (again / name).read_bytes()


def test_refusals_are_one_line_before_playing(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    code, _, err = _arena(db, "--save-records", str(a_file))
    assert code == 2 and "is a file, not a folder" in err
    code, _, err = _arena(db, "--save-records", str(tmp_path / "r"), "--format", "xml")
    assert code == 2 and "--format 'xml' is not a record format" in err
    res = CliRunner().invoke(app, [
        "arena", "--agents", "random,random,random,random", "--rules", "mcr", "--games", "4",
        "--db", str(tmp_path / "m.db"), "--save-records", str(tmp_path / "m"),
        "--format", "mjlog", "--no-progress"])
    assert res.exit_code == 2 and "--format mjlog holds Riichi games" in res.stderr
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    code, _, err = _arena(db, "--save-records", str(busy))
    assert code == 2 and "already holds other files" in err
    assert not db.exists() or not any(True for _ in ResultsStore(db).seat_rows())
    code, _, _ = _arena(db, "--save-records", str(tmp_path / "ok"))
    assert code == 0
    res = CliRunner().invoke(app, [
        "arena", "--agents", "random,random,random,random", "--games", "4",
        "--db", str(tmp_path / "other.db"), "--option", "length=tonpuu", "--no-progress",
        "--save-records", str(tmp_path / "ok")])
    assert res.exit_code == 2 and "holds records of another run" in res.stderr


def test_highlights_point_at_view_commands(tmp_path: Path) -> None:
    db, out = tmp_path / "run.db", tmp_path / "records"
    code, stdout, err = _arena(db, "--save-records", str(out), "--json")
    assert code == 0, err
    h = json.loads(stdout)["highlights"]
    with ResultsStore(db) as store:
        (best,) = next(store.query("SELECT MAX(points) FROM wins"))
    assert h["biggest_wins"] and h["biggest_wins"][0]["points"] == best
    assert h["worst_deal_ins"] and all(x["points"] > 0 for x in h["worst_deal_ins"])
    top = h["biggest_wins"][0]
    view = top["view"]
    assert view.startswith(f"tenpai view --bare {out}/d{top['deal']:05d}-r{top['rotation']}.mjson")
    link = subprocess.run(view.replace("tenpai ", f"{sys.executable} -m tenpai ", 1),
                          shell=True, capture_output=True, text=True, check=True).stdout
    assert link.startswith("https://tenhou.net/6/#json=") and link.count("\n") == 1
    code, text, _ = _arena(db, "--save-records", str(out))  # text summary: the same commands
    assert code == 0 and view in text
    pytest.importorskip("matplotlib")
    res = CliRunner().invoke(app, ["arena-report", "--db", str(db), "--out",
                                   str(tmp_path / "rep"), "--records", str(out)])
    assert res.exit_code == 0, res.stderr
    report = (tmp_path / "rep" / "report.md").read_text()
    assert "## Biggest wins and worst deal-ins" in report
    assert view.replace("|", "\\|") in report


def test_mcr_runs_save_mjai(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, [
        "arena", "--agents", "random,random,random,random", "--rules", "mcr", "--games", "4",
        "--db", str(tmp_path / "m.db"), "--save-records", str(tmp_path / "m"),
        "--no-progress", "--workers", "1"])
    assert res.exit_code == 0, res.stderr
    files = _files(tmp_path / "m")
    assert len(files) == 4
    (game,) = read_games(files[0])
    assert game.rounds and len(game.names) == 4


def test_final_points_as_tenhou_writes_them() -> None:
    config, _ = make_config("riichi", _LINEUP, 4, 0, _OPTIONS)
    points = final_points((25100, 17800, 33100, 24000), config)
    # scores rounded to thousands (17,800 -> 18), the rule every Houou record follows
    assert points == (5.0, -32.0, 43.0, -16.0) and sum(points or ()) == 0
    assert final_points((25000,) * 4, config) == (35.0, 5.0, -15.0, -25.0)  # ties: seat order
    sanma, _ = make_config("riichi", _LINEUP[:3], 3, 0, {"preset": "tenhou_sanma"})
    assert final_points((13700, 53900, 37400), sanma) == (-46.0, 49.0, -3.0)  # return 40,000
    mcr, _ = make_config("mcr", ("random",) * 4, 4, 0)
    assert final_points((10, -10, 0, 0), mcr) is None

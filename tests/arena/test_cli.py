"""``tenpai arena`` / ``arena-report`` end to end, the report files and the demo's match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer

from tenpai.arena.quick import run_quick_match

from .helpers import arena_app, run_cli


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    return arena_app()


_run = run_cli


def test_arena_json_rounds_up_and_resumes(app: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    args = [
        "arena",
        "--agents",
        "random,random,efficiency,random",
        "--games",
        "6",
        "--seed",
        "3",
        "--db",
        str(db),
        "--workers",
        "1",
        "--no-progress",
        "--json",
    ]
    first = _run(app, *args)
    assert first.exit_code == 0, first.output
    assert "rounded up to 8" in first.stderr
    data = json.loads(first.stdout)
    assert data["games"] == 8 and data["deals"] == 2
    assert data["run"]["played_now"] == 8
    by_name = {a["agent"]: a for a in data["agents"]}
    assert by_name["random"]["games"] == 24 and by_name["efficiency"]["games"] == 8
    assert sum(by_name["efficiency"]["rank_counts"]) == 8
    assert data["paired_tests"][0]["deals"] == 2
    again = _run(app, *args)
    assert again.exit_code == 0
    assert json.loads(again.stdout)["run"]["played_now"] == 0


def test_arena_without_db_plays_reports_and_leaves_no_file(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = _run(app, "arena", "--agents", "random,efficiency,random,efficiency", "--games",
                  "4", "--seed", "1", "--workers", "1", "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    assert "temporary file" in result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["run"]["played_now"] == 4
    assert list(tmp_path.iterdir()) == []  # the temporary results file is gone


def test_arena_refuses_another_run_in_the_same_db(app: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    base = [
        "arena",
        "--agents",
        "random,random,random,random",
        "--games",
        "4",
        "--db",
        str(db),
        "--workers",
        "1",
        "--no-progress",
    ]
    assert _run(app, *base, "--seed", "1").exit_code == 0
    other = _run(app, *base, "--seed", "2")
    assert other.exit_code == 2
    assert "holds a different run" in other.stderr and "seed: stored 1, asked 2" in other.stderr


def test_extend_plays_a_stored_run_on_and_its_games_are_the_longer_runs(
        app: typer.Typer, tmp_path: Path) -> None:
    """--extend keeps the stored games and plays only the new ones; the whole file then holds
    what one longer run writes (the same deals, seeds and games)."""
    import sqlite3
    import zlib

    def args(db: Path, games: int, *more: str) -> list[str]:
        return ["arena", "--agents", "random,efficiency,random,efficiency", "--games",
                str(games), "--seed", "4", "--db", str(db), "--workers", "1", "--no-progress",
                "--json", *more]

    short, long = tmp_path / "short.db", tmp_path / "long.db"
    assert _run(app, *args(short, 4)).exit_code == 0
    plain = _run(app, *args(short, 8))
    assert plain.exit_code == 2 and "--extend to play it on" in plain.stderr
    grown = _run(app, *args(short, 8, "--extend"))
    assert grown.exit_code == 0, grown.output
    data = json.loads(grown.stdout)
    assert data["games"] == 8 and data["run"]["played_now"] == 4
    assert _run(app, *args(long, 8)).exit_code == 0

    def games(db: Path) -> list[tuple[int, int, int, bytes]]:
        with sqlite3.connect(db) as con:
            return [(d, r, seed, zlib.decompress(blob)) for d, r, seed, blob in con.execute(
                "SELECT g.deal, g.rotation, g.wall_seed, e.mjai_zlib FROM games g JOIN "
                "game_events e USING (deal, rotation) ORDER BY g.deal, g.rotation")]

    assert games(short) == games(long) and len(games(long)) == 8
    # resuming the extended run asks for its new count, with or without --extend
    again = _run(app, *args(short, 8))
    assert again.exit_code == 0 and json.loads(again.stdout)["run"]["played_now"] == 0


@pytest.mark.parametrize(("more", "message"), [
    (["--games", "4", "--extend"], "holds a run of 8 games; --extend needs more games"),
    (["--games", "12", "--seed", "5", "--extend"], "--extend changes only the number of games"),
])
def test_extend_refuses_anything_but_more_games(app: typer.Typer, tmp_path: Path,
                                                more: list[str], message: str) -> None:
    db = tmp_path / "a.db"
    base = ["arena", "--agents", "random,random,random,random", "--db", str(db),
            "--workers", "1", "--no-progress"]
    assert _run(app, *base, "--games", "8", "--seed", "4").exit_code == 0
    result = _run(app, *base, *(["--seed", "4"] if "--seed" not in more else []), *more)
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_extend_needs_a_stored_run(app: typer.Typer, tmp_path: Path) -> None:
    result = _run(app, "arena", "--agents", "random,random,random,random", "--games", "4",
                  "--extend", "--workers", "1", "--no-progress", "--db",
                  str(tmp_path / "none.db"))
    assert result.exit_code == 2 and "--extend plays a stored run on" in result.stderr
    assert not (tmp_path / "none.db").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random,nobody,random,random"], "unknown agent nobody"),
        (["--agents", "random,random,random"], "seat 4 agents, got 3"),
        (["--agents", "random,random,random,random", "--rules", "hk"], "unknown rules 'hk'"),
        (["--agents", "random,random,random,random", "--length", "east"], "length='east'"),
        (["--agents", "random,random,random,random", "--option", "oops"], "KEY=VALUE"),
    ],
)
def test_bad_usage_exits_2(app: typer.Typer, tmp_path: Path, args: list[str], message: str) -> None:
    result = _run(app, "arena", *args, "--games", "4", "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 2
    assert message in result.output


def test_ray_backend_without_ray_is_a_clear_error(app: typer.Typer, tmp_path: Path) -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed here")
    result = _run(
        app,
        "arena",
        "--agents",
        "random,random,random,random",
        "--games",
        "4",
        "--db",
        str(tmp_path / "r.db"),
        "--backend",
        "ray",
        "--no-progress",
    )
    assert result.exit_code == 2
    assert "pip install 'tenpai[scale]'" in result.stderr


def test_report_files(app: typer.Typer, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    db = tmp_path / "a.db"
    out = tmp_path / "report"
    assert (
        _run(
            app,
            "arena",
            "--agents",
            "efficiency,random,random,random",
            "--games",
            "8",
            "--db",
            str(db),
            "--workers",
            "1",
            "--no-progress",
        ).exit_code
        == 0
    )
    result = _run(app, "arena-report", "--db", str(db), "--out", str(out), "--block-size", "4")
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text()
    assert "| efficiency | 8 |" in md and "## Paired comparisons" in md
    for png in ("avg_rank.png", "rank_distribution.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(out.glob("*.tmp*"))
    missing = _run(app, "arena-report", "--db", str(tmp_path / "none.db"), "--out", str(out))
    assert missing.exit_code == 2


def test_quick_match_plays_whole_deal_sets() -> None:
    from rich.console import Console

    console = Console(record=True, width=100)
    summary = run_quick_match(["random"] * 4, games=3, seed=1, console=console)
    assert summary.games == 4
    text = console.export_text()
    assert "rounded up to 4" in text and "random" in text

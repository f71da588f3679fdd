"""Issue 20: long commands show progress on stderr when stderr is not a terminal too.

Rich's bar hides itself off a terminal, so ``dataset build``, ``replay`` of a folder, ``eval
agreement``, ``arena`` and ``train pg imitate`` printed nothing while they ran when piped (a
seven-minute build said nothing).  Each now writes plain lines; stdout stays free of them.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.cli.main import app
from tenpai.engine import play
from tenpai.progress import ENV_SECONDS, StepProgress, line_interval
from tenpai.records import Game, RuleFlags, write_game
from tenpai.replay.riichi import split_rounds
from tenpai.rules.riichi.game import RiichiGame

_EVERY_STEP = {ENV_SECONDS: "0"}


def test_plain_lines_off_a_terminal() -> None:
    out = io.StringIO()
    with StepProgress("building", 3, stream=out, every_seconds=0) as p:
        for _ in range(3):
            p.advance(note="x.mjlog")
    lines = out.getvalue().splitlines()
    assert lines[0] == "building: 0/3 files (0%)"
    assert lines[1].startswith("building: 1/3 files (33%)") and lines[1].endswith("x.mjlog")
    assert lines[-1].startswith("building done: 3/3 files")


def test_lines_are_rate_limited_and_an_interrupt_adds_none() -> None:
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt), \
            StepProgress("games", 100, unit="games", stream=out, every_seconds=3600) as p:
        for _ in range(50):
            p.advance()
        raise KeyboardInterrupt  # the command prints its own one line
    assert out.getvalue().splitlines() == ["games: 0/100 games (0%)"]


def test_a_terminal_gets_the_bar_and_disabled_shows_nothing() -> None:
    term = Console(file=io.StringIO(), force_terminal=True)
    with StepProgress("games", 2, console=term) as p:
        p.advance()
    assert "games" in term.file.getvalue()  # type: ignore[attr-defined]
    out = io.StringIO()
    with StepProgress("games", 2, stream=out, enabled=False) as p:
        p.advance()
    assert out.getvalue() == ""


def test_interval_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_SECONDS, "2.5")
    assert line_interval() == 2.5
    monkeypatch.setenv(ENV_SECONDS, "soon")
    assert line_interval() == 10.0


def _riichi_records(folder: Path, n: int) -> Path:
    """``n`` engine-played tonpuu games written as mjai records (no shared data needed)."""
    folder.mkdir()
    for seed in range(n):
        game = RiichiGame(seed=seed)
        play(game, [make_agent("efficiency", seed * 4 + s) for s in range(4)])
        rec = Game(source="engine", format="engine",
                   rules=RuleFlags(variant="riichi", players=4, red_fives=True),
                   names=("a", "b", "c", "d"), rounds=split_rounds(game.events),
                   final_scores=tuple(game.final_scores))
        write_game(rec, folder / f"g{seed}.mjson", "mjai")
    return folder


def _run(args: list[str]) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, args, env=_EVERY_STEP)
    return res.exit_code, res.stdout, res.stderr


def test_dataset_build_shows_progress_when_piped(tmp_path: Path) -> None:
    code, _, _ = _run(["dataset", "record", str(tmp_path / "recs"), "--rules", "suits108",
                       "--games", "2"])
    assert code == 0
    code, out, err = _run(["dataset", "build", str(tmp_path / "recs"), str(tmp_path / "ds"),
                           "--rules", "suits108"])
    assert code == 0, err
    assert "building: 1/2 files" in err  # before: nothing at all
    assert "building done: 2/2 files" in err
    assert "building" not in out


def test_replay_of_a_folder_shows_progress_and_json_stays_alone(tmp_path: Path) -> None:
    recs = _riichi_records(tmp_path / "recs", 2)
    code, out, err = _run(["replay", str(recs), "--json"])
    assert code == 0, err
    assert "replaying: 1 games" in err and "replaying done: 2 games" in err
    assert out.count("\n") == 1 and out.startswith("{")


def test_arena_shows_progress_when_piped(tmp_path: Path) -> None:
    code, out, err = _run(["arena", "--agents", "random,random,random,random", "--games", "4",
                           "--db", str(tmp_path / "a.db"), "--workers", "1",
                           "--option", "length=tonpuu", "--json"])
    assert code == 0, err
    assert "games: 1/4 games" in err and "games done: 4/4 games" in err
    assert "games:" not in out


def test_eval_agreement_shows_progress_when_piped(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    recs = _riichi_records(tmp_path / "recs", 2)
    code, out, err = _run(["eval", "agreement", str(recs), "--room", "any", "--json"])
    assert code == 0, err
    assert "evaluating: 1/2 files" in err and "evaluating done: 2/2 files" in err
    assert "evaluating" not in out

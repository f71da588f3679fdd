"""The corpus on the compiled table: a record replays the same on both Riichi rounds.

CI replays a fixed sample of 20 four-player Tenhou games from the index on the compiled table
and on the Python round; the outcome, the divergence (if any) and every event the replay emits
must be equal.  The whole corpus is one command on each path (docs/riichi.md):
``tenpai replay ../shared/data/riichi/tenhou_mjlog --engine compiled`` (or ``python``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.records.mjlog_read import read_mjlog
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import replay_files, riichi_rules_for
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.compiled_round import reference_rounds_built

SAMPLE = 20
built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")


def _four_player_sample(data: Path) -> list[Path]:
    base = data / "riichi" / "tenhou_mjlog"
    with open(base / "games_index.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh)
                if "/4p/" in r["rule"] and r["complete"] == "True"]
    step = max(1, len(rows) // SAMPLE)
    return [base / r["file"] for r in rows[::step][:SAMPLE]]


@built
def test_a_corpus_sample_replays_the_same_on_both_rounds(data_dir: Path) -> None:
    compiled_games = 0
    before = reference_rounds_built()
    for path in _four_player_sample(data_dir):
        game = read_mjlog(path)
        rules = riichi_rules_for(game, "tenhou")
        results = [replay_riichi(game.events(), rules=rules, final_scores=game.final_scores,
                                 name=path.name, engine=engine)
                   for engine in ("python", "auto")]
        py, co = results
        assert (py.ok, py.rounds, str(py.divergence)) == (co.ok, co.rounds, str(co.divergence))
        assert py.events == co.events, path.name
        assert py.ok, f"{path.name}: {py.divergence}"
        compiled_games += compiled_round.covers(rules)
    # most of the sample is on the table (chip tables and 2009 rules stay on the Python round)
    assert compiled_games >= SAMPLE * 3 // 4
    # the replay reads the compiled hand itself, never the Python round built on demand
    assert reference_rounds_built() == before


@built
def test_the_replay_counts_the_engine_of_each_game(data_dir: Path) -> None:
    paths = _four_player_sample(data_dir)[:2]
    on_table = replay_files(paths, engine="compiled")
    assert on_table.engines == {"compiled": 2} and on_table.passed == 2
    on_python = replay_files(paths, engine="python")
    assert on_python.engines == {"python": 2} and on_python.passed == 2


def test_the_engine_flag_is_checked(data_dir: Path) -> None:
    path = str(_four_player_sample(data_dir)[0])
    runner = CliRunner()
    res = runner.invoke(app, ["replay", path, "--engine", "rust"])
    assert res.exit_code == 2 and "unknown engine" in res.output
    res = runner.invoke(app, ["replay", path, "--rules", "mcr", "--engine", "compiled"])
    assert res.exit_code == 2 and "plays Riichi" in res.output
    res = runner.invoke(app, ["replay", path, "--engine", "python", "--json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout.splitlines()[-1])["engines"] == {"python": 1}


def _first(data: Path, keep: Callable[[dict[str, str]], bool], count: int = 1) -> list[Path]:
    base = data / "riichi" / "tenhou_mjlog"
    with open(base / "games_index.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if keep(r)]
    return [base / r["file"] for r in rows[:count]]


@built
def test_a_three_player_sample_replays_the_same_on_both_rounds(data_dir: Path) -> None:
    paths = _first(data_dir, lambda r: "/3p/" in r["rule"] and r["complete"] == "True", 4)
    assert len(paths) == 4
    for path in paths:
        game = read_mjlog(path)
        rules = riichi_rules_for(game, "tenhou")
        assert rules.players == 3 and compiled_round.covers(rules), path.name
        py, co = (replay_riichi(game.events(), rules=rules, final_scores=game.final_scores,
                                name=path.name, engine=engine)
                  for engine in ("python", "compiled"))
        assert py.ok and co.ok, f"{path.name}: {py.divergence} / {co.divergence}"
        assert py.events == co.events, path.name


@built
def test_compiled_only_skips_the_rules_it_does_not_cover(data_dir: Path) -> None:
    # the 2009 Houou tables played without red fives: hand rules no compiled preset has
    old = next(p for p in _first(data_dir, lambda r: "/4p/noaka/" in r["rule"], 50)
               if not compiled_round.covers(riichi_rules_for(read_mjlog(p), "tenhou")))
    summary = replay_files([old], engine="compiled")
    assert summary.skipped == 1 and summary.passed == 0
    assert "does not cover" in next(iter(summary.skip_reasons))
    assert replay_files([old]).engines == {"python": 1}  # auto: the Python round

"""The corpus on the compiled table: a record replays the same on both Riichi rounds.

CI replays a fixed sample of 20 four-player Tenhou games from the index on the compiled table
and on the Python round; the outcome, the divergence (if any) and every event the replay emits
must be equal.  The whole corpus is one command on each path (docs/riichi.md):
``tenpai replay ../shared/data/riichi/tenhou_mjlog --engine compiled`` (or ``python``).
"""

from __future__ import annotations

import csv
import json
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
                                 name=path.name, engine=engine)  # type: ignore[arg-type]
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


@built
def test_compiled_only_skips_the_rules_it_does_not_cover(data_dir: Path) -> None:
    base = data_dir / "riichi" / "tenhou_mjlog"
    with open(base / "games_index.csv", newline="") as fh:
        sanma = next(base / r["file"] for r in csv.DictReader(fh) if "/3p/" in r["rule"])
    if compiled_round.covers(riichi_rules_for(read_mjlog(sanma), "tenhou")):
        pytest.skip("the compiled table covers three-player games now")
    summary = replay_files([sanma], engine="compiled")
    assert summary.skipped == 1 and summary.passed == 0
    assert "does not cover" in next(iter(summary.skip_reasons))
    assert replay_files([sanma]).engines == {"python": 1}  # auto: the Python round

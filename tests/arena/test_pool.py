"""``tenpai arena-pool``: runs of one line-up on other deals read as one tournament."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer

from tenpai.arena.pool import PoolError, pooled_summary

from .helpers import arena_app, run_cli

LINEUP = "efficiency,random,efficiency,random"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    return arena_app()


_run = run_cli


def _arena(app: typer.Typer, db: Path, seed: int, agents: str = LINEUP,
           games: int = 8) -> dict[str, Any]:
    result = _run(app, "arena", "--agents", agents, "--games", str(games), "--seed", str(seed),
                  "--db", str(db), "--workers", "1", "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def runs(app: typer.Typer, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ...]:
    folder = tmp_path_factory.mktemp("pool")
    paths = (folder / "s1.db", folder / "s2.db", folder / "s1_again.db", folder / "other.db")
    _arena(app, paths[0], 1)
    _arena(app, paths[1], 2, games=4)
    _arena(app, paths[2], 1)
    _arena(app, paths[3], 3, agents="efficiency,random,random,random", games=4)
    return paths


def _pair(data: dict[str, Any]) -> dict[str, Any]:
    pairs: list[dict[str, Any]] = data["paired_tests"]
    (pair,) = pairs
    return pair


def test_pooling_counts_every_deal_of_every_run_once(
    app: typer.Typer, runs: tuple[Path, ...]
) -> None:
    first = pooled_summary([runs[0]]).as_dict()
    second = pooled_summary([runs[1]]).as_dict()
    result = _run(app, "arena-pool", str(runs[0]), str(runs[1]), "--json")
    assert result.exit_code == 0, result.output
    both = json.loads(result.stdout)
    assert both["games"] == 12 and both["deals"] == 3
    assert both["config"]["seeds"] == [1, 2] and both["config"]["games"] == 12
    # The pooled mean difference is the deal-weighted mean of the runs' (2 deals and 1 deal).
    expected = (2 * _pair(first)["mean_diff"] + _pair(second)["mean_diff"]) / 3
    assert _pair(both)["deals"] == 3
    assert _pair(both)["mean_diff"] == pytest.approx(expected)
    by_name = {a["agent"]: a for a in both["agents"]}
    assert by_name["efficiency"]["games"] == 24
    assert sum(by_name["random"]["rank_counts"]) == 24
    table = _run(app, "arena-pool", str(runs[0]), str(runs[1]))
    assert table.exit_code == 0 and "(seeds 1, 2)" in table.stdout


@pytest.mark.parametrize(
    ("pick", "message"),
    [
        ((0, 2), "both have seed 1"),
        ((0, 3), "has agents efficiency,random,random,random"),
    ],
)
def test_runs_that_are_not_one_experiment_on_other_deals_are_refused(
    app: typer.Typer, runs: tuple[Path, ...], pick: tuple[int, int], message: str
) -> None:
    result = _run(app, "arena-pool", *(str(runs[i]) for i in pick))
    assert result.exit_code == 2
    assert message in result.stderr
    with pytest.raises(PoolError, match=message):
        pooled_summary([runs[i] for i in pick])


def test_missing_or_foreign_files_are_one_line_errors(
    app: typer.Typer, runs: tuple[Path, ...], tmp_path: Path
) -> None:
    missing = _run(app, "arena-pool", str(runs[0]), str(tmp_path / "none.db"))
    assert missing.exit_code == 2 and "none.db does not exist" in missing.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 10)
    bad = _run(app, "arena-pool", str(junk))
    assert bad.exit_code == 2 and "junk.db" in bad.stderr
    assert junk.read_bytes() == b"not a database at all" * 10
    empty = tmp_path / "empty.db"
    from tenpai.arena.store import ResultsStore

    with ResultsStore(empty):
        pass
    none = _run(app, "arena-pool", str(empty))
    assert none.exit_code == 2 and "holds no arena run" in none.stderr

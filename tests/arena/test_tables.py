"""Batched arena tables (``--tables``): the same keys, deals and seeds as one game at a time,
network agents made once and answering every table, a per-game seeded agent for the others."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.arena import record as record_mod
from tenpai.arena.games import ArenaConfigError
from tenpai.arena.record import play_scheduled, play_scheduled_batch
from tenpai.arena.runner import _tasks, make_config, run_tournament
from tenpai.arena.schedule import GameKey, all_keys
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.engine.agent import RandomAgent, shares_tables

from .helpers import arena_app, run_cli

TABLES = ("seats", "rounds", "wins", "game_events")


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(db) as c:
        return {t: sorted(c.execute(f"SELECT * FROM {t}").fetchall()) for t in TABLES}


def _run(db: Path, lineup: tuple[str, ...], games: int, tables: int, rules: str = "riichi",
         options: dict[str, str] | None = None) -> int:
    config, _ = make_config(rules, lineup, games, 31, options)
    with ResultsStore(db) as store:
        return run_tournament(config, store, workers=1, tables=tables, progress=False).played


def test_rule_agents_play_the_same_games_on_any_number_of_tables(tmp_path: Path) -> None:
    lineup = ("efficiency", "random", "defensive", "random")
    _run(tmp_path / "one.db", lineup, 12, 1)
    _run(tmp_path / "five.db", lineup, 12, 5)  # not a divisor: the last task is short
    assert _rows(tmp_path / "one.db") == _rows(tmp_path / "five.db")


def test_a_run_stopped_one_game_at_a_time_resumes_batched_to_exactly_its_games(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.db"
    config, _ = make_config("riichi", ("random",) * 4, 16, 4)

    def stop_after_four(_record: object) -> None:
        with ResultsStore(db) as peek:
            if peek.game_count() >= 4:
                raise KeyboardInterrupt

    with ResultsStore(db) as store, pytest.raises(KeyboardInterrupt):
        run_tournament(config, store, workers=1, progress=False, on_game=stop_after_four)
    with ResultsStore(db) as store:
        assert store.game_count() == 4
        outcome = run_tournament(config, store, workers=1, tables=8, progress=False)
        assert outcome.played == 12 and store.game_count() == 16
        assert store.done_keys() == set(all_keys(16, 4))


def test_suits108_and_three_tables(tmp_path: Path) -> None:
    lineup = ("random", "efficiency", "random", "efficiency")
    _run(tmp_path / "a.db", lineup, 8, 1, "suits108")
    _run(tmp_path / "b.db", lineup, 8, 3, "suits108")
    assert _rows(tmp_path / "a.db") == _rows(tmp_path / "b.db")


def test_only_agents_that_opt_in_are_shared() -> None:
    assert not shares_tables(RandomAgent(1))
    assert not shares_tables(make_agent("efficiency", 1))
    assert not shares_tables(object())


def test_tasks_chunk_batched_runs_and_keep_mjai_seats_one_game_each() -> None:
    keys = all_keys(40, 4)
    config = RunConfig("riichi", ("random",) * 4, 40, 1, {})
    assert [len(t[4]) for t in _tasks(config, keys, 1)] == [1] * 40
    chunks = list(_tasks(config, keys, 4))  # lazy since issue 39: a run is never scheduled whole
    assert [len(t[4]) for t in chunks] == [16, 16, 8] and {t[5] for t in chunks} == {4}
    assert [k for t in chunks for k in t[4]] == keys
    external = RunConfig("riichi", ("mjai:/bin/true", "random", "random", "random"), 40, 1, {})
    assert {(len(t[4]), t[5]) for t in _tasks(external, keys, 8)} == {(1, 1)}


def test_bad_table_counts_are_refused(tmp_path: Path) -> None:
    config, _ = make_config("riichi", ("random",) * 4, 4, 1)
    with ResultsStore(tmp_path / "x.db") as store:
        for bad in (0, -3, True, 2.5):
            with pytest.raises(ArenaConfigError, match="tables"):
                run_tournament(config, store, workers=1, tables=bad, progress=False)  # type: ignore[arg-type]
        assert store.game_count() == 0
    with pytest.raises(ValueError, match="tables"):
        list(play_scheduled_batch("riichi", {}, ("random",) * 4, 1, [GameKey(0, 0)], 0))
    result = run_cli(arena_app(), "arena", "--agents", "random,random,random,random",
                     "--games", "4", "--tables", "0", "--db", str(tmp_path / "cli.db"))
    assert result.exit_code == 2 and "--tables" in result.output
    assert not (tmp_path / "cli.db").exists()


# ---------------------------------------------------------------- network agents (torch)


def test_network_agents_are_made_once_and_play_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    lineup = ("sl", "efficiency", "sl", "random")
    made: Counter[str] = Counter()
    real = make_agent

    def counting(name: str, seed: int) -> Any:
        made[name] += 1
        return real(name, seed)

    monkeypatch.setattr(record_mod, "make_agent", counting)
    keys = all_keys(8, 4)
    options = {"length": "tonpuu", "preset": "tenhou"}
    batched = {r.key: r for r in play_scheduled_batch("riichi", options, lineup, 5, keys, 8)}
    assert made["sl"] == 1  # one network object for both seats of all eight tables
    assert made["efficiency"] == 1 + 8 and made["random"] == 1 + 8  # probe + one per game
    assert sorted(batched) == keys
    for k in keys:
        alone = play_scheduled("riichi", options, lineup, 5, k)
        got = batched[k]
        assert got.events == alone.events and got.seats == alone.seats
        assert got.hands == alone.hands and got.seed == alone.seed


def test_a_learner_that_samples_is_never_shared() -> None:
    pytest.importorskip("torch")
    from tenpai.rl.policy import SamplingSLAgent

    assert shares_tables(make_agent("sl", 0)) and shares_tables(make_agent("pg", 0))
    assert not shares_tables(SamplingSLAgent("default", 3))


def test_the_arena_bench_plays_both_ways_and_reports_the_ratio() -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    result = CliRunner().invoke(app, ["bench", "arena", "--agents",
                                      "random,efficiency,random,defensive", "--games", "8",
                                      "--tables", "3", "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout.strip().splitlines()[-1])
    assert s["games"] == 8 and s["tables"] == 3 and s["differing_games"] == 0
    assert s["single_cpu_s_per_game"] > 0 and s["tables_speedup"] > 0
    bad = CliRunner().invoke(app, ["bench", "arena", "--agents", "nobody,random,random,random"])
    assert bad.exit_code == 2 and "unknown agent nobody" in bad.output


def test_mcr_networks_batch_their_discards_and_play_the_same_games() -> None:
    pytest.importorskip("torch")
    from tenpai.bench.arena import run_arena_bench

    r = run_arena_bench("mcr", ("sl_mcr", "expert", "pg_mcr", "efficiency"), 8, 8, 3,
                        {"preset": "botzone"})
    assert r.games == 8 and r.differing_games == 0

"""Issue 39, item 7: CLI inputs that ended in a traceback are now one line and exit 2.

``mjai-bot --connect`` with a port out of range or not a number, ``dataset build`` into an
existing file, ``train opponent-models --out`` a folder, a bad ``TENPAI_MJAI_TIMEOUT`` or
``TENPAI_MDP_SETTINGS``, ``mjai-bot --agent dropout`` (108-tile weights), and ``arena-report`` /
``arena-pool`` / a resumed ``arena`` on a results file whose run configuration is not JSON.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cli.refusal import one_line
from tenpai.arena.runner import make_config
from tenpai.arena.store import ResultsStore
from tenpai.cli.main import app

_ARENA = ["arena", "--agents", "random,random,random,random", "--games", "4", "--workers", "1",
          "--option", "length=tonpuu", "--no-progress"]


def _run(args: list[str], env: dict[str, str] | None = None, stdin: str = "") -> Result:
    return CliRunner().invoke(app, args, env=env, input=stdin)


@pytest.mark.parametrize("url", ["mjsonp://127.0.0.1:99999/x", "mjsonp://127.0.0.1:abc/x",
                                 "mjsonp://127.0.0.1:0/x"])
def test_mjai_bot_connect_with_a_bad_port(url: str) -> None:
    one_line(_run(["mjai-bot", "--agent", "efficiency", "--connect", url]), "port")


def test_mjai_bot_with_an_agent_of_another_model() -> None:
    one_line(_run(["mjai-bot", "--agent", "dropout"]), "dropout")


def test_dataset_build_into_an_existing_file(tmp_path: Path) -> None:
    records = tmp_path / "recs"
    records.mkdir()
    (records / "g.mjson").write_text("")
    target = tmp_path / "existing_file"
    target.write_text("keep me")
    one_line(_run(["dataset", "build", str(records), str(target)]), str(target), "file")
    assert target.read_text() == "keep me"


def test_opponent_models_out_is_a_folder(data_dir: Path, tmp_path: Path) -> None:
    folder = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py"
    one_line(_run(["train", "opponent-models", str(folder), "--room", "any", "--out",
                    str(tmp_path)]), "folder")


def test_a_bad_mjai_timeout(tmp_path: Path) -> None:
    bot = tmp_path / "bot.sh"
    bot.write_text("#!/bin/sh\ncat >/dev/null\n")
    bot.chmod(0o755)
    res = _run([*_ARENA[:2], f"mjai:{bot},random,random,random", *_ARENA[3:]],
               env={"TENPAI_MJAI_TIMEOUT": "soon"})
    one_line(res, "TENPAI_MJAI_TIMEOUT")


def test_a_bad_mdp_settings_in_bench_agent() -> None:
    res = _run(["bench", "agent", "--agent", "mdp", "--games", "1"],
               env={"TENPAI_MDP_SETTINGS": "{bad"})
    one_line(res, "TENPAI_MDP_SETTINGS")


def _broken_run(db: Path, sql: str) -> None:
    config, _ = make_config("riichi", ("random",) * 4, 4, 0, {"length": "tonpuu"})
    with ResultsStore(db) as store:
        store.begin_run(config)
    with contextlib.closing(sqlite3.connect(db)) as c:
        c.execute(sql)
        c.commit()


@pytest.mark.parametrize("sql", ["UPDATE run SET config = 'not json {'",
                                 "UPDATE run SET config = '{\"rules\": 1}'"])
def test_results_files_whose_run_config_is_not_a_run(tmp_path: Path, sql: str) -> None:
    db = tmp_path / "run.db"
    _broken_run(db, sql)
    one_line(_run(["arena-report", "--db", str(db), "--out", str(tmp_path / "r")]), str(db))
    one_line(_run(["arena-pool", str(db)]), str(db))
    one_line(_run([*_ARENA, "--db", str(db)]), str(db), "run configuration")

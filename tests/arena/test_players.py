"""A stored run records which weights each model agent played, so that a run resumed, or two
runs pooled, with another file behind the same name (``sl_model`` with another
``$TENPAI_SL_MODEL``) are refused instead of silently mixing two players."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import typer

from tenpai.arena.pool import PoolError, pooled_summary
from tenpai.arena.runner import make_config
from tenpai.arena.store import ConfigMismatchError, ResultsStore, RunConfig

from .helpers import arena_app, run_cli

pytest.importorskip("torch")

from tenpai.models.bundle import ModelBundle, resolve_model_path
from tenpai.models.torchfile import file_fingerprint

LINEUP = ("sl_model", "random", "sl_model", "random")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The shipped sl weights under a new name, and the same weights saved in float32 (other
    bytes, same player): the fingerprint is of the file, not of what it plays."""
    folder = tmp_path_factory.mktemp("models")
    shipped = resolve_model_path("default")
    a, b = folder / "a.pt", folder / "b.pt"
    shutil.copyfile(shipped, a)
    ModelBundle.load(shipped).save(b)
    return a, b


def test_the_fingerprint_is_the_files_name_and_bytes(
    models: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = models
    same = tmp_path / "a.pt"
    shutil.copyfile(a, same)
    assert file_fingerprint(same) == file_fingerprint(a)
    assert file_fingerprint(a).startswith("a.pt sha256:")
    assert file_fingerprint(a).split()[1] != file_fingerprint(b).split()[1]


def test_a_run_records_the_model_behind_each_name_and_nothing_for_rule_agents(
    models: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = models
    monkeypatch.setenv("TENPAI_SL_MODEL", str(a))
    cfg, _ = make_config("riichi", LINEUP, 4, 1)
    assert cfg.players == {"sl_model": file_fingerprint(a)}
    assert RunConfig.from_json(cfg.to_json()) == cfg
    rules_only, _ = make_config("riichi", ("efficiency", "random") * 2, 4, 1)
    assert rules_only.players == {}
    assert "players" not in json.loads(rules_only.to_json())  # old stores of rule agents resume


def test_resuming_with_another_file_behind_the_name_is_refused(
    models: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, b = models
    db = tmp_path / "run.db"
    monkeypatch.setenv("TENPAI_SL_MODEL", str(a))
    with ResultsStore(db) as store:
        store.begin_run(make_config("riichi", LINEUP, 4, 1)[0])
    monkeypatch.setenv("TENPAI_SL_MODEL", str(b))
    with ResultsStore(db) as store, pytest.raises(ConfigMismatchError, match="players"):
        store.begin_run(make_config("riichi", LINEUP, 4, 1)[0])
    # A store written before runs recorded players: the difference is named, not a KeyError.
    old = RunConfig("riichi", LINEUP, 4, 2, {})
    with ResultsStore(tmp_path / "old.db") as store:
        store.begin_run(old)
    with ResultsStore(tmp_path / "old.db") as store, pytest.raises(
        ConfigMismatchError, match="players: stored None"
    ):
        store.begin_run(make_config("riichi", LINEUP, 4, 2)[0])


def test_the_cli_refuses_to_resume_a_run_with_another_model_and_keeps_its_games(
    models: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, b = models
    app: typer.Typer = arena_app()
    db = tmp_path / "run.db"
    args = ("arena", "--agents", ",".join(LINEUP), "--games", "4", "--seed", "3", "--db",
            str(db), "--workers", "1", "--no-progress", "--json")
    monkeypatch.setenv("TENPAI_SL_MODEL", str(a))
    first = run_cli(app, *args)
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["config"]["players"] == {"sl_model": file_fingerprint(a)}
    monkeypatch.setenv("TENPAI_SL_MODEL", str(b))
    again = run_cli(app, *args)
    assert again.exit_code == 2
    assert "players" in again.stderr and "b.pt" in again.stderr
    with ResultsStore(db) as store:
        assert store.game_count() == 4


def test_runs_of_two_models_under_one_name_do_not_pool(
    models: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, b = models
    paths = []
    for seed, model in ((1, a), (2, b)):
        monkeypatch.setenv("TENPAI_SL_MODEL", str(model))
        paths.append(tmp_path / f"s{seed}.db")
        with ResultsStore(paths[-1]) as store:
            store.begin_run(make_config("riichi", LINEUP, 4, seed)[0])
    with pytest.raises(PoolError, match=r"players sl_model = b\.pt sha256:"):
        pooled_summary(paths)


def test_search_and_mdp_agents_record_the_settings_their_environment_gave(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``mcts`` and ``mdp`` take settings from the environment too: two runs of other settings
    must not read as one experiment."""
    from tenpai.mcts.model import DEFAULT_MODEL

    monkeypatch.setenv("TENPAI_MCTS_SIMULATIONS", "7")
    cfg, _ = make_config("suits108", ("mcts", "random", "mcts", "random"), 4, 1)
    assert cfg.players["mcts"] == (f"{file_fingerprint(DEFAULT_MODEL)}; simulations 7; "
                                   "outcomes chance; unvisited parent")
    monkeypatch.delenv("TENPAI_MDP_SETTINGS", raising=False)
    default, _ = make_config("riichi", ("mdp", "random", "mdp", "random"), 4, 1)
    assert default.players == {}
    monkeypatch.setenv("TENPAI_MDP_SETTINGS", '{"max_states": 500}')
    changed, _ = make_config("riichi", ("mdp", "random", "mdp", "random"), 4, 1)
    assert changed.players == {"mdp": '{"max_states": 500}'}

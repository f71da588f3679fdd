"""Policy-gradient self-play: updates move the weights, runs resume, bad input is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.models.bundle import ModelBundle, ModelError
from tenpai.rl.checkpoint import CheckpointError, PGCheckpoint, checkpoint_path
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.policy_mcr import SamplingSLMCRAgent
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.update import collect_batch
from tenpai.selfplay.pairs import play_pairs
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

MCR = {"preset": "botzone"}


def _cfg(out: Path, **kw: object) -> PGConfig:
    base: dict[str, object] = dict(
        rules="mcr", options=MCR, out=str(out), games_per_update=4, tables=4, max_games=8,
        minutes=5, lr=1e-3, checkpoint_minutes=0.0, reward=RewardConfig(points_scale=24.0),
    )
    base.update(kw)
    return PGConfig(**base)  # type: ignore[arg-type]


def _games(agent: SamplingSLMCRAgent, tables: int) -> list[tuple[int, ...]]:
    spec = SelfPlaySpec.series("mcr", [agent] * 4, 5, 6, MCR)
    return [(*g.final_scores, len(g.events)) for g in VectorRunner(spec, tables=tables).run()]


def test_sampling_does_not_depend_on_how_many_tables_play_at_once() -> None:
    agent = SamplingSLMCRAgent(seed=3)
    assert _games(agent, 1) == _games(agent, 4)


def test_every_sampled_discard_is_recorded_with_a_return() -> None:
    agent = SamplingSLMCRAgent(seed=1)
    spec = SelfPlaySpec.series("mcr", [agent] * 4, 0, 4, MCR)
    games = VectorRunner(spec, tables=4).run()
    batch = collect_batch(games, RewardConfig(points_scale=24.0))
    discards = sum(1 for g in games for s in g.steps if s.action.type == "dahai")
    assert len(batch) == discards > 0
    assert batch.x.shape[1:] == (19, 34)
    assert bool(batch.legal[range(len(batch)), batch.action].all())
    assert (batch.logp_old <= 0).all()


def test_training_moves_the_discard_head_and_writes_a_playable_model(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    path, progress = train_pg(_cfg(out))
    assert (progress.games, progress.updates) == (8, 2)
    start = ModelBundle.load(Path(_default_mcr()))
    trained = ModelBundle.load(path)
    a = start.heads["discard"].module.state_dict()
    b = trained.heads["discard"].module.state_dict()
    assert any(not torch.allclose(a[k].float(), b[k].float(), atol=1e-3) for k in a)
    assert trained.heads["discard"].card["games"] == 8
    peng_a = start.heads["peng"].module.state_dict()
    peng_b = trained.heads["peng"].module.state_dict()
    assert all(torch.allclose(peng_a[k].float(), peng_b[k].float(), atol=1e-2) for k in peng_a)
    agent = SLMCRAgent(str(path))
    spec = SelfPlaySpec.series("mcr", [agent] * 4, 0, 2, MCR)
    assert len(VectorRunner(spec, tables=2).run()) == 2


def _default_mcr() -> str:
    from tenpai.agents.sl_mcr import resolve_mcr_model_path

    return str(resolve_mcr_model_path("default"))


def test_a_run_continues_from_its_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, max_games=4))
    first = PGCheckpoint.load(checkpoint_path(out))
    assert first.progress["games"] == 4
    _, progress = train_pg(_cfg(out, max_games=8))
    assert (progress.games, progress.updates) == (8, 2)
    assert len(progress.history) == 2


def test_a_checkpoint_of_other_settings_is_refused_by_name(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, max_games=4))
    before = checkpoint_path(out).read_bytes()
    with pytest.raises(CheckpointError, match="seed"):
        train_pg(_cfg(out, max_games=8, seed=9))
    assert checkpoint_path(out).read_bytes() == before


def test_an_old_checkpoint_without_a_shaping_discount_resumes_at_one(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, max_games=4))
    ckpt = PGCheckpoint.load(checkpoint_path(out))
    del ckpt.settings["reward"]["shaping_discount"]
    ckpt.save(checkpoint_path(out))
    _, progress = train_pg(_cfg(out, max_games=8))
    assert progress.games == 8
    step = RewardConfig(points_scale=24.0, shaping_discount=0.0)
    with pytest.raises(CheckpointError, match="reward"):
        train_pg(_cfg(out, max_games=12, reward=step))


def test_a_corrupt_checkpoint_is_a_clear_error_and_stays_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    checkpoint_path(out).write_bytes(b"PK\x03\x04 not a checkpoint")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        train_pg(_cfg(out))
    assert checkpoint_path(out).read_bytes() == b"PK\x03\x04 not a checkpoint"
    assert not out.exists()


def test_a_start_model_of_the_other_rule_set_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="encoder"):
        train_pg(_cfg(tmp_path / "pg.pt", init=_default_mcr(), rules="riichi", options={}))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="tables"):
        PGConfig(tables=-1)
    with pytest.raises(ValueError, match="games_per_update"):
        PGConfig(games_per_update=0)


def test_identical_players_split_the_pairs_evenly() -> None:
    a, b = SLMCRAgent(name="a"), SLMCRAgent(name="b")
    r = play_pairs(a, b, "mcr", MCR, range(4), tables=4)
    assert (r.deals, r.win_rate) == (4, 0.5)


def _cli(out: Path, games: int) -> list[str]:
    return [
        sys.executable, "-m", "tenpai", "train", "pg", "--rules", "mcr", "--out", str(out),
        "--games-per-update", "2", "--tables", "2", "--games", str(games),
        "--minutes", "10", "--checkpoint-minutes", "0", "--lr", "1e-4", "--json",
    ]


def test_kill_nine_mid_run_then_the_same_command_finishes_the_run(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    ckpt = checkpoint_path(out)
    proc = subprocess.Popen(_cli(out, 400), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if ckpt.exists() and PGCheckpoint.load(ckpt).progress["games"] >= 4:
                break
            time.sleep(0.2)
        else:
            pytest.fail("no checkpoint within two minutes")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    saved = PGCheckpoint.load(ckpt).progress["games"]
    assert not out.exists()
    target = saved + 2
    done = subprocess.run(_cli(out, target), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["games"] == target
    assert summary["updates"] == target // 2
    assert ModelBundle.load(out).heads["discard"].card["games"] == target


def test_cli_refuses_a_corrupt_checkpoint_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    checkpoint_path(out).write_bytes(b"garbage")
    done = subprocess.run(_cli(out, 2), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "not a readable checkpoint" in done.stderr
    assert "Traceback" not in done.stderr
    assert checkpoint_path(out).read_bytes() == b"garbage"


def test_cli_refuses_a_negative_table_count(tmp_path: Path) -> None:
    cmd = _cli(tmp_path / "pg.pt", 2)
    cmd[cmd.index("--tables") + 1] = "-3"
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "tables" in done.stderr and "Traceback" not in done.stderr


def test_cli_refuses_a_shaping_discount_above_one(tmp_path: Path) -> None:
    done = subprocess.run([*_cli(tmp_path / "pg.pt", 2), "--shaping-discount", "1.5"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "shaping_discount" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "pg.pt").exists()


def test_the_arena_seat_plays_the_model_named_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tenpai.agents import make_agent

    path, _ = train_pg(_cfg(tmp_path / "pg.pt", max_games=4))
    monkeypatch.setenv("TENPAI_PG_MCR_MODEL", str(path))
    agent = make_agent("pg_mcr")
    trained = ModelBundle.load(path).heads["discard"].module.state_dict()
    playing = agent.bundle.heads["discard"].module.state_dict()  # type: ignore[attr-defined]
    assert all(torch.equal(trained[k], playing[k]) for k in trained)
    monkeypatch.setenv("TENPAI_PG_MCR_MODEL", str(tmp_path / "missing.pt"))
    with pytest.raises(ModelError, match=r"missing\.pt"):
        make_agent("pg_mcr")


def test_against_the_frozen_start_only_the_learner_seats_are_trained() -> None:
    from tenpai.rl.pg import _greedy, _learner, _play, _start_model

    cfg = _cfg(Path("unused.pt"), opponents="start")
    bundle = _start_model("mcr", "default")
    learner = _learner(cfg, bundle)
    start = _greedy(cfg, bundle, "start")
    games = _play(cfg, learner, start, 10, 4)
    assert [g.seed for g in games] == [10, 11, 12, 13]
    for g in games:
        mine = {0, 2} if g.seed % 2 == 0 else {1, 3}
        assert {s.seat for s in g.steps} == mine  # the start's seats are not recorded
        assert [n == "start" for n in g.names] == [i not in mine for i in range(4)]
    batch = collect_batch(games, cfg.reward)
    assert len(batch) == sum(1 for g in games for s in g.steps if s.action.type == "dahai") > 0


def test_a_run_against_the_start_trains_and_resumes_as_such(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, max_games=4, opponents="start"))
    with pytest.raises(CheckpointError, match="opponents"):
        train_pg(_cfg(out, max_games=8))
    _, progress = train_pg(_cfg(out, max_games=8, opponents="start"))
    assert progress.games == 8
    assert ModelBundle.load(out).heads["discard"].card["settings"]["opponents"] == "start"


def test_opponents_are_checked() -> None:
    with pytest.raises(ValueError, match="opponents"):
        PGConfig(opponents="everyone")
    with pytest.raises(ValueError, match="REINFORCE"):
        PGConfig(opponents="start", estimator="vine")


def test_the_shipped_pg_mcr_start_is_the_start_its_card_names() -> None:
    from tenpai.agents import make_agent
    from tenpai.agents.rulesets import check_agent_rules

    pg = make_agent("pg_mcr")
    start = make_agent("pg_mcr_start")
    card = pg.bundle.heads["discard"].card  # type: ignore[attr-defined]
    assert card["start_card"] == start.bundle.heads["discard"].card  # type: ignore[attr-defined]
    assert start.name == "pg_mcr_start"
    assert start.identity.startswith("pg_mcr_start.pt sha256:")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="mcr"):
        check_agent_rules("pg_mcr_start", "riichi")

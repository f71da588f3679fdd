"""``--heads``: the Riichi learner samples and trains its riichi, pon and chi heads too."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.cli.main import app
from tenpai.learn.decisions import chi_class
from tenpai.models.bundle import ModelBundle, resolve_model_path
from tenpai.rl.checkpoint import CheckpointError, PGCheckpoint, checkpoint_path
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.policy import DiscardSample, SamplingSLAgent, samples_of
from tenpai.rl.rewards import RewardConfig, hand_deltas
from tenpai.rl.update import collect_batch
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.trajectory import PlayedGame
from tenpai.selfplay.vector import VectorRunner

RIICHI = {"preset": "tenhou", "length": "tonpuu"}
DECISIONS = ("riichi", "pon", "chi")


def _games(agent: SamplingSLAgent, tables: int = 2, first: int = 50,
           n: int = 2) -> list[PlayedGame]:
    spec = SelfPlaySpec.series("riichi", [agent] * 4, first, n, RIICHI)
    return VectorRunner(spec, tables=tables).run()


@pytest.fixture(scope="module")
def sampled() -> list[PlayedGame]:
    return _games(SamplingSLAgent(seed=7, heads=("discard", *DECISIONS)))


def test_every_sample_is_the_choice_that_was_played(sampled: list[PlayedGame]) -> None:
    seen: dict[str, set[int]] = {h: set() for h in ("discard", *DECISIONS)}
    for g in sampled:
        for step in g.steps:
            infos = samples_of(step.info)
            heads = [s.head for s in infos]
            assert len(heads) == len(set(heads))
            for s in infos:
                assert s.legal[s.action] and s.logp <= 0
                seen[s.head].add(s.action)
            by = {s.head: s for s in infos}
            a = step.action
            if "riichi" in by:
                assert (by["riichi"].action == 1) == (a.type == "reach")
            if "pon" in by:
                assert (by["pon"].action == 1) == (a.type == "pon")
            if "chi" in by:
                chi = by["chi"]
                assert chi.legal[0]  # passing is always a choice
                if a.type == "chi":
                    assert a.pai is not None
                    shape = chi_class(T.kind_of(a.pai), [T.kind_of(c) for c in a.consumed])
                    assert chi.action == shape
                else:
                    assert chi.action == 0
                assert "pon" not in by or by["pon"].action == 0  # no chi asked after a pon
            if "discard" in by:
                assert a.type == "dahai" and a.pai is not None
                assert T.kind_of(a.pai) == by["discard"].action
    # Both answers of each head were drawn somewhere in two games.
    assert all(len(seen[h]) >= 2 for h in DECISIONS), seen


def test_a_head_left_out_plays_greedily_and_records_nothing() -> None:
    games = _games(SamplingSLAgent(seed=7, heads=("pon",)))
    heads = {s.head for g in games for step in g.steps for s in samples_of(step.info)}
    assert heads == {"pon"}


def test_the_draws_do_not_depend_on_how_many_tables_play_at_once() -> None:
    agent = SamplingSLAgent(seed=3, heads=DECISIONS)

    def play(tables: int) -> list[Any]:
        return [(g.final_scores, len(g.events)) for g in _games(agent, tables, 60, 2)]

    assert play(1) == play(2)


def test_decision_heads_learn_from_the_outcome_alone(sampled: list[PlayedGame]) -> None:
    reward = RewardConfig(shaping=0.1)
    batch = collect_batch(sampled, reward, head="pon")
    expected = []
    for g in sampled:
        deltas = hand_deltas(g.events, g.final_scores)
        for step in g.steps:
            for s in samples_of(step.info):
                if s.head == "pon":
                    expected.append(deltas[s.hand][step.seat] / reward.points_scale)
    assert len(batch) == len(expected) > 0
    np.testing.assert_allclose(batch.returns, expected, rtol=1e-6)
    discards = collect_batch(sampled, reward)
    assert batch.x.shape[1:] == discards.x.shape[1:]  # the same encoder reads every head
    assert batch.legal.shape[1] == 2
    assert len(discards) == sum(1 for g in sampled for step in g.steps
                                for s in samples_of(step.info) if s.head == "discard")


def _cfg(out: Path, **kw: Any) -> PGConfig:
    base: dict[str, Any] = dict(
        rules="riichi", options=RIICHI, out=str(out), games_per_update=2, tables=2, max_games=2,
        minutes=5, lr=1e-2, checkpoint_minutes=0.0, opponents="start", heads=DECISIONS,
        reward=RewardConfig(shaping=0.0), seed=4,
    )
    base.update(kw)
    return PGConfig(**base)


def _state(bundle: ModelBundle, head: str) -> dict[str, torch.Tensor]:
    return {k: v.float() for k, v in bundle.heads[head].module.state_dict().items()}


def _moved(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return any(not torch.allclose(a[k], b[k], atol=2e-3) for k in a)


def test_a_run_trains_the_named_heads_only_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    cfg = _cfg(out)
    train_pg(cfg)
    start = ModelBundle.load(resolve_model_path("default"))
    trained = ModelBundle.load(out)
    for head in DECISIONS:
        assert _moved(_state(trained, head), _state(start, head)), head
        assert trained.heads[head].card["settings"]["heads"] == list(DECISIONS)
    assert not _moved(_state(trained, "discard"), _state(start, "discard"))
    ckpt = PGCheckpoint.load(checkpoint_path(out))
    assert sorted(ckpt.head_states) == sorted(DECISIONS)
    # The same command with a larger budget continues from the saved heads and optimizers.
    _, progress = train_pg(dataclasses.replace(cfg, max_games=4))
    assert progress.games == 4 and progress.updates == 2
    # Another set of heads is refused by name, and nothing is overwritten.
    before = out.read_bytes()
    with pytest.raises(CheckpointError, match="heads"):
        train_pg(dataclasses.replace(cfg, heads=("discard",), max_games=6))
    assert out.read_bytes() == before


def test_a_checkpoint_from_before_heads_resumes_as_a_discard_run() -> None:
    old = PGCheckpoint({"rules": "riichi"}, {}, {})
    old.check_matches({"rules": "riichi", "heads": ["discard"]}, Path("x.ckpt"))
    with pytest.raises(CheckpointError, match="heads"):
        old.check_matches({"rules": "riichi", "heads": ["pon"]}, Path("x.ckpt"))


@pytest.mark.parametrize(("kw", "match"), [
    ({"heads": ("pon", "pon")}, "at most once"),
    ({"heads": ("kan",)}, "at most once"),
    ({"heads": ()}, "at most once"),
    ({"heads": ("pon",), "rules": "mcr"}, "riichi REINFORCE"),
    ({"heads": ("pon",), "estimator": "vine"}, "riichi REINFORCE"),
    ({"heads": ("pon",), "baseline": "critic"}, "discard head alone"),
    ({"heads": ("discard", "riichi"), "kl_start": 0.1}, "discard head alone"),
])
def test_the_setting_is_checked(kw: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        PGConfig(**kw)


def test_the_cli_refuses_an_unknown_head_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "x.pt"
    r = CliRunner().invoke(app, ["train", "pg", "--out", str(out), "--heads", "discard,kan"])
    assert r.exit_code == 2
    assert "heads 'discard,kan'" in r.output and "Traceback" not in r.output
    assert not out.exists()


def test_a_sample_keeps_its_head() -> None:
    s = DiscardSample(np.zeros(1), np.ones(2, dtype=bool), 1, -0.1, 0, (0, 0, 0), head="pon")
    assert samples_of((s, None)) == (s,) and samples_of(s) == (s,) and samples_of(None) == ()

"""Policy gradient on the 108-tile rules: seed 000's normal agent as the learner."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.cli.main import app
from tenpai.env.actions import SUITS108_ACTIONS
from tenpai.mcts.agent import DropoutAgent
from tenpai.mcts.dropout import DropoutModel
from tenpai.models.bundle import ModelError
from tenpai.rl.checkpoint import CheckpointError
from tenpai.rl.curve import plot_curves, read_curve
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.policy import DiscardSample, draw_id, masked_log_softmax
from tenpai.rl.policy_suits108 import SamplingDropoutAgent
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.update import collect_batch
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

PAPER = {"preset": "paper"}


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained tiny normal agent with safety planes (its policy is near uniform)."""
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("d") / "start.pt"
    DropoutModel("tiny", {"note": "test start"}, safety=True).save(path)
    return path


def _cfg(start: Path, out: Path, **kw: object) -> PGConfig:
    base: dict[str, object] = dict(
        rules="suits108", options=PAPER, init=str(start), out=str(out), games_per_update=4,
        tables=4, max_games=8, minutes=5, lr=1e-3, checkpoint_minutes=0.0,
        reward=RewardConfig(points_scale=2000.0), opponents="defensive",
    )
    base.update(kw)
    return PGConfig(**base)  # type: ignore[arg-type]


def _play(agent: SamplingDropoutAgent, seeds: range, tables: int) -> list:  # type: ignore[type-arg]
    spec = SelfPlaySpec.series("suits108", [agent, make_agent("defensive")] * 2, seeds.start,
                               len(seeds), PAPER)
    return VectorRunner(spec, tables=tables).run()


def test_every_choice_is_drawn_legally_and_recorded_with_its_probability(start: Path) -> None:
    agent = SamplingDropoutAgent(str(start), seed=2)
    games = _play(agent, range(0, 3), 3)
    samples = 0
    for g in games:
        for s in g.steps:
            if s.seat in (1, 3) or s.action.type == "hora":
                assert s.info is None  # `defensive`'s seats; a legal win is taken, not drawn
                continue
            if not isinstance(s.info, DiscardSample):
                continue
            samples += 1
            info = s.info
            assert info.legal[info.action] and info.legal.sum() >= 2
            assert SUITS108_ACTIONS.event_to_action(s.action) == info.action
            assert info.x.shape == (132, 27) and info.logp <= 0
    assert samples > 100
    kinds = {s.action.type for g in games for s in g.steps if s.info is not None}
    assert "dahai" in kinds and kinds - {"dahai"}  # calls / passes are drawn too
    batch = collect_batch(games, RewardConfig(points_scale=2000.0))
    assert len(batch) == samples


def test_draws_follow_the_policy_and_not_the_number_of_tables(start: Path) -> None:
    agent = SamplingDropoutAgent(str(start), seed=5)
    assert ([g.final_scores for g in _play(agent, range(10, 14), 1)]
            == [g.final_scores for g in _play(agent, range(10, 14), 4)])
    logits = np.array([0.0, 2.0, -1.0, 5.0])
    counts = np.zeros(4)
    for u in np.linspace(0.0, 0.999, 400):
        chosen, mask, logp = draw_id(logits, [0, 1, 2], 1.0, float(u))
        assert chosen != 3 and not mask[3]
        counts[chosen] += 1
        assert logp == pytest.approx(masked_log_softmax(logits, mask, 1.0)[chosen])
    expected = np.exp(masked_log_softmax(logits, np.array([1, 1, 1, 0], bool), 1.0)[:3])
    assert counts[:3] / 400 == pytest.approx(expected, abs=0.01)


def test_greedy_learner_plays_the_dropout_agents_games(start: Path) -> None:
    greedy = _play(SamplingDropoutAgent(str(start), greedy=True), range(3), 3)
    spec = SelfPlaySpec.series("suits108", [DropoutAgent(str(start)), make_agent("defensive")]
                               * 2, 0, 3, PAPER)
    plain = VectorRunner(spec, tables=3).run()
    assert [g.events[1:] for g in greedy] == [g.events[1:] for g in plain]  # names differ


def test_training_against_defensive_moves_the_net_and_resumes(start: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(start, out, max_games=4, eval_every=4, eval_opponent="defensive",
                  eval_deals=2))
    _, progress = train_pg(_cfg(start, out, max_games=8, eval_every=4,
                                eval_opponent="defensive", eval_deals=2))
    assert (progress.games, progress.updates) == (8, 2)
    assert [p["games"] for p in progress.curve] == [0.0, 4.0, 8.0]  # 0: where it starts
    before = DropoutModel.load(start).net.state_dict()
    trained = DropoutModel.load(out)
    after = trained.net.state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before)
    assert trained.safety and trained.card["games"] == 8
    assert trained.card["settings"]["opponents"] == "defensive"
    assert trained.card["start_card"] == {"note": "test start"}
    assert "normal (dropout) agent" in trained.card["method"]
    games = VectorRunner(SelfPlaySpec.series("suits108", [DropoutAgent(trained)] * 4, 0, 2,
                                             PAPER), tables=2).run()
    assert len(games) == 2
    with pytest.raises(CheckpointError, match="opponents"):
        train_pg(_cfg(start, out, max_games=12, opponents="start"))
    curve = read_curve(out)
    assert curve.opponent == "defensive" and [p.games for p in curve.points] == [0, 4, 8]
    png = plot_curves([curve], tmp_path / "curve.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_bad_starts_and_settings_are_refused(start: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"nothing\.pt.*dropout"):
        train_pg(_cfg(start, tmp_path / "a.pt", init=str(tmp_path / "nothing.pt")))
    garbled = tmp_path / "garbled.pt"
    garbled.write_bytes(b"not a model")
    with pytest.raises(ValueError, match=r"garbled\.pt"):
        train_pg(_cfg(start, tmp_path / "b.pt", init=str(garbled)))
    assert not (tmp_path / "b.pt").exists()
    with pytest.raises(ValueError, match="vine"):
        PGConfig(rules="suits108", estimator="vine")
    with pytest.raises(ValueError, match="eval_opponent"):
        PGConfig(eval_opponent="nobody")
    with pytest.raises(ValueError, match="rules"):
        PGConfig(rules="hanafuda")


def test_cli_trains_suits108_and_refuses_a_riichi_start(start: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli.pt"
    ok = runner.invoke(app, ["train", "pg", "--rules", "suits108", "--init", str(start),
                             "--out", str(out), "--games", "4", "--games-per-update", "4",
                             "--tables", "4", "--opponents", "defensive", "--json"])
    assert ok.exit_code == 0, ok.output
    assert DropoutModel.load(out).card["settings"]["reward"]["points_scale"] == 2000.0
    from tenpai.models.bundle import resolve_model_path

    bad = runner.invoke(app, ["train", "pg", "--rules", "suits108", "--init",
                              str(resolve_model_path("default")), "--out",
                              str(tmp_path / "x.pt")])
    assert bad.exit_code == 2
    assert "error" in bad.output and len(bad.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.pt").exists()
    riichi_student = tmp_path / "riichi_dropout.pt"
    DropoutModel("tiny", rules="riichi").save(riichi_student)
    bad = runner.invoke(app, ["train", "pg", "--rules", "suits108", "--init",
                              str(riichi_student), "--out", str(tmp_path / "y.pt")])
    assert bad.exit_code == 2 and "a dropout model of the riichi rules" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    assert not list(tmp_path.glob("y.pt*"))  # not even its TensorBoard folder


def test_the_shipped_dropout_agent_is_the_fine_tuned_student(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tenpai.mcts.agent import DROPOUT_DEFAULT

    monkeypatch.delenv("TENPAI_DROPOUT_MODEL", raising=False)
    agent = make_agent("dropout")
    assert isinstance(agent, DropoutAgent) and agent.take_wins
    card = DropoutModel.load(DROPOUT_DEFAULT).card
    assert card["method"].startswith("REINFORCE") and card["games"] >= 1000
    assert card["settings"]["opponents"] == "defensive"
    assert card["start_card"]["safety"] and card["start_card"]["steps"] == 2000  # distilled first
    spec = SelfPlaySpec.series("suits108", [agent, make_agent("defensive")] * 2, 0, 1, PAPER)
    assert len(VectorRunner(spec, tables=1).run()) == 1

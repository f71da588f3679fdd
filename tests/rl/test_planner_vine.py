"""The vine estimator of ``pg_planner``: branches differ only by the answer, the direction is the
gradient it claims to be, runs resume and bad settings are one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tenpai.agents.pg_planner import CALL_FEATURES, DISCARD_FEATURES, Decision, PlannerHead
from tenpai.events import Event
from tenpai.rl.planner_pg import PlannerPGConfig, PlannerPGError, train_planner_pg
from tenpai.rl.planner_vine import BranchPoint, play_vine_deal, vine_gradient


def _deal(deal: int, replay_greedy: bool) -> tuple[list[BranchPoint], tuple[int, ...]]:
    mine = (0, 2) if deal % 2 == 0 else (1, 3)
    v = play_vine_deal(PlannerHead.start(2.0), 700_000_000 + deal, mine,
                       lambda s: 100 * deal + s, states=3, alternatives=2, temperature=0.5,
                       scale=24.0, rng=np.random.default_rng(deal),
                       replay_greedy=replay_greedy)
    played = sum(len(p.answers) for p in v.points)
    assert v.branches == played - (0 if replay_greedy else len(v.points))
    return v.points, v.trunk_scores


@pytest.mark.parametrize("deal", [0, 1])
def test_a_replayed_greedy_branch_scores_what_the_trunk_scored(deal: int) -> None:
    """The greedy answer played from the copy of the table ends exactly as the trunk did: the
    copy holds the walls, and every seat's agent, made afresh, answers as the trunk's did, so
    a branch differs from the trunk only by its answer."""
    replayed, trunk = _deal(deal, replay_greedy=True)
    reused, trunk_again = _deal(deal, replay_greedy=False)
    assert trunk == trunk_again and len(replayed) == 3
    for a, b in zip(replayed, reused):
        assert a.answers == b.answers and a.q == b.q
        assert a.q[0] == trunk[a.seat] / 24.0
        # two alternatives where the decision has them, drawn without replacement
        assert len(set(a.answers)) == len(a.answers) == min(3, len(a.decision.actions))


def test_some_alternative_changes_the_score() -> None:
    points = _deal(2, replay_greedy=False)[0]  # deals 0 and 1 happen to change nothing
    assert any(max(p.q) != min(p.q) for p in points)


def test_the_direction_is_the_gradient_of_the_advantage_weighted_log_probabilities() -> None:
    """``Σ_k A_k ∇ log π(a_k)`` by finite differences equals ``Σ_k A_k f(a_k) / T``."""
    rng = np.random.default_rng(4)
    head = PlannerHead(rng.normal(size=len(DISCARD_FEATURES)), rng.normal(size=len(CALL_FEATURES)))
    actions = tuple(Event("dahai", actor=0, pai=p) for p in range(5))
    discard = Decision("discard", actions, rng.normal(size=(5, len(DISCARD_FEATURES))), 0)
    call = Decision("call", actions[:3], rng.normal(size=(3, len(CALL_FEATURES))), 1)
    points = [BranchPoint(0, discard, [0, 3, 1], [1.0, -0.5, 0.25]),
              BranchPoint(2, call, [1, 2], [0.0, 2.0])]
    temperature = 0.7

    def objective(w: np.ndarray) -> float:
        h = PlannerHead(w[: len(DISCARD_FEATURES)], w[len(DISCARD_FEATURES):])
        total = 0.0
        for p in points:
            logp = np.log(h.probabilities(p.decision, temperature))
            q = np.asarray(p.q)
            total += float((q - q.mean()) @ logp[p.answers])
        return total / len(points)

    w0 = np.concatenate([head.discard, head.call])
    numeric = np.zeros_like(w0)
    for i in range(len(w0)):
        e = np.zeros_like(w0)
        e[i] = 1e-6
        numeric[i] = (objective(w0 + e) - objective(w0 - e)) / 2e-6
    assert np.allclose(vine_gradient(points, temperature), numeric, atol=1e-6)


def _config(out: Path, games: int) -> PlannerPGConfig:
    return PlannerPGConfig(out=str(out), seed=3, deals_per_update=1, temperature=0.5, lr=0.1,
                           max_games=games, eval_every=0, eval_deals=0, checkpoint_minutes=60,
                           planner_prior=2.0, estimator="vine", states=2, alternatives=1)


def test_a_vine_run_resumed_from_its_checkpoint_equals_one_run_straight(tmp_path: Path) -> None:
    lines: list[str] = []
    straight = train_planner_pg(_config(tmp_path / "a.json", 2), progress=lines.append)
    assert any("branch points changed the score" in line for line in lines)
    train_planner_pg(_config(tmp_path / "b.json", 1), progress=lines.append)
    resumed = train_planner_pg(_config(tmp_path / "b.json", 2), progress=lines.append)
    assert np.array_equal(straight.discard, resumed.discard)
    assert np.array_equal(straight.call, resumed.call)
    assert straight.discard[0] == 2.0 and straight.call[0] == 2.0  # the prior stays frozen
    assert not np.array_equal(straight.discard, PlannerHead.start(2.0).discard)
    assert straight.info["games"] == 2 and "vine" in straight.info["method"]


def test_a_reinforce_checkpoint_does_not_continue_as_a_vine_run(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    reinforce = _config(out, 2)
    reinforce.estimator, reinforce.samples = "reinforce", 2
    train_planner_pg(reinforce, progress=lambda _line: None)
    with pytest.raises(PlannerPGError, match="estimator='reinforce'"):
        train_planner_pg(_config(out, 4), progress=lambda _line: None)


def test_a_checkpoint_from_before_the_estimator_setting_resumes_as_reinforce(
        tmp_path: Path) -> None:
    out = tmp_path / "old.json"
    old = _config(out, 2)
    old.estimator, old.samples = "reinforce", 2
    train_planner_pg(old, progress=lambda _line: None)
    ckpt = tmp_path / "old.json.ckpt"
    data = json.loads(ckpt.read_text())
    for key in ("estimator", "states", "alternatives"):
        del data["settings"][key]
    ckpt.write_text(json.dumps(data))
    old.max_games = 4
    lines: list[str] = []
    train_planner_pg(old, progress=lines.append)
    assert any(line.startswith("resumed from") for line in lines)

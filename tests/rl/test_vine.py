"""The vine estimator: branches are exact counterfactuals of the trunk, seeded, and trainable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.agents.sl import SLAgent
from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.cli.main import app
from tenpai.models.bundle import ModelBundle
from tenpai.rl.checkpoint import CheckpointError, PGCheckpoint, checkpoint_path
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.policy import SamplingSLAgent
from tenpai.rl.policy_mcr import SamplingSLMCRAgent
from tenpai.rl.rewards import RewardConfig
from tenpai.rl.vine import VineConfig, VineState, collect_vine, vine_batch, vine_update
from tenpai.selfplay.spec import AgentSource, SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

MCR = {"preset": "botzone"}
RIICHI = {"preset": "tenhou", "length": "tonpuu"}
MCR_VINE = VineConfig(states=4, alternatives=2, points_scale=24.0)


def _mcr_states(seeds: list[int], tables: int = 2, **kw: object) -> list[VineState]:
    agent = SamplingSLMCRAgent(greedy=True)
    states, counts = collect_vine(agent, "mcr", MCR, seeds, MCR_VINE, tables=tables, seed=5,
                                  **kw)  # type: ignore[arg-type]
    assert counts.games == len(seeds)
    return states


def test_a_branch_forcing_the_greedy_kind_reproduces_the_trunk_mcr() -> None:
    states = _mcr_states([0, 1, 2], branch_greedy=True)
    assert len(states) == 12
    assert all(s.q[0] == s.trunk_q for s in states)
    assert all(not np.isnan(s.q).any() for s in states)
    # The comparison means something: some branch points do change the outcome.
    assert any(max(s.q) != min(s.q) for s in states)


def test_a_branch_forcing_the_greedy_kind_reproduces_the_trunk_riichi() -> None:
    agent = SamplingSLAgent(greedy=True)
    cfg = VineConfig(states=5, alternatives=1)
    states, counts = collect_vine(agent, "riichi", RIICHI, [3], cfg, seed=2, branch_greedy=True)
    assert len(states) == 5 and counts.branches == 10
    assert [s.q[0] for s in states] == [s.trunk_q for s in states]


def test_every_forced_discard_is_legal_and_the_greedy_kind_comes_first() -> None:
    for s in _mcr_states([4, 5]):
        legal_kinds = {T.kind_of(e.pai) for e in s.legal_events
                       if e.type == "dahai" and e.pai is not None}
        assert len(s.kinds) == len(set(s.kinds)) == min(3, len(legal_kinds))
        assert s.kinds[0] == int(np.argmax(np.where(s.legal, s.logp, -np.inf)))
        for kind, event in zip(s.kinds, s.forced):
            assert event in s.legal_events and event.type == "dahai"
            assert event.pai is not None and T.kind_of(event.pai) == kind
            assert s.legal[kind]


def test_the_same_seed_gives_the_same_batch_however_many_tables() -> None:
    a = vine_batch(_mcr_states([6, 7, 8], tables=1))
    b = vine_batch(_mcr_states([6, 7, 8], tables=3))
    for name in ("x", "legal", "logp_old", "kinds", "q", "valid"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_the_greedy_learner_plays_the_supervised_agents_games() -> None:
    def played(agent: AgentSource, rules: str, options: dict[str, str], seeds: int
               ) -> list[object]:
        spec = SelfPlaySpec.series(rules, [agent] * 4, 11, seeds, options)
        return [(g.final_scores, [e.to_mjai() for e in g.events[1:]])
                for g in VectorRunner(spec, tables=2).run()]

    assert played(SamplingSLMCRAgent(greedy=True), "mcr", MCR, 2) == played(
        SLMCRAgent(), "mcr", MCR, 2)
    assert played(SamplingSLAgent(greedy=True), "riichi", RIICHI, 1) == played(
        SLAgent(), "riichi", RIICHI, 1)


def test_equal_outcomes_leave_the_weights_unchanged() -> None:
    bundle = ModelBundle.load(_default_mcr())
    states = _mcr_states([9])
    for s in states:
        s.q = [0.25] * len(s.q)
    module = bundle.heads["discard"].module
    before = {k: v.clone() for k, v in module.state_dict().items()}
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-2)
    stats = vine_update(module, optimizer, vine_batch(states), entropy_coef=0.0)
    assert stats.mean_abs_adv == 0.0 and stats.alt_better == 0.0 and stats.all_equal == 1.0
    after = module.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_an_update_raises_the_kind_that_did_best() -> None:
    bundle = ModelBundle.load(_default_mcr())
    states = _mcr_states([9])
    for s in states:
        s.q = [0.0] * len(s.q)
        s.q[-1] = 1.0  # the last alternative wins everywhere
    batch = vine_batch(states)
    module = bundle.heads["discard"].module
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-3)

    def logp_best() -> float:
        with torch.no_grad():
            z = module(torch.from_numpy(batch.x)).masked_fill(~torch.from_numpy(batch.legal), -1e9)
            lp = torch.log_softmax(z, dim=1)
        return float(lp.gather(1, torch.from_numpy(batch.kinds[:, -1:])).mean())

    first = logp_best()
    for _ in range(3):
        stats = vine_update(module, optimizer, batch, entropy_coef=0.0)
    assert stats.alt_better == 1.0
    assert logp_best() > first


def _default_mcr() -> Path:
    from tenpai.agents.sl_mcr import resolve_mcr_model_path

    return resolve_mcr_model_path("default")


def _cfg(out: Path, **kw: object) -> PGConfig:
    base: dict[str, object] = dict(
        rules="mcr", options=MCR, out=str(out), games_per_update=2, tables=2, max_games=2,
        minutes=5, lr=1e-3, checkpoint_minutes=0.0, reward=RewardConfig(points_scale=24.0),
        estimator="vine", vine_states=3, vine_alternatives=2,
    )
    base.update(kw)
    return PGConfig(**base)  # type: ignore[arg-type]


def test_a_vine_run_writes_a_playable_model_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "vine.pt"
    path, progress = train_pg(_cfg(out))
    assert (progress.games, progress.updates, progress.samples) == (2, 1, 6)
    row = progress.history[-1]
    assert {"mean_abs_adv", "alt_better", "branches"} <= set(row)
    assert row["branches"] == 12
    card = ModelBundle.load(path).heads["discard"].card
    assert card["settings"]["estimator"] == "vine" and "vine" in card["method"]
    _, progress = train_pg(_cfg(out, max_games=4))
    assert (progress.games, progress.updates) == (4, 2)
    agent = SLMCRAgent(str(path))
    spec = SelfPlaySpec.series("mcr", [agent] * 4, 0, 1, MCR)
    assert len(VectorRunner(spec, tables=1).run()) == 1
    with pytest.raises(CheckpointError, match="estimator"):
        train_pg(_cfg(out, max_games=6, estimator="reinforce"))


def test_an_old_checkpoint_without_an_estimator_resumes_as_reinforce(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    train_pg(_cfg(out, estimator="reinforce", max_games=2))
    ckpt = PGCheckpoint.load(checkpoint_path(out))
    del ckpt.settings["estimator"]
    ckpt.save(checkpoint_path(out))
    _, progress = train_pg(_cfg(out, estimator="reinforce", max_games=4))
    assert progress.games == 4
    with pytest.raises(CheckpointError, match="estimator"):
        train_pg(_cfg(out, max_games=6))


def test_bad_vine_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="vine_alternatives"):
        PGConfig(estimator="vine", vine_alternatives=0)
    with pytest.raises(ValueError, match="vine_states"):
        PGConfig(estimator="vine", vine_states=0)
    with pytest.raises(ValueError, match="estimator 'trpo'"):
        PGConfig(estimator="trpo")
    with pytest.raises(ValueError, match="critic"):
        PGConfig(estimator="vine", baseline="critic")


@pytest.mark.parametrize("args", [["--estimator", "trpo"],
                                  ["--estimator", "vine", "--vine-alternatives", "0"]])
def test_the_cli_refuses_bad_vine_settings_in_one_line(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "x.pt"
    res = CliRunner().invoke(app, ["train", "pg", "--rules", "mcr", "--out", str(out), *args])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert not out.exists()

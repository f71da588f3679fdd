"""``--defence start``: the start's discard head plays under another seat's riichi, untrained."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from tenpai.agents.sl import THREAT_HEAD, SLAgent, rebuilt_tracker, under_threat
from tenpai.arena.under_riichi import UnderRiichi, tally_game
from tenpai.events import Event
from tenpai.models.bundle import Head, ModelBundle, ModelError, resolve_model_path
from tenpai.rl.checkpoint import CheckpointError
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.policy import DiscardSample, SamplingSLAgent
from tenpai.rl.rewards import RewardConfig
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

RIICHI = {"preset": "tenhou", "length": "tonpuu"}


class _Negated(nn.Module):
    """The opposite preferences of a discard network: its worst kind becomes its best."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = -self.inner(x)
        return out


def _hybrid() -> ModelBundle:
    bundle = ModelBundle.load(resolve_model_path("default"))
    start = bundle.heads["discard"]
    bundle.heads[THREAT_HEAD] = Head(start.kind, dict(start.config),
                                     _Negated(copy.deepcopy(start.module)))
    return bundle


class _Spy(SLAgent):
    """Records, for every discard query, which head scored it and whether it was threatened."""

    def __init__(self, bundle: ModelBundle) -> None:
        super().__init__(bundle)
        self.routes: list[tuple[str, bool]] = []

    def _plan(self, obs: Any, legal: Sequence[Event]) -> Any:
        q = super()._plan(obs, legal)
        for head in ("discard", THREAT_HEAD):
            if head in q.heads:
                self.routes.append((head, under_threat(rebuilt_tracker(obs), obs.seat)))
        return q


def test_the_threat_head_scores_exactly_the_discards_under_anothers_riichi() -> None:
    spy = _Spy(_hybrid())
    VectorRunner(SelfPlaySpec.series("riichi", [spy] * 4, 40, 2, RIICHI), tables=2).run()
    threatened = [head for head, threat in spy.routes if threat]
    calm = [head for head, threat in spy.routes if not threat]
    assert threatened and calm
    assert set(threatened) == {THREAT_HEAD} and set(calm) == {"discard"}


def test_without_the_head_nothing_changes_and_with_it_play_does() -> None:
    def games(model: ModelBundle | str) -> list[Any]:
        agent = SLAgent(model)
        spec = SelfPlaySpec.series("riichi", [agent] * 4, 40, 2, RIICHI)
        return [g.final_scores for g in VectorRunner(spec, tables=2).run()]

    plain = games("default")
    same = ModelBundle.load(resolve_model_path("default"))
    same.heads[THREAT_HEAD] = copy.deepcopy(same.heads["discard"])
    assert games(same) == plain  # the start's own head under threat: the start's games
    assert games(_hybrid()) != plain


def test_the_learner_records_no_sample_for_a_threatened_discard() -> None:
    learner = SamplingSLAgent(_hybrid(), seed=3)
    spec = SelfPlaySpec.series("riichi", [learner] * 4, 41, 2, RIICHI)
    for g in VectorRunner(spec, tables=2).run():
        seats = {s: UnderRiichi(str(s)) for s in range(4)}
        tally_game([json.dumps(e.to_mjai()) for e in g.events], seats)
        samples = sum(1 for s in g.steps if isinstance(s.info, DiscardSample))
        threatened = sum(u.threatened for u in seats.values())
        assert threatened > 0
        assert samples == sum(u.discards for u in seats.values()) - threatened


def test_a_run_ships_the_frozen_start_head_and_trains_only_the_other(tmp_path: Path) -> None:
    out = tmp_path / "pg.pt"
    cfg = PGConfig(rules="riichi", options=RIICHI, out=str(out), games_per_update=2, tables=2,
                   max_games=2, minutes=5, lr=1e-2, checkpoint_minutes=0.0, opponents="start",
                   defence="start", reward=RewardConfig(shaping=0.0), seed=4)
    train_pg(cfg)
    start = ModelBundle.load(resolve_model_path("default"))
    trained = ModelBundle.load(out)
    kept = trained.heads[THREAT_HEAD].module.state_dict()
    ref = start.heads["discard"].module.state_dict()
    assert all(torch.allclose(kept[k].float(), ref[k].float(), atol=2e-3) for k in ref)
    moved = trained.heads["discard"].module.state_dict()
    assert any(not torch.allclose(moved[k].float(), ref[k].float(), atol=2e-3) for k in ref)
    assert trained.heads["discard"].card["settings"]["defence"] == "start"
    # Continuing it as a 'learned' run is refused by name, and nothing is overwritten.
    before = out.read_bytes()
    with pytest.raises(CheckpointError, match="defence"):
        train_pg(dataclasses.replace(cfg, defence="learned", max_games=4))
    assert out.read_bytes() == before
    # A hybrid is a start only for another 'start' run.
    with pytest.raises(ModelError, match="defence 'start'"):
        train_pg(PGConfig(rules="riichi", options=RIICHI, out=str(tmp_path / "b.pt"),
                          init=str(out), max_games=2, games_per_update=2, tables=2))


def test_the_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="defence 'x'"):
        PGConfig(defence="x")
    with pytest.raises(ValueError, match="riichi REINFORCE"):
        PGConfig(rules="mcr", defence="start")
    with pytest.raises(ValueError, match="riichi REINFORCE"):
        PGConfig(estimator="vine", defence="start")

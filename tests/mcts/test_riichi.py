"""Seed 000's method on Riichi: the action tables and transitions, the hand results with riichi
deposits, the search agents at a Riichi table, and the whole pipeline (warm start, search
self-play, dropout learning) on tiny settings, with models and data of the other rule set
refused in one line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.cli.main import app
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.mcts.actions import END, RIICHI, TURN, outcome
from tenpai.mcts.agent import DropoutAgent, MCTSAgent
from tenpai.mcts.features import transition_planes
from tenpai.mcts.model import MCTSModel, MCTSModelError, ModelCard
from tenpai.mcts.replay import hand_results
from tenpai.mcts.rulesets import search_rules

OPTIONS = {"preset": "tenhou", "length": "tonpuu"}
NAMES = ("a", "b", "c", "d")


def _riichi_game(seed: int) -> Any:
    return make_game("riichi", seed, NAMES, OPTIONS)


def test_action_tables_group_red_fives_with_their_kind_and_fix_the_rest() -> None:
    space = RIICHI.space
    assert RIICHI.n == space.n == 299 and RIICHI.groups == 69 and RIICHI.pass_id == 298
    red = space.event_to_action(Event("dahai", actor=0, pai=34, tsumogiri=False))
    plain = space.event_to_action(Event("dahai", actor=0, pai=4, tsumogiri=True))
    assert RIICHI.group[red] == RIICHI.group[plain] == 4 and RIICHI.tile[red] == 4
    reach = space.keys.index(("reach",))
    nine = space.keys.index(("nine_terminals",))
    ron = space.keys.index(("ron",))
    assert RIICHI.fixed[reach] == outcome(0, TURN)
    assert RIICHI.fixed[nine] == RIICHI.fixed[ron] == outcome(0, END)
    kakan = space.keys.index(("kakan", 31))
    assert RIICHI.group[kakan] == 34 + 31 and RIICHI.group[RIICHI.pass_id] == 68
    planes = transition_planes(np.array([red, nine]), np.array([outcome(1, TURN),
                                                                 outcome(0, END)]), RIICHI)
    assert planes.shape == (2, 22, 34)
    assert planes[0, 0, 4] == 1 and planes[0, 0].sum() == 1  # the tile kind
    assert planes[1, 1 + 11].all() and planes[1, 0].sum() == 0  # abort type, no tile


def test_hand_results_count_riichi_deposits() -> None:
    """Each hand's result equals the change of the scores to the next hand's start."""
    declared = 0
    for seed in range(3):
        game = play(_riichi_game(seed), [make_agent("efficiency", s) for s in range(4)])
        results = hand_results(game.events)
        starts = [e for e in game.events if e.type == "start_kyoku"]
        assert len(results) == len(starts)
        for i in range(len(starts) - 1):
            assert list(results[i]) == [a - b for a, b in zip(starts[i + 1].scores,
                                                               starts[i].scores)]
        declared += sum(e.type == "reach_accepted" for e in game.events)
    assert declared > 0


def test_win_results_at_the_root_are_the_payers_signs() -> None:
    rules = search_rules("riichi")
    tsumo = Event("hora", actor=2, target=2, pai=5)
    ron = Event("hora", actor=2, target=0, pai=5)
    got = rules.win_rewards(None, 2, {296: ron, 295: tsumo})
    assert got[295].tolist() == [1, -1, -1, -1]
    assert got[296].tolist() == [1, 0, -1, 0]  # seat 0 is two seats after seat 2


class _Legal:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.asked = 0

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        out = self.inner.act_batch(requests)
        for a, (_obs, legal) in zip(out, requests):
            assert a in legal
        self.asked += len(out)
        return list(out)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]


@pytest.mark.parametrize("transitions", ["model", "simulator"])
def test_search_agents_play_legal_riichi_games_deterministically(transitions: str) -> None:
    torch.manual_seed(5)
    model = MCTSModel(ModelCard(rules="riichi", encoder="mzplanes_riichi@1", size="tiny"))

    def run() -> list[Event]:
        search = _Legal(MCTSAgent(model, simulations=4, seed=3, transitions=transitions))
        prior = _Legal(MCTSAgent(model, simulations=1, name="mcts_prior"))
        game = play(_riichi_game(11), [search, prior, search, prior])
        assert game.done and search.asked > 30
        return list(game.events)

    assert run() == run()
    with pytest.raises(ValueError, match="plays the riichi rules only"):
        suits = make_game("suits108", 1, NAMES, {})
        d = suits.pending()[0]
        MCTSAgent(model, simulations=2).act(d.observation, d.legal)


@pytest.fixture(scope="module")
def riichi_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny warm start and one version of search self-play on Riichi, through the CLI."""
    d = tmp_path_factory.mktemp("riichi")
    runner = CliRunner()
    res = runner.invoke(app, ["train", "mcts-warm", "--rules", "riichi", "--teacher",
                              "efficiency", "--out", str(d / "w.pt"), "--games", "2",
                              "--holdout", "1", "--steps", "4", "--checkpoint-steps", "2",
                              "--size", "tiny"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["train", "mcts", "--rules", "riichi", "--init", str(d / "w.pt"),
                              "--out", str(d / "m.pt"), "--size", "tiny", "--simulations", "2",
                              "--tables", "2", "--games-per-version", "1",
                              "--steps-per-version", "2", "--batch-size", "4",
                              "--max-versions", "1", "--json"])
    assert res.exit_code == 0, res.output
    return d


@pytest.fixture(scope="module")
def riichi_student(riichi_run: Path) -> Path:
    out = riichi_run / "d.pt"
    res = CliRunner().invoke(app, ["train", "dropout", "--rules", "riichi", "--data",
                                   str(riichi_run / "m.pt.ckpt"), "--out", str(out), "--size",
                                   "tiny", "--steps", "3", "--batch-size", "8", "--safety"])
    assert res.exit_code == 0, res.output
    return out


def test_the_pipeline_runs_on_riichi(riichi_run: Path, riichi_student: Path) -> None:
    model = MCTSModel.load(riichi_run / "m.pt")
    assert (model.card.rules, model.card.encoder) == ("riichi", "mzplanes_riichi@1")
    buffer = torch.load(riichi_run / "m.pt.ckpt", weights_only=True)["buffer"]
    assert buffer and buffer[0]["planes"].shape[1:] == (157, 34)
    assert buffer[0]["policy"].shape[1] == 299 and buffer[0]["safe"].shape[1:] == (3, 34)
    agent = _Legal(DropoutAgent(str(riichi_student)))
    game = play(_riichi_game(4), [agent, make_agent("efficiency", 1), agent,
                                  make_agent("efficiency", 3)])
    assert game.done and agent.asked > 30


def test_the_other_rule_sets_files_are_refused_in_one_line(riichi_run: Path,
                                                            tmp_path: Path) -> None:
    runner = CliRunner()
    # A suits108 run cannot continue a Riichi checkpoint, nor start from a Riichi model.
    res = runner.invoke(app, ["train", "mcts", "--out", str(riichi_run / "m.pt"), "--size",
                              "tiny", "--max-versions", "2"])
    assert res.exit_code == 2 and "rules='riichi'" in res.output
    assert len(res.output.strip().splitlines()) == 1
    res = runner.invoke(app, ["train", "mcts", "--init", str(riichi_run / "w.pt"), "--out",
                              str(tmp_path / "x.pt"), "--size", "tiny"])
    assert res.exit_code == 2 and "riichi/tiny/full model" in res.output
    # Riichi strategy data do not make a suits108 student.
    res = runner.invoke(app, ["train", "dropout", "--data", str(riichi_run / "m.pt.ckpt"),
                              "--out", str(tmp_path / "d.pt"), "--size", "tiny", "--steps", "1"])
    assert res.exit_code == 2 and "strategy data of the riichi rules" in res.output
    assert not (tmp_path / "d.pt").exists() and not (tmp_path / "x.pt").exists()
    res = runner.invoke(app, ["train", "mcts", "--rules", "mahjong", "--out",
                              str(tmp_path / "y.pt")])
    assert res.exit_code == 2 and "no rule set 'mahjong'" in res.output
    card = json.loads(torch.load(riichi_run / "m.pt", weights_only=True)["card_json"])
    assert card["training"]["settings"]["rules"] == "riichi"
    with pytest.raises(MCTSModelError, match="reads encoder"):
        MCTSModel(ModelCard(rules="riichi", size="tiny"))


def test_the_arena_takes_a_riichi_model_and_refuses_the_108_tile_default(
    riichi_student: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    args = ["arena", "--rules", "riichi", "--agents", "dropout,efficiency,dropout,efficiency",
            "--games", "4", "--workers", "1", "--json"]
    monkeypatch.delenv("TENPAI_DROPOUT_MODEL", raising=False)
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "has a suits108 model and cannot play riichi" in res.output
    assert len(res.output.strip().splitlines()) == 1
    monkeypatch.setenv("TENPAI_DROPOUT_MODEL", str(riichi_student))
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == 4

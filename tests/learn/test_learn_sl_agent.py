"""The sl agent plays legal, complete games, alone or batched (skipped without torch)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

import torch

from tenpai.agents import make_agent
from tenpai.agents.sl import SLAgent, isolated_kan
from tenpai.engine.agent import Agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.models.build import build_model
from tenpai.models.bundle import Head, ModelBundle, resolve_model_path
from tenpai.rules.riichi.flow.invariants import check_round
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small untrained model with every head, so the test needs no shipped weights."""
    torch.manual_seed(7)
    b = ModelBundle("gao68@1")
    for kind, classes in (("discard", 34), ("riichi", 2), ("pon", 2), ("chi", 4)):
        cfg = {"arch": "resnet", "in_channels": 69, "classes": classes, "width": 8, "blocks": 1}
        b.heads[kind] = Head(kind, cfg, build_model(cfg).eval(), {})
    path = tmp_path_factory.mktemp("sl") / "tiny.pt"
    b.save(path)
    return path


class _Recorder:
    """Forwards to the sl agent and keeps every request and answer."""

    name = "recorder"

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.log: list[tuple[Any, Sequence[Event], Event]] = []

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        a = self.agent.act(obs, legal)
        assert a in legal
        self.log.append((obs, legal, a))
        return a

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


def test_plays_a_whole_game_against_efficiency(model_file: Path) -> None:
    sl = _Recorder(SLAgent(str(model_file)))
    agents = [sl, make_agent("efficiency", 1), make_agent("efficiency", 2), sl]
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=21)

    def check(g: Any) -> None:
        if g.round is not None:
            check_round(g.round, g.tileset, 100_000)

    play(game, agents, check=check)
    assert game.done and sum(game.final_scores) == 100_000
    assert len(sl.log) > 50
    # A win on offer is always taken.
    for _obs, legal, a in sl.log:
        if any(e.type == "hora" for e in legal):
            assert a.type == "hora"


def test_batched_answers_equal_single_answers(model_file: Path) -> None:
    """Three tables advance together; each step is answered once batched and once one by one."""
    agent = SLAgent(str(model_file))
    games = [RiichiGame(TENHOU.with_(length="tonpuu"), seed=s) for s in (4, 5, 6)]
    compared = 0
    for _ in range(150):
        live = [g for g in games if not g.done]
        if not live:
            break
        pending = [(g, d) for g in live for d in g.pending()]
        requests = [(d.observation, d.legal) for _g, d in pending]
        batched = agent.act_batch(requests)
        assert batched == [agent.act(o, legal) for o, legal in requests]
        compared += len(requests)
        for g in live:
            g.step({d.seat: a for (gg, d), a in zip(pending, batched) if gg is g})
    assert compared > 300


def test_isolated_kan_rule() -> None:
    hand = [0] * 34
    hand[4] = 4
    assert isolated_kan(hand, 4)
    hand[6] = 1
    assert not isolated_kan(hand, 4)
    hand[6], hand[7] = 0, 1
    assert isolated_kan(hand, 4)
    hand[31] = 4
    hand[30] = 1
    assert isolated_kan(hand, 31)


def test_model_without_a_discard_head_is_refused(tmp_path: Path) -> None:
    b = ModelBundle("gao68@1")
    cfg = {"arch": "resnet", "in_channels": 69, "classes": 2, "width": 8, "blocks": 1}
    b.heads["pon"] = Head("pon", cfg, build_model(cfg), {})
    b.save(tmp_path / "pon_only.pt")
    with pytest.raises(ValueError, match="discard"):
        SLAgent(str(tmp_path / "pon_only.pt"))


def test_default_model_is_shipped_and_plays() -> None:
    try:
        resolve_model_path("default")
    except ValueError:
        pytest.skip("no default weights installed")
    agent = make_agent("sl", 0)
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=2)
    play(game, [agent, make_agent("efficiency", 0), make_agent("efficiency", 1), agent])
    assert game.done


def _last_layer(module: torch.nn.Module) -> torch.nn.Linear:
    """The resnet head's final linear layer (the one that scores the classes)."""
    head = module.head
    assert isinstance(head, torch.nn.Sequential)
    last = head[-1]
    assert isinstance(last, torch.nn.Linear)
    return last


def _kan_model(tmp: Path, declare: bool) -> Path:
    """A tiny model whose kan head always (or never) says "declare"."""
    torch.manual_seed(3)
    b = ModelBundle("gao68@1")
    for kind, classes in (("discard", 34), ("riichi", 2), ("pon", 2), ("chi", 4), ("kan", 2)):
        cfg = {"arch": "resnet", "in_channels": 69, "classes": classes, "width": 8, "blocks": 1}
        module = build_model(cfg).eval()
        if kind == "kan":
            last = _last_layer(module)
            with torch.no_grad():
                last.weight.zero_()
                last.bias.copy_(torch.tensor([0.0, 5.0] if declare else [5.0, 0.0]))
        if kind == "pon":  # pon everything, so open and added kans come up
            last = _last_layer(module)
            with torch.no_grad():
                last.weight.zero_()
                last.bias.copy_(torch.tensor([0.0, 5.0]))
        b.heads[kind] = Head(kind, cfg, module, {})
    path = tmp / f"kan_{declare}.pt"
    b.save(path)
    return path


@pytest.mark.parametrize("declare", [True, False])
def test_a_kan_head_decides_every_kan_outside_riichi(tmp_path: Path, declare: bool) -> None:
    sl = _Recorder(SLAgent(str(_kan_model(tmp_path, declare))))
    chances = 0
    for seed in range(4):
        game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
        play(game, [sl, sl, sl, sl])
        assert game.done and sum(game.final_scores) == 100_000
    for obs, legal, a in sl.log:
        kans = [e for e in legal if e.type in ("ankan", "kakan", "daiminkan")]
        if not kans or any(e.type == "hora" for e in legal):
            continue
        if any(e.type == "reach" and e.actor == obs.seat for e in obs.events):
            continue  # after riichi the thesis rule decides
        chances += 1
        assert (a.type in ("ankan", "kakan", "daiminkan")) == declare
    assert chances >= 3


def test_sl_model_plays_the_file_named_by_its_variable(
    model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sl_model` seats a candidate model; without the variable it refuses rather than
    silently playing the shipped default against itself."""
    from tenpai.arena.games import ArenaConfigError
    from tenpai.arena.runner import make_config

    monkeypatch.delenv("TENPAI_SL_MODEL", raising=False)
    with pytest.raises(ArenaConfigError, match=r"cannot be built: .*TENPAI_SL_MODEL.*unset"):
        make_config("riichi", ["sl_model", "random", "random", "random"], 4, 1)
    monkeypatch.setenv("TENPAI_SL_MODEL", str(model_file.with_name("missing.pt")))
    with pytest.raises(ArenaConfigError, match=r"missing\.pt"):
        make_config("riichi", ["sl_model", "random", "random", "random"], 4, 1)
    monkeypatch.setenv("TENPAI_SL_MODEL", str(model_file))
    with pytest.raises(ArenaConfigError, match="plays riichi, not 'mcr'"):
        make_config("mcr", ["sl_model", "random", "random", "random"], 4, 1)
    seat = make_agent("sl_model", 3)
    same = SLAgent(str(model_file), 3)
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=5)
    a = play(game, [_Recorder(seat), make_agent("efficiency", 1)] * 2)
    b = play(RiichiGame(TENHOU.with_(length="tonpuu"), seed=5),
             [_Recorder(same), make_agent("efficiency", 1)] * 2)
    assert seat.name == "sl_model" and a.final_scores == b.final_scores

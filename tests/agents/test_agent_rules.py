"""Issue 20, third group: agents declare the rule sets they play; the arena and self-play refuse
other pairings with one line instead of crashing deep inside or playing the wrong game."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tenpai.agents import AGENTS, rulesets
from tenpai.agents.rulesets import (
    UnsupportedRulesError,
    check_agent_rules,
    declare_rules,
    supported_rules,
)
from tenpai.arena.games import ArenaConfigError
from tenpai.arena.runner import make_config
from tenpai.cli import arena as arena_cli
from tenpai.engine.agent import RandomAgent
from tenpai.selfplay.spec import SelfPlaySpec


@pytest.mark.parametrize("agent, rules", [
    ("defensive", "mcr"),   # AttributeError: MCRObservation has no riichi
    ("sl", "mcr"),          # Riichi shanten on an MCR hand
    ("sl_mcr", "riichi"),   # played a whole Riichi game with MCR networks, silently
    ("mdp", "suits108"),
])
def test_arena_refuses_an_agent_built_for_other_rules(agent: str, rules: str,
                                                      tmp_path: Path) -> None:
    with pytest.raises(ArenaConfigError, match=f"agent '{agent}' plays .*, not '{rules}'"):
        make_config(rules, [agent, "random", "random", "random"], 4, 1)
    app = typer.Typer()
    arena_cli.register(app)
    res = CliRunner().invoke(app, ["arena", "--rules", rules, "--agents",
                                   f"{agent},random,random,random", "--games", "4",
                                   "--db", str(tmp_path / "a.db"), "--workers", "1"])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"agent '{agent}' plays" in lines[0], res.output
    assert not (tmp_path / "a.db").exists()


def test_self_play_refuses_an_agent_built_for_other_rules() -> None:
    with pytest.raises(UnsupportedRulesError,
                       match="agent 'defensive' plays riichi, suits108, not 'mcr'"):
        SelfPlaySpec.series("mcr", ["defensive", "random", "random", "random"], 0, 1)
    SelfPlaySpec.series("riichi", ["defensive", "random", "random", "random"], 0, 1)


def test_every_existing_agent_declares_and_unknown_ones_play_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("random", "efficiency", "defensive", "expert", "mdp", "sl", "sl_model", "sl_mcr",
                 "mcts", "mcts_prior"):
        assert supported_rules(name), name
    # an agent registered elsewhere without a declaration keeps working everywhere
    monkeypatch.setitem(AGENTS, "newcomer", RandomAgent)
    assert supported_rules("newcomer") is None
    for rules in ("riichi", "mcr", "suits108"):
        check_agent_rules("newcomer", rules)
        make_config(rules, ["newcomer", "random", "random", "random"], 4, 1)
    monkeypatch.setattr(rulesets, "AGENT_RULES", dict(rulesets.AGENT_RULES))
    declare_rules("newcomer", ["suits108"])
    with pytest.raises(UnsupportedRulesError):
        check_agent_rules("newcomer", "riichi")

"""Issue 20: every agent declares the rule sets it plays, and an agent that cannot be built
(a missing model file) is refused in one line before any game, not from inside a worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.agents import AGENTS
from tenpai.agents.rulesets import supported_rules
from tenpai.arena.games import ArenaConfigError
from tenpai.arena.runner import make_config
from tenpai.cli.main import app


def test_every_registered_agent_declares_its_rule_sets() -> None:
    undeclared = [a for a in AGENTS if supported_rules(a) is None]
    assert undeclared == []  # before: dropout played "any" rules and crashed in Riichi


def test_an_agent_without_its_model_is_one_line(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_DROPOUT_MODEL", str(tmp_path / "missing.pt"))
    with pytest.raises(ArenaConfigError, match=r"agent 'dropout' cannot be built: .*missing\.pt"):
        make_config("suits108", ("dropout", "random", "random", "random"), 4, 0)
    res = CliRunner().invoke(app, ["arena", "--agents", "dropout,random,random,random",
                                   "--rules", "suits108", "--games", "4", "--no-progress",
                                   "--db", str(tmp_path / "d.db")])
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        f"error: agent 'dropout' cannot be built: {tmp_path / 'missing.pt'}: no such dropout "
        "model file"]
    assert not (tmp_path / "d.db").exists()  # refused before the results file was made

"""MCR's default agent is the strongest measured one (``planner``, docs/mcr_strength.md)
wherever a user does not name an agent: the arena's line-up, ``explain`` of a hand, the
Botzone bot and package, the web table.  Bad settings still get one line and exit code 2."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.agents import registry
from tenpai.agents.registry import (
    ANY_RULES,
    BASELINE_AGENTS,
    DEFAULT_AGENTS,
    default_agent,
    default_lineup,
)
from tenpai.agents.rulesets import check_agent_rules
from tenpai.cli.main import app


def test_every_rule_set_has_a_default_that_plays_it() -> None:
    assert set(DEFAULT_AGENTS) == set(ANY_RULES)
    for rules, name in [*DEFAULT_AGENTS.items(), *BASELINE_AGENTS.items()]:
        check_agent_rules(name, rules)
    assert default_agent("mcr") == "planner"
    assert default_lineup("mcr") == ["planner", "efficiency", "planner", "efficiency"]


def test_unknown_rules_and_rules_without_a_line_up_are_refused() -> None:
    with pytest.raises(ValueError, match="no default agent for rules 'go'"):
        default_agent("go")
    with pytest.raises(ValueError, match="give --agents"):
        default_lineup("riichi")


def test_arena_without_agents_plays_the_mcr_default_line_up() -> None:
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--games",
                                 "4", "--seed", "3", "--workers", "1", "--no-progress",
                                 "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert sorted(a["agent"] for a in summary["agents"]) == ["efficiency", "planner"]
    assert "planner,efficiency,planner,efficiency" in r.stderr


def test_arena_without_agents_for_riichi_is_one_line_and_exit_2() -> None:
    r = CliRunner().invoke(app, ["arena", "--games", "4"])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "give --agents" in r.stderr
    assert "Traceback" not in r.output


def test_explain_of_a_hand_defaults_to_the_planner() -> None:
    args = ["explain", "--hand", "12345678m234s55p7z", "--seen", "9m", "--draws", "10", "--json"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["discard"] == "7z"


def test_botzone_commands_read_the_default_from_the_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both commands build what the registry names: swap the name for an unknown one and
    they fail on it, in one line with exit code 2."""
    monkeypatch.setitem(registry.DEFAULT_AGENTS, "mcr", "nobody_here")
    for args in (["botzone-bot"], ["botzone-package", "--out", str(tmp_path / "pkg")]):
        r = CliRunner().invoke(app, args, input="")
        assert r.exit_code == 2, (args, r.output)
        assert "nobody_here" in r.stderr and r.stderr.count("\n") == 1


def test_botzone_package_without_agent_packs_the_planner(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["botzone-package", "--out", str(tmp_path / "pkg"),
                                 "--no-check"])
    assert r.exit_code == 0, r.output
    bot = tmp_path / "pkg" / "bot.zip"
    assert "AGENT = 'planner'" in zipfile.ZipFile(bot).read("__main__.py").decode()


def test_botzone_bot_without_agent_answers_as_the_planner() -> None:
    """One turn of a Botzone match (the sample deal of the package tests): the default bot
    answers exactly what ``--agent planner`` answers."""
    deal = "1 0 0 0 0 W1 W2 W3 W5 W6 B2 B3 B4 T7 T8 T9 F1 F1"
    turn = "\n".join(["3", "0 0 1", "PASS", deal, "PASS", "2 J2"]) + "\n"
    default = CliRunner().invoke(app, ["botzone-bot"], input=turn)
    named = CliRunner().invoke(app, ["botzone-bot", "--agent", "planner"], input=turn)
    assert default.exit_code == named.exit_code == 0, default.output
    assert default.stdout == named.stdout and default.stdout.startswith("PLAY ")


def test_web_table_offers_the_default_opponent_per_rule_set() -> None:
    from fastapi.testclient import TestClient

    from tenpai.serve.web.app import create_app
    from tenpai.serve.web.config import WebConfig
    from tenpai.serve.web.play import GameSettings

    meta = TestClient(create_app(WebConfig())).get("/api/meta").json()
    assert {r: meta["rules"][r]["opponent"] for r in meta["rules"]} == DEFAULT_AGENTS
    assert GameSettings.parse({"rules": "mcr"}).opponents == ("planner",) * 3
    assert GameSettings.parse({"rules": "mcr", "opponents": ["efficiency"] * 3}).opponents == (
        "efficiency",) * 3

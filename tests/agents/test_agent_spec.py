"""Settings for one seat in an agent's name (``planner[CLAIMS=0.3]``, tenpai.agents.spec): the
grammar, the registry building the agent with them over the environment's, and the arena
pairing two settings of one agent within its deals.  Bad specs are one line and exit 2."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
from typer.testing import CliRunner

from cli.refusal import one_line
from tenpai.agents import registry
from tenpai.agents.planner_settings import SETTING_NAMES as PLANNER_NAMES
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.agents.registry import AGENTS, ENTRIES, is_known_agent, make_agent
from tenpai.agents.rulesets import supported_rules
from tenpai.agents.spec import AgentSpec, AgentSpecError, parse_agent_spec, split_agents
from tenpai.cli.main import app


def test_a_bare_name_has_no_settings() -> None:
    assert parse_agent_spec(" planner ") == AgentSpec("planner")


def test_settings_are_read_in_order_with_keys_in_capitals() -> None:
    spec = parse_agent_spec("planner[claims=0.3, FAN_WEIGHT = 0]")
    assert spec == AgentSpec("planner", (("CLAIMS", "0.3"), ("FAN_WEIGHT", "0")))


def test_the_canonical_text_has_capital_keys_and_no_spaces() -> None:
    assert str(parse_agent_spec("planner[ claims = 0.3 ,fan_weight=0]")) == \
        "planner[CLAIMS=0.3,FAN_WEIGHT=0]"
    assert str(parse_agent_spec("planner")) == "planner"


def test_an_external_seat_is_never_read_as_a_spec() -> None:
    text = "botzone:bots/greedy[v2].py --keep-running"
    assert parse_agent_spec(text) == AgentSpec(text)


@pytest.mark.parametrize(("text", "fault"), [
    ("planner[CLAIMS=0.3", "one pair of brackets at the end"),
    ("planner[CLAIMS=0.3]x", "one pair of brackets at the end"),
    ("planner[A=1][B=2]", "one pair of brackets at the end"),
    ("[CLAIMS=0.3]", "no agent name"),
    ("planner[]", "empty brackets"),
    ("planner[CLAIMS]", "is not KEY=VALUE"),
    ("planner[CLAIMS=]", "is not KEY=VALUE"),
    ("planner[CLAIMS=1=2]", "is not KEY=VALUE"),
    ("planner[2X=1]", "is not a setting's name"),
    ("planner[claims=1,CLAIMS=2]", "CLAIMS is set twice"),
])
def test_a_malformed_spec_is_one_line_naming_it(text: str, fault: str) -> None:
    with pytest.raises(AgentSpecError, match=fault) as info:
        parse_agent_spec(text)
    assert text in str(info.value) and "\n" not in str(info.value)


def test_a_line_up_keeps_the_commas_inside_brackets() -> None:
    text = "planner[CLAIMS=0.3,FAN_WEIGHT=0], efficiency,,botzone:bot.py --keep-running"
    assert split_agents(text) == ["planner[CLAIMS=0.3,FAN_WEIGHT=0]", "efficiency",
                                  "botzone:bot.py --keep-running"]
    with pytest.raises(AgentSpecError, match="never closed"):
        split_agents("planner[CLAIMS=0.3,efficiency")
    with pytest.raises(AgentSpecError, match="closes no"):
        split_agents("planner],efficiency")


def test_the_seat_gets_its_settings_over_the_environments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_PLANNER_CLAIMS", "0.5")
    monkeypatch.setenv("TENPAI_PLANNER_FAN_WEIGHT", "2")
    before = dict(os.environ)
    agent = make_agent("planner[CLAIMS=0.2]", 7)
    assert agent.settings.claims == 0.2  # type: ignore[attr-defined]
    # the environment's, for what the spec leaves alone
    assert agent.settings.fan_weight == 2.0  # type: ignore[attr-defined]
    assert dict(os.environ) == before  # nothing leaks to the process or the next seat
    bare = make_agent("planner", 7)
    assert bare.settings.claims == 0.5  # type: ignore[attr-defined]
    # what the arena stores of who played
    assert "claims=0.2" in agent.identity  # type: ignore[attr-defined]


def test_planner_defend_keeps_its_defense_whatever_the_spec_says() -> None:
    agent = make_agent("planner_defend[DEFENSE=0,THREAT=0.3]", 1)
    assert agent.settings.defense is True  # type: ignore[attr-defined]
    assert agent.settings.threat == 0.3  # type: ignore[attr-defined]


def test_a_setting_the_agent_does_not_read_is_refused_with_its_list() -> None:
    with pytest.raises(ValueError, match="has no setting FOO; its settings: DEFENSE"):
        make_agent("planner[FOO=1]")
    with pytest.raises(ValueError, match="'efficiency' takes no settings"):
        make_agent("efficiency[X=1]")
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        make_agent("nobody[X=1]")


def test_a_plain_factory_added_by_another_module_takes_no_settings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(AGENTS, "mine", lambda seed: make_agent("random", seed))
    assert is_known_agent("mine") and is_known_agent("mine[A=1]")
    with pytest.raises(ValueError, match="'mine' takes no settings"):
        make_agent("mine[A=1]")


def test_known_names_and_rule_sets_read_the_agent_under_the_brackets() -> None:
    assert is_known_agent("planner[CLAIMS=0.3]")
    assert not is_known_agent("planner[CLAIMS") and not is_known_agent("nobody[A=1]")
    assert supported_rules("planner[CLAIMS=0.3]") == supported_rules("planner")


def test_every_entry_with_settings_names_the_variables_its_reader_reads() -> None:
    # the planner's own reader: one variable per field, none forgotten
    fields = [f.name.upper() for f in dataclasses.fields(PlannerSettings)]
    assert list(PLANNER_NAMES) == fields
    with_settings = {e.name: e for e in ENTRIES if e.settings is not None}
    assert set(with_settings) == {"planner", "planner_defend", "search", "search_mcr", "mcts_pg"}
    for entry in with_settings.values():
        names = entry.setting_names()
        assert names and len(set(names)) == len(names)
        # a value no reader accepts is refused by name: each listed variable is really read
        prefix = entry.settings[0]  # type: ignore[index]
        module, _, attr = entry.target.partition(":")
        factory = getattr(__import__(module, fromlist=[attr]), attr)
        for name in names[:3]:
            with pytest.raises(ValueError, match=prefix + name):
                factory(0, env={prefix + name: "@@"})


def test_the_arena_pairs_two_settings_of_one_agent_within_its_deals() -> None:
    lineup = "planner[ fan_weight=0 ],planner,efficiency,efficiency"  # stored canonical
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--games",
                                 "4", "--seed", "5", "--workers", "1", "--no-progress",
                                 "--agents", lineup, "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert sorted(a["agent"] for a in summary["agents"]) == [
        "efficiency", "planner", "planner[FAN_WEIGHT=0]"]
    pairs = {(t["a"], t["b"]) for t in summary["paired_tests"]}
    assert ("planner[FAN_WEIGHT=0]", "planner") in pairs
    assert summary["config"]["players"]["planner[FAN_WEIGHT=0]"] == "fan_weight=0.0"


@pytest.mark.parametrize(("lineup", "words"), [
    ("planner[FOO=1],planner,efficiency,efficiency", ("planner[FOO=1]", "no setting FOO")),
    ("planner[CLAIMS=x],planner,efficiency,efficiency",
     ("planner[CLAIMS=x]", "CLAIMS: cannot read")),
    ("planner[CLAIMS=0.3,planner,efficiency,efficiency", ("never closed",)),
    ("efficiency[X=1],planner,efficiency,efficiency", ("takes no settings",)),
])
def test_a_bad_spec_in_the_arena_is_one_line_and_exit_2(lineup: str,
                                                         words: tuple[str, ...]) -> None:
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--games",
                                 "4", "--workers", "1", "--agents", lineup])
    one_line(r, *words)


def test_the_registry_module_still_builds_bare_names_as_before() -> None:
    assert type(make_agent("planner", 3)) is type(registry.AGENTS["planner"](3))


def test_a_bad_value_is_named_as_it_was_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value in brackets is named by its key (CLAIMS), one from the environment by its
    variable ($TENPAI_PLANNER_FAN_WEIGHT): the user is told where to look."""
    with pytest.raises(ValueError, match=r"^CLAIMS must be in \[0, 1\]") as caught:
        make_agent("planner[CLAIMS=2]")
    assert "TENPAI_" not in str(caught.value)
    monkeypatch.setenv("TENPAI_PLANNER_FAN_WEIGHT", "heavy")
    with pytest.raises(ValueError, match="TENPAI_PLANNER_FAN_WEIGHT"):
        make_agent("planner[CLAIMS=0.3]")

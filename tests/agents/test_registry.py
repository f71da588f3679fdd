"""The agent registry names agents without importing them, and builds each on first use.

A registry entry is ``"module:factory"`` text: importing the registry (or ``tenpai.agents``)
must load no agent module, so a run that seats ``efficiency`` never pays for torch or for the
search package; building an agent imports exactly its own module.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tenpai.agents import AGENTS, make_agent
from tenpai.agents.registry import ENTRIES, EXTERNAL_SEATS, agent_entry, external_seats
from tenpai.agents.rulesets import AGENT_RULES

_HEAVY = ("torch", "tenpai.mcts", "tenpai.mdp", "tenpai.learn", "tenpai.models",
          "tenpai.agents.efficiency", "tenpai.agents.sl", "tenpai.agents.factories")


def _loaded_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _under(loaded: set[str], prefix: str) -> list[str]:
    return sorted(m for m in loaded if m == prefix or m.startswith(prefix + "."))


def test_importing_the_registry_loads_no_agent() -> None:
    loaded = _loaded_after("import tenpai.agents, tenpai.agents.rulesets")
    assert {h: _under(loaded, h) for h in _HEAVY} == {h: [] for h in _HEAVY}


def test_building_one_agent_imports_only_its_module() -> None:
    loaded = _loaded_after("from tenpai.agents import make_agent; make_agent('efficiency', 1)")
    assert "tenpai.agents.efficiency" in loaded
    for other in ("torch", "tenpai.mcts", "tenpai.mdp", "tenpai.agents.sl",
                  "tenpai.agents.defensive", "tenpai.agents.expert"):
        assert _under(loaded, other) == [], other


def test_every_entry_names_a_factory_that_exists() -> None:
    pytest.importorskip("torch")  # the network agents' modules import it
    for entry in ENTRIES:
        assert callable(entry.factory()), entry.name
        assert entry.rules, entry.name
        assert entry.extra in (None, "learn"), entry.name


def test_rules_are_read_from_the_entries() -> None:
    assert {e.name: e.rules for e in ENTRIES} == {n: AGENT_RULES[n] for n in AGENTS}
    assert agent_entry("defensive") is not None
    assert agent_entry("no such agent") is None


def test_plain_factories_added_by_other_modules_still_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tenpai.engine.agent import RandomAgent

    monkeypatch.setitem(AGENTS, "mine", lambda seed: RandomAgent(seed))
    assert isinstance(make_agent("mine", 4), RandomAgent)
    assert agent_entry("mine") is None  # not a built-in entry: no rules declared


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown agent 'nope'; known: .*efficiency"):
        make_agent("nope")


def test_external_seats_are_found_by_prefix() -> None:
    assert set(EXTERNAL_SEATS) == {"mjai:", "botzone:", "botzone-json:"}
    for prefix in EXTERNAL_SEATS:
        module = external_seats(prefix)
        assert callable(module.play_game) and callable(module.resolve_spec)

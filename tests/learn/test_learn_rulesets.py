"""The learning registry finds each rule set's entry through a static table, on demand.

Importing :mod:`tenpai.learn.rulesets` (as :mod:`tenpai.agents.sl` does at its top) must load
no entry and no encoder, a rule set's module must load only when that rule set is asked for,
and the unknown-encoder hint must read that same table rather than a record that entries join
when they are made.  Checked in fresh interpreters, since this process has imported everything.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from tenpai.learn.learning_rules import LearningRules, entry_of, owner_of
from tenpai.learn.ruleset_table import ENTRY_TARGETS
from tenpai.learn.rulesets import (
    RULE_NAMES,
    UnknownRulesError,
    all_rules,
    get_encoder,
    get_rules,
    rules_of_encoder,
)

#: Each rule set's entry module and its encoders' packages: what the registry must not load
#: before that rule set is asked for.
_RIICHI = ("tenpai.learn.riichi", "tenpai.learn.encoders")
_MCR = ("tenpai.learn.mcr.records", "tenpai.learn.mcr.decisions", "tenpai.learn.mcr.encoders")
_SUITS108 = ("tenpai.learn.suits108.records", "tenpai.learn.suits108.s108")


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _under(loaded: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded for p in prefixes if m == p or m.startswith(p + "."))


def test_importing_the_registry_loads_no_entry_no_encoder_and_no_numpy() -> None:
    loaded = _loaded_after("import tenpai.learn.rulesets")
    assert _under(loaded, (*_RIICHI, *_MCR, *_SUITS108, "tenpai.learn.decisions", "numpy")) == []


def test_asking_for_one_rule_set_loads_only_its_entry_and_encoder() -> None:
    loaded = _loaded_after("from tenpai.learn.rulesets import get_encoder; get_encoder('gao68')")
    assert {"tenpai.learn.riichi", "tenpai.learn.encoders.gao68"} <= loaded
    assert _under(loaded, (*_MCR, *_SUITS108)) == []
    assert "tenpai.learn.encoders.gao86" not in loaded


def test_the_sl_agent_module_loads_no_entry_until_it_builds_an_agent() -> None:
    pytest.importorskip("torch")  # tenpai.agents.sl reads models
    loaded = _loaded_after("import tenpai.agents.sl")
    assert _under(loaded, (*_RIICHI, *_MCR, *_SUITS108)) == []


def test_every_name_in_the_table_resolves_to_its_entry() -> None:
    assert RULE_NAMES == tuple(ENTRY_TARGETS) == ("riichi", "mcr", "suits108")
    for name in RULE_NAMES:
        entry = get_rules(name)
        assert isinstance(entry, LearningRules) and entry.name == name
        assert entry is entry_of(name) is all_rules()[name]
        assert entry.default_encoder in entry.encoders
        for encoder in entry.encoders:
            assert get_encoder(encoder, name).name == encoder
            assert rules_of_encoder(f"{encoder}@1") is entry


def test_the_hint_reads_the_table_in_a_fresh_interpreter() -> None:
    # nothing but learning_rules imported: no entry has been made, yet the owner is found
    code = "from tenpai.learn.learning_rules import owner_of; print(owner_of('mcr_stack002').name)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "mcr"


def test_making_an_entry_changes_nothing_the_registry_answers() -> None:
    copy = dataclasses.replace(
        get_rules("riichi"),
        name="riichi_copy",
        encoders={"only_in_the_copy": "tenpai.learn.encoders.gao68"},
    )
    assert copy.get_encoder("only_in_the_copy").name == "gao68"
    assert owner_of("only_in_the_copy") is None
    assert rules_of_encoder("gao68") is get_rules("riichi")
    with pytest.raises(UnknownRulesError, match="unknown rules 'riichi_copy'"):
        get_rules("riichi_copy")


def test_unknown_names_keep_their_messages() -> None:
    with pytest.raises(
        UnknownRulesError, match=r"^unknown rules 'go'; known: riichi, mcr, suits108$"
    ):
        get_rules("go")
    with pytest.raises(
        UnknownRulesError,
        match=r"unknown mcr encoder 'gao68' \(gao68 is a riichi encoder; "
        r"use --rules riichi\)",
    ):
        get_encoder("gao68", "mcr")
    with pytest.raises(
        UnknownRulesError, match=r"unknown riichi encoder 's108@1' \(s108 is a suits108 encoder"
    ):
        get_encoder("s108@1")
    with pytest.raises(UnknownRulesError, match=r"unknown riichi encoder 'nothing'; known: "):
        get_encoder("nothing")

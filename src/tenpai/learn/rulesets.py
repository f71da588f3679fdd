"""The rule sets the learning layer knows: one :class:`~tenpai.learn.learning_rules.LearningRules`
entry each, found by name.

Dataset building, training and agreement are written once (:mod:`tenpai.learn.dataset`,
:mod:`tenpai.train.sl`, :mod:`tenpai.learn.evaluate`); what differs between Riichi, MCR and the
108-tile rules is only *which* records are read, how a game is replayed and named, which
decisions it holds and which encoders read them.  An entry bundles exactly those answers, so a
new rule set is a new entry, never a new pipeline.

The entries live in the rule set's own module (:mod:`tenpai.learn.riichi`,
:mod:`tenpai.learn.mcr.records`, :mod:`tenpai.learn.suits108.records`), built from the types of
:mod:`tenpai.learn.learning_rules`.  This registry names them only through the static table
:mod:`tenpai.learn.ruleset_table` and imports a rule set's module when that rule set is asked
for, so importing it (as :mod:`tenpai.agents.sl` does) loads no entry, no decision extraction
and no encoder, and a Riichi run never loads MCR's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tenpai.learn.learning_rules import LearningRules, UnknownRulesError, entry_of, owner_of
from tenpai.learn.ruleset_table import ENTRY_TARGETS

if TYPE_CHECKING:
    from tenpai.learn.encoders.base import Encoder

__all__ = [
    "RULE_NAMES",
    "UnknownRulesError",
    "all_rules",
    "get_encoder",
    "get_rules",
    "rules_of_encoder",
]

#: Every rule set's name, in the order the CLI lists them.
RULE_NAMES: Final = tuple(ENTRY_TARGETS)


def all_rules() -> dict[str, LearningRules]:
    """Every entry by name (each rule set's module imported now)."""
    return {name: entry_of(name) for name in RULE_NAMES}


def get_rules(name: str) -> LearningRules:
    """The entry of ``name``; UnknownRulesError lists the known names."""
    return entry_of(name)


def get_encoder(name: str, rules: str = "riichi") -> Encoder:
    """The encoder called ``name`` (optionally ``name@version``, which must match) of ``rules``
    (Riichi's unless told): ``get_encoder("gao68")``."""
    return get_rules(rules).get_encoder(name)


def rules_of_encoder(tag: str) -> LearningRules | None:
    """The rule set an encoder name or tag (``gao68``, ``mcr_stack002@1``) belongs to."""
    return owner_of(tag)

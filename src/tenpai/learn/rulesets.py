"""The rule sets the learning layer knows: one :class:`~tenpai.learn.learning_rules.LearningRules`
entry each, found by name.

Dataset building, training and agreement are written once (:mod:`tenpai.learn.dataset`,
:mod:`tenpai.train.sl`, :mod:`tenpai.learn.evaluate`); what differs between Riichi, MCR and the
108-tile rules is only *which* records are read, how a game is replayed and named, which
decisions it holds and which encoders read them.  An entry bundles exactly those answers, so a
new rule set is a new entry here, never a new pipeline.

The entries live in the rule set's own module (:mod:`tenpai.learn.riichi`,
:mod:`tenpai.learn.mcr.records`, :mod:`tenpai.learn.suits108.records`), built from the types of
:mod:`tenpai.learn.learning_rules`; this registry sits above them and imports them.  Everything
heavy (the engines, the replays) is imported inside their hooks, so importing this module stays
cheap.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn import riichi
from tenpai.learn.encoders.base import Encoder
from tenpai.learn.learning_rules import LearningRules, UnknownRulesError, owner_of
from tenpai.learn.mcr import records as mcr
from tenpai.learn.suits108 import records as suits108

__all__ = [
    "RULE_NAMES",
    "UnknownRulesError",
    "all_rules",
    "get_encoder",
    "get_rules",
    "rules_of_encoder",
]

#: Every entry by name, in the order the CLI lists them.
_REGISTRY: Final[dict[str, LearningRules]] = {
    r.name: r for r in (riichi.RULES, mcr.RULES, suits108.RULES)
}
#: Every rule set's name, in the order the CLI lists them.
RULE_NAMES: Final = ("riichi", "mcr", "suits108")


def all_rules() -> dict[str, LearningRules]:
    """Every entry by name."""
    return _REGISTRY


def get_rules(name: str) -> LearningRules:
    """The entry of ``name``; UnknownRulesError lists the known names."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownRulesError(
            f"unknown rules {name!r}; known: {', '.join(RULE_NAMES)}"
        ) from None


def get_encoder(name: str, rules: str = "riichi") -> Encoder:
    """The encoder called ``name`` (optionally ``name@version``, which must match) of ``rules``
    (Riichi's unless told): ``get_encoder("gao68")``."""
    return get_rules(rules).get_encoder(name)


def rules_of_encoder(tag: str) -> LearningRules | None:
    """The rule set an encoder name or tag (``gao68``, ``mcr_stack002@1``) belongs to."""
    return owner_of(tag)

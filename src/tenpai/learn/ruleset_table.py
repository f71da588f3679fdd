"""Where each rule set's learning entry lives, by name: a static table that imports no entry.

An entry is named as ``"module:attribute"`` text, as an agent is in
:mod:`tenpai.agents.registry`, so reading the table loads no rule set's module (its decision
extraction, its numpy encoders): :func:`tenpai.learn.learning_rules.entry_of` imports one
only when that rule set is asked for.  The registry (:mod:`tenpai.learn.rulesets`) lists and
finds entries through this table, and an unknown encoder's hint looks through the same names;
the table sits below both and imports nothing, so neither has to import the other, and nothing
joins a record at import time.  A new rule set is one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["ENTRY_TARGETS"]

#: Each rule set's entry as ``"module:attribute"``, in the order the CLI lists them.
ENTRY_TARGETS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "riichi": "tenpai.learn.riichi:RULES",
        "mcr": "tenpai.learn.mcr.records:RULES",
        "suits108": "tenpai.learn.suits108.records:RULES",
    }
)

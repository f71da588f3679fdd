"""Riichi's encoders: frozen modules, found by name through the registry.

Each encoder is a frozen module with ``NAME``, ``VERSION``, ``SHAPE`` and ``ENCODER`` (see
:mod:`tenpai.learn.encoders.base` for the contract and docs/encoders.md for the channel
tables).  Modules are imported on first use.  Every rule set's encoders are found through its
registry entry (:meth:`tenpai.learn.learning_rules.LearningRules.get_encoder`);
``tenpai.learn.rulesets.get_encoder("gao68")`` is Riichi's.  This package sits below the
entries that list its modules, so it names them and imports nothing above it.
"""

from __future__ import annotations

from typing import Final

from tenpai.learn.encoders.base import Encoder

__all__ = ["ENCODER_NAMES", "ISSUE19_ENCODERS", "Encoder"]

#: The off-table, look-ahead and sequence encoders of issue 19 (docs/encoders.md).
ISSUE19_ENCODERS: Final = (
    "gao86e_sc", "gao86e_ctx", "gao86e_rc", "gao86e_off", "gao86e_la", "gao86e_all", "seq7",
)
#: The encoders before issue 19 (their golden digests live in tests/learn/test_learn_encoders.py;
#: the issue-19 ones' in tests/learn/test_learn_issue19_encoders.py).
ENCODER_NAMES: Final = ("gao56", "gao68", "gao86", "gao86e", "ffn352")

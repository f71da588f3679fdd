"""The optional compiled scorer (``_score.c``): loading it and checking it against the yaku.

The Python yaku classes are the specification; ``_score.c`` transcribes them for speed.  On
loading, the extension is handed the yaku list (ids, han, double flags in display order) and
refuses it unless its own table is identical, so a yaku added on one side only switches the
compiled path off with a warning instead of scoring differently (the tests fail on that
warning).  ``TENPAI_PURE_PYTHON=1`` keeps the pure-Python path, as for the shanten extension.
"""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

from tenpai.rules.riichi.context import Meld, ScoringError, WinContext
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["ABI", "load"]

#: The extension's ``ABI`` this Python side is written for (see ``_score.c``).
ABI = 1


def load(win_result: type) -> Any | None:
    """The set-up extension module, or ``None`` when the Python path is to be used."""
    if os.environ.get("TENPAI_PURE_PYTHON"):
        return None
    try:
        module = importlib.import_module("tenpai.rules.riichi._score")
    except ImportError:
        return None
    # A build from an older source (an editable install not rebuilt) is not used.
    if getattr(module, "ABI", None) != ABI:
        return None
    from tenpai.rules.riichi.yaku import ALL_YAKU

    table = [(y.id, y.han_closed, y.han_open or 0, int(y.yakuman), int(y.double))
             for y in ALL_YAKU]
    try:
        module.setup(WinContext, Meld, win_result, RiichiRules, ScoringError, table)
    except (TypeError, ValueError) as err:
        warnings.warn(f"compiled Riichi scoring switched off: {err}", RuntimeWarning,
                      stacklevel=2)
        return None
    return module

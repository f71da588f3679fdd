"""The optional compiled scorer (``_score.c``): loading it and checking it against the yaku.

The Python yaku classes are the specification; ``_score.c`` transcribes them for speed.  On
loading, the extension is handed the yaku list (ids, han, double flags in display order) and
refuses it unless its own table is identical, so a yaku added on one side only switches the
compiled path off with a warning instead of scoring differently (the tests fail on that
warning).  ``TENPAI_PURE_PYTHON=1`` keeps the pure-Python path, as for the shanten extension.

Building the context costs more than scoring it, so the extension also takes over the
constructors of ``WinContext`` and ``Meld``: it fills their slots as the dataclass ``__init__``
does and runs a conservative C copy of their checks; whatever that copy does not accept as
certainly valid goes through the Python ``__post_init__``, which stays the specification and
raises the typed errors (``TENPAI_PURE_CONSTRUCTORS=1`` keeps the dataclass constructors).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import MISSING, fields
from typing import Any

from tenpai import native
from tenpai.rules.riichi.context import Meld, ScoringError, WinContext
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["ABI", "install_constructors", "load", "yaku_table"]

#: The extension's ``ABI`` this Python side is written for (see ``_score.c``).
ABI = 1


def yaku_table() -> tuple[tuple[str, int, int, int, int], ...]:
    """The Python yaku list as the C cores hold it (``YAKU[]`` in ``_score_core.h``): id, han
    closed, han open (0: closed only), yakuman and double flags, in display order.  Each core
    that scores (``_score.c``, ``_rollout.c``, ``_table.c``) is compared with it at load."""
    from tenpai.rules.riichi.yaku import ALL_YAKU

    return tuple((y.id, y.han_closed, y.han_open or 0, int(y.yakuman), int(y.double))
                 for y in ALL_YAKU)


def load(win_result: type) -> Any | None:
    """The set-up extension module, or ``None`` when the Python path is to be used."""
    module = native.load("tenpai.rules.riichi._score", ABI)
    if module is None:
        return None
    try:
        module.setup(WinContext, Meld, win_result, RiichiRules, ScoringError, yaku_table())
    except (TypeError, ValueError) as err:
        warnings.warn(f"compiled Riichi scoring switched off: {err}", RuntimeWarning,
                      stacklevel=2)
        return None
    if not os.environ.get("TENPAI_PURE_CONSTRUCTORS"):
        install_constructors(module)
    return module


def install_constructors(module: Any) -> None:
    """Let the extension build ``WinContext`` and ``Meld`` (``module.uninstall_constructors()``
    goes back to the dataclass ones)."""
    module.install_constructors(_defaults(WinContext), _defaults(Meld))


def _defaults(cls: type) -> tuple[tuple[Any] | None, ...]:
    """The dataclass defaults of ``cls``'s init fields: ``(value,)``, or ``None`` if required."""
    return tuple(
        None if f.default is MISSING else (f.default,)
        for f in fields(cls) if f.init
    )

"""Hand analysis on 34-kind count vectors: decompositions, shanten, waits, effective tiles.

Nothing here knows about scoring; rule sets build on these primitives.  Count vectors hold
concealed tiles only; see :mod:`tenpai.hand.shanten` for the conventions and docs/hand.md for
the table design and measured speed.  numpy is imported only by :func:`shanten_batch` (on
first access), so a process that asks single hands starts without it.
"""

from typing import TYPE_CHECKING, Any

from tenpai.hand.counts import HandError
from tenpai.hand.decompose import (
    SEQUENCE,
    TRIPLET,
    Decomposition,
    Group,
    decompositions,
    is_standard_complete,
)
from tenpai.hand.efficiency import (
    DiscardOption,
    Ukeire,
    discard_ukeire,
    standard_useful,
    ukeire,
    waits,
)
from tenpai.hand.mcr import (
    KNITTED_PATTERNS,
    is_complete_mcr,
    sets_distance,
    shanten_honors_knitted,
    shanten_knitted_straight,
    shanten_mcr,
    shanten_seven_pairs_mcr,
)
from tenpai.hand.shanten import (
    is_complete,
    is_standard_form_complete,
    shanten,
    shanten_chiitoi,
    shanten_kokushi,
    shanten_standard,
)

__all__ = [
    "KNITTED_PATTERNS",
    "SEQUENCE",
    "TRIPLET",
    "Decomposition",
    "DiscardOption",
    "Group",
    "HandError",
    "Ukeire",
    "decompositions",
    "discard_ukeire",
    "is_complete",
    "is_complete_mcr",
    "is_standard_complete",
    "is_standard_form_complete",
    "sets_distance",
    "shanten",
    "shanten_batch",
    "shanten_chiitoi",
    "shanten_honors_knitted",
    "shanten_knitted_straight",
    "shanten_kokushi",
    "shanten_mcr",
    "shanten_seven_pairs_mcr",
    "shanten_standard",
    "standard_useful",
    "ukeire",
    "waits",
]

if TYPE_CHECKING:
    from tenpai.hand.batch import shanten_batch


def __getattr__(name: str) -> Any:
    """``shanten_batch`` is imported on first access: it is the only numpy user here."""
    if name == "shanten_batch":
        from tenpai.hand.batch import shanten_batch

        return shanten_batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

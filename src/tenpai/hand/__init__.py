"""Hand analysis on 34-kind count vectors: decompositions, shanten, waits, effective tiles.

Nothing here knows about scoring; rule sets build on these primitives.
"""

from tenpai.hand.decompose import (
    SEQUENCE,
    TRIPLET,
    Decomposition,
    Group,
    decompositions,
    is_standard_complete,
)

__all__ = [
    "SEQUENCE",
    "TRIPLET",
    "Decomposition",
    "Group",
    "decompositions",
    "is_standard_complete",
]

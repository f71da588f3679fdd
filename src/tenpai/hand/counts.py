"""Turning a caller's count vector into the compact form the kernel reads, with clear errors.

The kernel works on a 34-byte ``bytes`` object: slicing it gives per-suit dictionary keys at C
speed, and ``bytes(list)`` already rejects negative and huge values.  Everything else about a
count vector (at most four copies, 1-14 tiles, not a multiple of three) is checked here or on
the first table miss, and reported as a :class:`HandError` naming the kind at fault.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tenpai.tiles import to_compact

if TYPE_CHECKING:
    import numpy as np

__all__ = ["NUM_KINDS", "HandError", "as_count_bytes", "check_tile_count", "describe_bad_counts"]

NUM_KINDS = 34


class HandError(ValueError):
    """A count vector that cannot be a mahjong hand (wrong length, bad counts, bad size)."""


def describe_bad_counts(raw: bytes) -> str:
    """Say precisely what is wrong with a 34-byte count vector (used on the slow path)."""
    for kind, c in enumerate(raw):
        if c > 4:
            return f"counts[{kind}] = {c}: a kind has at most four copies"
    total = sum(raw)
    if total > 14:
        return f"{total} tiles: a concealed hand holds at most 14"
    return f"count vector {list(raw)} is not a valid hand"


def check_tile_count(raw: bytes, total: int) -> None:
    """Raise unless ``total`` concealed tiles can occur in play (3k+1 or 3k+2, at most 14)."""
    if total > 14 or total % 3 == 0:
        if total > 14:
            raise HandError(describe_bad_counts(raw))
        shown = to_compact(k for k, c in enumerate(raw) for _ in range(min(c, 4)))
        raise HandError(
            f"{total} tiles ({shown or 'empty'}): a hand holds 3k+1 or 3k+2 concealed tiles"
        )


def as_count_bytes(counts: Sequence[int] | bytes | np.ndarray, name: str = "counts") -> bytes:
    """The 34 counts as ``bytes``; raises :class:`HandError` naming ``name`` on bad input."""
    # numpy is not imported for this: an array can only exist once the caller imported it.
    numpy = sys.modules.get("numpy")
    if type(counts) is bytes:
        raw = counts
    elif numpy is not None and isinstance(counts, numpy.ndarray):
        if counts.shape != (NUM_KINDS,) or counts.dtype.kind not in "iub":
            raise HandError(
                f"{name}: expected 34 integer counts, got an array of shape {counts.shape} "
                f"and dtype {counts.dtype}"
            )
        if counts.size and (int(counts.min()) < 0 or int(counts.max()) > 4):
            bad = int(numpy.flatnonzero((counts < 0) | (counts > 4))[0])
            raise HandError(f"{name}[{bad}] = {int(counts[bad])}: counts run from 0 to 4")
        raw = counts.astype(numpy.uint8).tobytes()
    else:
        try:
            raw = bytes(counts)
        except (TypeError, ValueError):
            values = list(counts)
            for kind, c in enumerate(values):
                integer = numpy is not None and isinstance(c, numpy.integer)
                if not (isinstance(c, int) or integer) or not 0 <= int(c) <= 4:
                    raise HandError(
                        f"{name}[{kind}] = {c!r}: counts are integers from 0 to 4"
                    ) from None
            raise HandError(f"{name}: not a sequence of counts") from None
    if len(raw) != NUM_KINDS:
        raise HandError(f"{name}: expected 34 counts (one per kind), got {len(raw)}")
    return raw

"""The optional C fast path (``_accel.c``) and its hand-over of the lookup tables.

The extension is compiled at install time when a C compiler is present and skipped otherwise;
``TENPAI_PURE_PYTHON=1`` forces the pure-Python path (the tests run both).  The C code reads the
tables that :mod:`tenpai.hand.tables` builds, so both paths give the same numbers by
construction; it answers only the plain fast case and returns a sentinel for anything else,
which sends the caller down the Python path and its typed errors.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tenpai import native
from tenpai.hand.packed import packed_tables
from tenpai.hand.table_constants import INVALID

__all__ = ["available", "configure", "fast", "install", "table_buffers"]


#: The extension's ``ABI`` this Python side is written for (see ``_accel.c``).
ABI = 4

_module: Any = native.load("tenpai.hand._accel", ABI)
_lock = threading.Lock()
_configured: list[bool] = []


def available() -> bool:
    """True when the compiled fast path is in use."""
    return _module is not None


def table_buffers() -> tuple[Any, ...]:
    """The shanten tables as every compiled core's table set-up takes them (``configure`` in
    ``_accel.c``, ``_rollout.c``, ``_table.c``, ``_mcr_rollout.c``), in its argument order.

    The packed buffers: one byte per pattern (255 = impossible) keeps the C look-ups
    cache-friendly; an extension holds a buffer reference to each."""
    t = packed_tables()
    return (t.suit, t.honor, t.mp_class, t.n_pin, t.sh_class, t.n_honor, t.final, t.n_sh,
            INVALID, t.mp_vectors, t.sh_vectors)


def configure() -> None:
    """Hand the tables to the extension (called by the extension on its first use)."""
    with _lock:
        if not _configured:
            _module.configure(*table_buffers())
            _configured.append(True)


def install(
    shanten: Callable[[Any], int], standard: Callable[[Any], int], complete: Callable[[Any], bool]
) -> bool:
    """Register the Python fallbacks with the extension; False when there is no extension."""
    if _module is None:
        return False
    _module.install(configure, shanten, standard, complete)
    return True


def fast(name: str) -> Any:
    """The compiled function ``name`` (only after :func:`install` returned True)."""
    return getattr(_module, name)

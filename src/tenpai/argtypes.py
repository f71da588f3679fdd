"""Argument types for the ``python -m tenpai.…`` tools' command lines.

A count of games, worlds or deals that is zero or negative is never what the user meant: a tool
given ``--games 0`` would print a report of nothing (or divide by zero deep inside), and
``--games -4`` would silently play none.  These types make argparse refuse such a value at the
command line, naming the flag, with exit status 2 — the same answer the ``tenpai`` commands give
through typer's ``min=`` bounds — so every tool holds one rule instead of each re-checking its
counts (or forgetting to).
"""

from __future__ import annotations

import argparse

__all__ = ["non_negative_int", "positive_float", "positive_int"]


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None


def positive_int(text: str) -> int:
    """A whole number ≥ 1 (a count of games, worlds, deals, folds, …)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number ≥ 0 (a count where 0 means "no limit" or "none")."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (a rate or a temperature)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number, not {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text}")
    return value

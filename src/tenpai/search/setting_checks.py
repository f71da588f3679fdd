"""The checks the searches' settings share, each a one-line ValueError naming the variable.

``SearchSettings``, ``MCRSearchSettings`` and ``MCTSPGSettings`` (read by
:func:`tenpai.search.env.settings_from_env`) refuse the same kinds of bad value — a budget that is
not positive, an unknown clock, too few worlds or candidates, an unknown or unbuilt playout
policy — with the same words; the checks live here once so that the three keep saying the same
thing.  The settings import the module as ``check`` (``check.budget(...)``,
``check.at_least(...)``).  Each check names the variable ``prefix + name`` as the user sets
it; the arena and the bot commands turn the line into exit code 2 before any game.

Comparisons are written ``not value > low`` and so on, so that a NaN read from a variable is
refused too.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

__all__ = ["CLOCKS", "CompiledCore", "at_least", "budget", "compiled_core", "known", "one_of",
           "within"]

#: The clocks an anytime budget can be measured on: "wall" (think time at a table) or "cpu"
#: (this process's CPU time, for measurements on a shared machine).
CLOCKS = ("wall", "cpu")


class CompiledCore(Protocol):
    """A compiled rollout core's module (tenpai.rules.riichi.rollout, tenpai.search.mcr.compiled):
    whether it is built and loaded here, and if not, why in one line."""

    def available(self) -> bool: ...

    def unavailable_reason(self) -> str: ...


def budget(prefix: str, budget_ms: float, clock: str) -> None:
    """An anytime budget: ``BUDGET_MS`` > 0 milliseconds on a clock of :data:`CLOCKS`."""
    if not budget_ms > 0:
        raise ValueError(f"{prefix}BUDGET_MS must be > 0, got {budget_ms}")
    one_of(prefix, "CLOCK", clock, CLOCKS)


def at_least(prefix: str, name: str, value: float, least: float, why: str = "") -> None:
    """``value >= least``; ``why`` (when given) says in the error why less makes no sense."""
    if not value >= least:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{prefix}{name} must be >= {least}{reason}, got {value}")


def within(prefix: str, name: str, value: float, low: float, high: float, *,
             open_low: bool = False) -> None:
    """``low <= value <= high``, or ``low < value <= high`` with ``open_low``."""
    inside = low < value <= high if open_low else low <= value <= high
    if not inside:
        bracket = "(" if open_low else "["
        raise ValueError(f"{prefix}{name} must be in {bracket}{low}, {high}], got {value}")


def one_of(prefix: str, name: str, value: str, choices: Collection[str],
                 sep: str = " or ") -> None:
    """One of a few ``choices``, all named in the error (joined by ``sep``)."""
    if value not in choices:
        raise ValueError(f"{prefix}{name} must be {sep.join(choices)}, got {value!r}")


def known(prefix: str, name: str, what: str, value: str, names: Collection[str]) -> None:
    """One of a list of ``names`` (a registry's, longer than :func:`one_of`'s few), all
    listed in the error after ``unknown <what>``."""
    if value not in names:
        raise ValueError(f"{prefix}{name}: unknown {what} {value!r}; known: {', '.join(names)}")


def compiled_core(prefix: str, policy: str, core: CompiledCore) -> None:
    """A ``c:`` playout policy needs its compiled core built and loaded here; the error says
    why it is not and names the policy's Python reference (the same name without ``c:``)."""
    if not core.available():
        raise ValueError(f"{prefix}POLICY={policy}: {core.unavailable_reason()}; "
                         f"or use its Python reference {policy.removeprefix('c:')}")

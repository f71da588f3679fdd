"""A think time for agents that search within one (``search``): the ``--budget-ms`` of the
fronts (``tenpai mjai-bot``, ``tenpai tenhou-client``) and the web app's ``think_ms``.

An agent takes a budget by having ``set_budget_ms(ms)``; the fronts ask through
:func:`set_budget_ms` so that a budget given to an agent that has none is one line naming the
agent, never silently ignored.
"""

from __future__ import annotations

import math

__all__ = ["has_budget", "set_budget_ms"]


def has_budget(agent: object) -> bool:
    """Whether ``agent`` thinks within a per-decision budget it can be given."""
    return callable(getattr(agent, "set_budget_ms", None))


def set_budget_ms(name: str, agent: object, budget_ms: float) -> None:
    """Give ``agent`` (registered as ``name``) ``budget_ms`` per decision; ValueError (one
    line) for a budget that is not a positive number or an agent without a budget."""
    if not (math.isfinite(budget_ms) and budget_ms > 0):
        raise ValueError(f"the think time must be a positive number of milliseconds, got "
                         f"{budget_ms:g}")
    setter = getattr(agent, "set_budget_ms", None)
    if not callable(setter):
        raise ValueError(f"agent {name!r} has no think time to set (search has)")
    setter(budget_ms)

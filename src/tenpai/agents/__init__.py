"""Built-in agents, by name: ``make_agent("efficiency", seed=1)``.

Every agent follows :class:`tenpai.engine.Agent`.  The names live in
:mod:`tenpai.agents.registry`, which imports an agent's module only when one is built, so
importing this package costs no more than the registry; callers that only build agents by
name import the registry itself.
"""

from __future__ import annotations

from tenpai.agents.registry import AGENTS, make_agent

__all__ = ["AGENTS", "make_agent"]

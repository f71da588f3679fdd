"""Rule-set adapters for the environments, by rules name (imported on first use)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from tenpai.env.adapters.base import RuleAdapter

__all__ = ["ADAPTERS", "RuleAdapter", "make_adapter"]

#: rules name -> (module, class) of its adapter.
ADAPTERS: dict[str, tuple[str, str]] = {
    "riichi": ("tenpai.env.adapters.riichi", "RiichiAdapter"),
    "mcr": ("tenpai.env.adapters.mcr", "MCRAdapter"),
    "suits108": ("tenpai.env.adapters.suits108", "Suits108Adapter"),
}


def make_adapter(rules: str, options: Mapping[str, str] | None = None) -> RuleAdapter:
    """The adapter of ``rules`` with checked arena options; unknown names list the known ones."""
    try:
        module, cls = ADAPTERS[rules]
    except KeyError:
        raise ValueError(f"unknown rules {rules!r}; known: {', '.join(sorted(ADAPTERS))}") from None
    adapter: RuleAdapter = getattr(importlib.import_module(module), cls)(options)
    return adapter

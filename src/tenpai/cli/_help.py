"""One fix to how ``--help`` prints options: an on/off flag shows no value type.

Recent typer prints a type beside every option, so ``--json`` read ``--json <bool>`` as if
it took a value; a flag takes none.  Installed once when the CLI starts (:mod:`tenpai.cli.main`).
"""

from __future__ import annotations

from typing import Any

import typer.core

__all__ = ["hide_flag_types"]


def hide_flag_types() -> None:
    """Make ``--help`` show no type for boolean flags (their presence is the value)."""
    option = typer.core.TyperOption
    if getattr(option, "_tenpai_flags_plain", False):
        return
    shown = option.display_type_rich

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_bool_flag", False):
            return None
        result: str | None = shown(self, ctx)
        return result

    option.display_type_rich = display_type_rich  # type: ignore[method-assign]
    option._tenpai_flags_plain = True  # type: ignore[attr-defined]

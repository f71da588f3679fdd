"""Reading a search setting from the environment: one ValueError line naming the variable.

The arena and the bot commands turn that line into exit code 2 before any game, so both
searches' settings (``$TENPAI_SEARCH_*``, ``$TENPAI_SEARCH_MCR_*``) read their variables here.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["env_value"]


def env_value(env: Mapping[str, str], prefix: str, name: str, default: object,
              conv: type) -> object:
    """``$prefix+name`` converted by ``conv`` (bool: 0/1/true/false/on/off), or ``default``
    when unset or empty."""
    raw = env.get(prefix + name)
    if raw is None or raw == "":
        return default
    try:
        if conv is bool:
            low = raw.strip().lower()
            if low not in ("0", "1", "true", "false", "on", "off"):
                raise ValueError(raw)
            return low in ("1", "true", "on")
        return conv(raw)
    except ValueError:
        raise ValueError(f"{prefix}{name}: cannot read {raw!r} as {conv.__name__}") from None

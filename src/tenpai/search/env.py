"""Search settings from the environment: one ValueError line naming the variable.

The arena and the bot commands turn that line into exit code 2 before any game, so the
searches' settings (``$TENPAI_SEARCH_*``, ``$TENPAI_SEARCH_MCR_*``, ``$TENPAI_MCTS_PG_*``) are
read here, field by field of their dataclass, and described here for the arena's record of who
played.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, get_type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["describe_settings", "env_value", "setting_names", "settings_from_env"]

_S = TypeVar("_S", bound="DataclassInstance")
#: The field types a variable can be read as.
_READABLE = (bool, int, float, str)
_UNSET = object()


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


def settings_from_env(cls: type[_S], prefix: str, env: Mapping[str, str] | None = None,
                      names: Mapping[str, str] | None = None) -> _S:
    """``cls`` with each field read from ``$prefix+NAME`` where that is set (NAME: the field's
    name in capitals, or ``names[field]``), as the field's type; the others keep their defaults.

    A value that cannot be read is a one-line ValueError naming the variable (:func:`env_value`);
    the dataclass's own checks then refuse a readable but bad value in the same way."""
    e = os.environ if env is None else env
    hints = get_type_hints(cls)
    given: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        conv = hints[f.name]
        if conv not in _READABLE:
            raise TypeError(f"{cls.__name__}.{f.name}: a {conv} cannot be read from a variable")
        name = names.get(f.name, f.name.upper()) if names else f.name.upper()
        value = env_value(e, prefix, name, _UNSET, conv)
        if value is not _UNSET:
            given[f.name] = value
    return cls(**given)


def setting_names(cls: type[DataclassInstance], names: Mapping[str, str] | None = None
                  ) -> tuple[str, ...]:
    """The variables (after the prefix) :func:`settings_from_env` reads for ``cls``, in field
    order: the names an agent spec may set for one seat (``search[CALL_OFFERS=1]``)."""
    return tuple((names or {}).get(f.name, f.name.upper()) for f in dataclasses.fields(cls))


def describe_settings(settings: DataclassInstance) -> str:
    """The settings that differ from the defaults (``a=1,b=x``, or ``defaults``): short enough
    for the arena's record of who played, and enough to tell two runs' agents apart."""
    base = dataclasses.asdict(type(settings)())
    diff = {k: v for k, v in dataclasses.asdict(settings).items() if base[k] != v}
    return ",".join(f"{k}={v}" for k, v in sorted(diff.items())) or "defaults"

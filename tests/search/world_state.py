"""Two worlds compared field by field: every attribute reachable from the round (hands, counts,
wall, events, furiten flags, pending decisions and their views of the table, scores, ...), and
which of its mutable parts are the same object (two copies must alias alike)."""

from __future__ import annotations

import dataclasses
import random
import types
from typing import Any

from tenpai.engine.meld import Meld
from tenpai.events import Event

__all__ = ["first_difference"]

_VALUES: tuple[type, ...] = (int, float, str, bytes, bool, type(None), complex, range, frozenset,
                             type, types.FunctionType, Event, Meld)


def _fields(x: Any) -> list[tuple[str, Any]]:
    """The attributes of an object with ``__dict__`` and/or ``__slots__``, in order."""
    out = list(getattr(x, "__dict__", {}).items())
    for k in type(x).__mro__:
        slots = k.__dict__.get("__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(x, name):
                out.append((name, getattr(x, name)))
    return out


def first_difference(a: object, b: object) -> str | None:
    """Where ``a`` and ``b`` first differ (a path and the two values), or None when every
    field is equal and their mutable parts alias alike."""
    pairs: dict[int, int] = {}
    back: dict[int, int] = {}
    stack: list[tuple[str, Any, Any]] = [("world", a, b)]
    while stack:
        path, x, y = stack.pop()
        if type(x) is not type(y):
            return f"{path}: {type(x).__name__} != {type(y).__name__}"
        if isinstance(x, _VALUES):
            if x != y:
                return f"{path}: {x!r} != {y!r}"
            continue
        if pairs.get(id(x), id(y)) != id(y) or back.get(id(y), id(x)) != id(x):
            return f"{path}: aliased differently"
        if id(x) in pairs:
            continue
        pairs[id(x)], back[id(y)] = id(y), id(x)
        if isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return f"{path}: {len(x)} items != {len(y)}"
            stack.extend((f"{path}[{i}]", u, v) for i, (u, v) in enumerate(zip(x, y)))
        elif isinstance(x, dict):
            if list(x) != list(y):
                return f"{path}: keys {list(x)} != {list(y)}"
            stack.extend((f"{path}[{k!r}]", x[k], y[k]) for k in x)
        elif isinstance(x, set):
            if x != y:
                return f"{path}: {sorted(x)} != {sorted(y)}"
        elif isinstance(x, random.Random):
            if x.getstate() != y.getstate():
                return f"{path}: generator states differ"
        elif isinstance(x, (types.MethodType, types.BuiltinMethodType)):
            if getattr(x, "__name__", None) != getattr(y, "__name__", None):
                return f"{path}: methods {x!r} != {y!r}"
            stack.append((f"{path}.__self__", x.__self__, y.__self__))
        elif dataclasses.is_dataclass(x) or hasattr(x, "__dict__") or hasattr(x, "__slots__"):
            fx, fy = _fields(x), _fields(y)
            if [k for k, _ in fx] != [k for k, _ in fy]:
                return f"{path}: fields {[k for k, _ in fx]} != {[k for k, _ in fy]}"
            stack.extend((f"{path}.{k}", u, v) for (k, u), (_j, v) in zip(fx, fy))
        elif x != y:
            return f"{path}: {x!r} != {y!r}"
    return None

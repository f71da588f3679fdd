"""Snapshot and restore of a game in progress: a cheap copy that can be stepped on its own.

Search with true transitions (the simulator-based variant of seed 000's Fig. 7b) needs to try an
action on a table and come back.  ``copy.deepcopy`` would do it, but it also copies every
immutable event of the record and every frozen rule object, which is most of the cost.  This
copier walks the game's object graph once and

* shares what cannot change: numbers, strings, frozen dataclasses (``Event``, ``Meld``, rule
  presets), tuples of those, functions (a ``wall_source`` closure is a pure function of the
  hand index);
* copies what can: lists, dicts, sets, and every other object with ``__dict__`` or
  ``__slots__`` (the round, its wall, the seeded generators), keeping shared references shared
  (the round's ``scores`` list stays one list);
* rebinds bound methods to the copies (the round's ``emit`` hook appends to the copied game's
  event list, not the original's), and so the pending ``Decision`` observations, lazy views of
  the table, point at the copied table.

It is generic over any rule set built on :class:`~tenpai.engine.table.TableRound` (tested on the
108-tile game and Riichi).  A frozen dataclass is shared when all its fields are.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from tenpai.engine.meld import Meld
from tenpai.events import Event

__all__ = ["Snapshot", "clone"]

G = TypeVar("G")

_ATOMS: frozenset[type] = frozenset(
    {int, float, bool, str, bytes, complex, type(None), range, types.FunctionType,
     type, frozenset}
)
_FROZEN: dict[type, bool] = {}
#: Types that copy themselves (``__snapshot__(self, memo, copy)``), cached per type: an object
#: holding state the generic copy cannot reach (a compiled table) rebuilds it.
_HOOKS: dict[type, Any] = {}
#: Record and table values the project never mutates (``Event.meta`` is written only when an
#: event is made), shared without looking inside.
_SHARED: set[type] = {Event, Meld}


def _is_frozen(t: type) -> bool:
    """Whether instances of ``t`` are values (a frozen dataclass), cached per type."""
    known = _FROZEN.get(t)
    if known is None:
        known = dataclasses.is_dataclass(t) and bool(t.__dataclass_params__.frozen)  # type: ignore[attr-defined]
        _FROZEN[t] = known
    return known


def _slot_names(t: type) -> list[str]:
    names: list[str] = []
    for k in t.__mro__:
        s = k.__dict__.get("__slots__", ())
        names.extend([s] if isinstance(s, str) else s)
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def _copy(v: Any, memo: dict[int, Any]) -> Any:
    t = type(v)
    if t in _ATOMS or t in _SHARED:
        return v
    i = id(v)
    done = memo.get(i)
    if done is not None:
        return done
    if t is list:
        out_list: list[Any] = []
        memo[i] = out_list
        out_list.extend([_copy(x, memo) for x in v])
        return out_list
    if t is tuple:
        items = tuple(_copy(x, memo) for x in v)
        same = all(a is b for a, b in zip(items, v))
        return v if same else items
    if t is dict:
        out_dict: dict[Any, Any] = {}
        memo[i] = out_dict
        for k, x in v.items():
            out_dict[k] = _copy(x, memo)
        return out_dict
    if t is set:
        out_set = set(v)
        memo[i] = out_set
        return out_set
    if t is types.MethodType:
        return types.MethodType(v.__func__, _copy(v.__self__, memo))
    if t is types.BuiltinMethodType:
        # ``events.append`` bound to a list (the round's emit hook): the copy's list instead.
        owner = v.__self__
        if owner is None or isinstance(owner, types.ModuleType):
            return v
        return getattr(_copy(owner, memo), v.__name__)
    if _is_frozen(t):
        # A frozen dataclass is shared unless one of its fields refers to something mutable
        # (a Decision's lazy observation view): then it is rebuilt around copies of those.
        fields = [(f.name, getattr(v, f.name)) for f in dataclasses.fields(v)]
        copied = [(k, _copy(x, memo)) for k, x in fields]
        if all(c is x for (_k, c), (_j, x) in zip(copied, fields)):
            memo[i] = v
            return v
        out_frozen = object.__new__(t)
        for k, c in copied:
            object.__setattr__(out_frozen, k, c)
        memo[i] = out_frozen
        return out_frozen
    hook = _HOOKS.get(t, _HOOKS)
    if hook is _HOOKS:
        hook = _HOOKS[t] = getattr(t, "__snapshot__", None)
    if hook is not None:
        return hook(v, memo, _copy)
    out = object.__new__(t)
    memo[i] = out
    d = getattr(v, "__dict__", None)
    if d is not None:
        out.__dict__.update({k: _copy(x, memo) for k, x in d.items()})
    for name in _slot_names(t):
        if hasattr(v, name):
            object.__setattr__(out, name, _copy(getattr(v, name), memo))
    return out


def clone(game: G, substitute: Mapping[int, Any] | None = None) -> G:
    """An independent copy of ``game`` (any game flow or table round): stepping either one
    never changes the other.  ``substitute`` maps ``id(obj)`` of objects inside ``game`` to
    what the copy holds instead of a copy of them (a search replacing a part it must not
    copy, such as a wall that draws from a protocol's state); ``None`` cannot be a substitute."""
    return _copy(game, dict(substitute) if substitute else {})  # type: ignore[no-any-return]


class Snapshot(Generic[G]):
    """The state of a game at one moment; :meth:`restore` gives a fresh playable copy each
    time, so one snapshot can be restored many times (one per search simulation)."""

    __slots__ = ("_frozen",)

    def __init__(self, game: G) -> None:
        self._frozen = clone(game)

    @classmethod
    def take(cls, game: G) -> Snapshot[G]:
        return cls(game)

    def restore(self) -> G:
        """A new game in the saved state (the snapshot itself is never stepped)."""
        return clone(self._frozen)

"""Fixed discrete action spaces: one integer id per distinct legal :class:`Event` of a rule set.

Networks want a fixed-size output; the engines offer a list of events.  An :class:`ActionSpace`
is the bijection between the two for one rule set.  The id of an event depends only on the
event itself (never on which seat plays it or on what else is legal), so a policy's output unit
always means the same thing, and the engine's legal list turns into a mask.

The layout is built from a few rule features (which tiles can be discarded, whether red fives,
riichi or the nine-terminal draw exist) in fixed block order; docs/env.md lists every block.
Ids never change within a version of an environment: a change is a new ``_vN`` module.

Distinctions the engines make and the ids keep:

* a discard from the hand (*tedashi*) and the discard of the tile just drawn (*tsumogiri*) are
  two ids even for the same tile, because the engine offers both when the drawn tile's kind is
  also in hand, and they differ in what the other players learn;
* a red five is its own tile code (34-36), so discarding ``0m`` and ``5m`` are two ids;
* calls that use a red five from one's hand (a chi with ``0m``, a pon with ``0m``) have their
  own ids, because the engine offers both versions when both are possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event

__all__ = [
    "MCR_ACTIONS",
    "RIICHI_ACTIONS",
    "SUITS108_ACTIONS",
    "ActionSpace",
    "ActionSpaceError",
    "IllegalActionIdError",
    "Key",
]

#: An action's identity: the event type followed by what distinguishes one event from another.
Key = tuple[str | int, ...]

_RUN_STARTS: Final = 7  # runs 123 … 789 per suit


class ActionSpaceError(ValueError):
    """An event that has no id in this action space (wrong rule set, malformed call)."""


class IllegalActionIdError(ValueError):
    """An action id that is not among the legal actions; the message lists the legal ids."""

    def __init__(self, action: int, legal: dict[int, Event], space: ActionSpace) -> None:
        shown = ", ".join(f"{i} ({space.describe(i)})" for i in sorted(legal)[:16])
        more = " …" if len(legal) > 16 else ""
        what = space.describe(action) if 0 <= action < space.n else "out of range"
        super().__init__(
            f"action {action} ({what}) is not legal now in {space.name}; legal: {shown}{more}"
        )
        self.action = action
        self.legal_ids = tuple(sorted(legal))


def _run_of(called: int, consumed: Sequence[int]) -> tuple[int, int]:
    """(run index 0-20, position 0-2 of the called tile) of a chi; raises on a non-run."""
    kinds = sorted([T.kind_of(called), *(T.kind_of(c) for c in consumed)])
    if len(kinds) != 3 or kinds[0] >= 27 or kinds[2] >= 27:
        raise ActionSpaceError(f"a chi needs three suited tiles, got {kinds}")
    low = kinds[0]
    if kinds != [low, low + 1, low + 2] or low % 9 > 6:
        raise ActionSpaceError(f"chi tiles {kinds} do not form a run")
    return (low // 9) * _RUN_STARTS + low % 9, T.kind_of(called) - low


def _run_name(run: int, pos: int) -> str:
    suit, start = divmod(run, _RUN_STARTS)
    letter = "mps"[suit]
    digits = "".join(str(start + 1 + i) for i in range(3))
    return f"{digits}{letter} calling {start + 1 + pos}{letter}"


@dataclass(frozen=True)
class ActionSpace:
    """The ids of one rule set's actions; see the module docstring for what is distinguished.

    ``discard_tiles`` are the tile codes that can be discarded, ``meld_kinds`` the kinds that can
    be called or kanned (chi runs are the suited runs among them).  ``red`` adds the red-five
    variants of chi and pon, ``riichi`` the ``reach`` id (Riichi's riichi, suits108's ready
    declaration), ``nine_terminals`` the abortive draw.
    """

    name: str
    discard_tiles: tuple[int, ...]
    meld_kinds: tuple[int, ...]
    red: bool = False
    riichi: bool = False
    nine_terminals: bool = False
    keys: tuple[Key, ...] = field(init=False)
    _index: dict[Key, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys: list[Key] = []
        keys += [("dahai", t, 0) for t in self.discard_tiles]
        keys += [("dahai", t, 1) for t in self.discard_tiles]
        runs = sorted({(k // 9) * _RUN_STARTS + k % 9 for k in self.meld_kinds
                       if k < 27 and k % 9 <= 6 and k + 2 in self.meld_kinds})
        keys += [("chi", r, p, 0) for r in runs for p in range(3)]
        if self.red:
            # A red five from hand can only be used when the run holds a five that is not the
            # called tile: runs starting at 3, 4 or 5 (indices 2-4), two positions each.
            keys += [("chi", r, p, 1) for r in runs for p in range(3)
                     if 2 <= r % _RUN_STARTS <= 4 and r % _RUN_STARTS + p != 4]
        keys += [("pon", k, 0) for k in self.meld_kinds]
        if self.red:
            keys += [("pon", k, 1) for k in self.meld_kinds if k in (4, 13, 22)]
        for kan in ("daiminkan", "ankan", "kakan"):
            keys += [(kan, k) for k in self.meld_kinds]
        if self.riichi:
            keys.append(("reach",))
        keys += [("tsumo",), ("ron",)]
        if self.nine_terminals:
            keys.append(("nine_terminals",))
        keys.append(("none",))
        object.__setattr__(self, "keys", tuple(keys))
        object.__setattr__(self, "_index", {k: i for i, k in enumerate(keys)})

    @property
    def n(self) -> int:
        """The number of ids (the size of the ``Discrete`` space and of the mask)."""
        return len(self.keys)

    # ------------------------------------------------------------------ events → ids
    def key_of(self, e: Event) -> Key:
        """What identifies ``e`` among the actions (raises ActionSpaceError when nothing can)."""
        t = e.type
        if t == "dahai":
            return ("dahai", self._tile(e), 1 if e.tsumogiri else 0)
        if t == "chi":
            run, pos = _run_of(self._tile(e), e.consumed)
            return ("chi", run, pos, int(any(T.is_red(c) for c in e.consumed)))
        if t == "pon":
            return ("pon", T.kind_of(self._tile(e)), int(any(T.is_red(c) for c in e.consumed)))
        if t in ("daiminkan", "kakan"):
            return (t, T.kind_of(self._tile(e)))
        if t == "ankan":
            if not e.consumed:
                raise ActionSpaceError(f"an ankan without its tiles: {e.to_mjai()}")
            return ("ankan", T.kind_of(e.consumed[0]))
        if t == "hora":
            return ("tsumo",) if e.target is not None and e.target == e.actor else ("ron",)
        if t == "ryukyoku" and e.kind == "nine_terminals":
            return ("nine_terminals",)
        if t in ("reach", "none"):
            return (t,)
        raise ActionSpaceError(f"{t} is not an action an agent chooses: {e.to_mjai()}")

    @staticmethod
    def _tile(e: Event) -> int:
        if e.pai is None:
            raise ActionSpaceError(f"{e.type} without a tile: {e.to_mjai()}")
        return e.pai

    def event_to_action(self, e: Event) -> int:
        """The id of a legal event; ActionSpaceError when this rule set has no such action."""
        key = self.key_of(e)
        try:
            return self._index[key]
        except KeyError:
            raise ActionSpaceError(
                f"{self.name} has no action for {e.to_mjai()} (key {key})"
            ) from None

    def legal_ids(self, legal: Iterable[Event]) -> dict[int, Event]:
        """Each legal event under its id.  Two events on one id would make the space ambiguous,
        so that raises instead of silently keeping one of them."""
        out: dict[int, Event] = {}
        for e in legal:
            i = self.event_to_action(e)
            if i in out and out[i] != e:
                raise ActionSpaceError(
                    f"{self.name}: {out[i].to_mjai()} and {e.to_mjai()} share action id {i}"
                )
            out[i] = e
        return out

    def mask(self, legal: Iterable[Event]) -> np.ndarray:
        """The ``int8`` mask of the legal ids (1 = legal), as PettingZoo's classic envs use."""
        m = np.zeros(self.n, dtype=np.int8)
        for i in self.legal_ids(legal):
            m[i] = 1
        return m

    # ------------------------------------------------------------------ ids → events
    def action_to_event(self, legal: Sequence[Event], action: int) -> Event:
        """The legal event with id ``action``; IllegalActionIdError (naming the legal ids) if
        none has it."""
        ids = self.legal_ids(legal)
        a = int(action)
        if a not in ids:
            raise IllegalActionIdError(a, ids, self)
        return ids[a]

    # ------------------------------------------------------------------ documentation
    def describe(self, action: int) -> str:
        """A short human name of an id, e.g. ``tsumogiri 5mr`` or ``chi 345m calling 3m``."""
        key = self.keys[action]
        kind = key[0]
        if kind == "dahai":
            tile = T.to_mjai(int(key[1]))
            return f"tsumogiri {tile}" if key[2] else f"discard {tile}"
        if kind == "chi":
            red = " with red five" if key[3] else ""
            return f"chi {_run_name(int(key[1]), int(key[2]))}{red}"
        if kind == "pon":
            return f"pon {T.to_mjai(int(key[1]))}" + (" with red five" if key[2] else "")
        if kind in ("daiminkan", "ankan", "kakan"):
            return f"{kind} {T.to_mjai(int(key[1]))}"
        return {
            "reach": "riichi" if self.name.startswith("riichi") else "declare ready",
            "tsumo": "tsumo (win on own draw)",
            "ron": "ron (win on another's tile)",
            "nine_terminals": "abortive draw: nine terminals",
            "none": "pass",
        }[str(kind)]

    def blocks(self) -> list[tuple[str, int, int]]:
        """(block name, first id, last id) in id order, for docs/env.md and ``describe``."""
        out: list[tuple[str, int, int]] = []
        for i, key in enumerate(self.keys):
            name = _block_name(key)
            if out and out[-1][0] == name:
                out[-1] = (name, out[-1][1], i)
            else:
                out.append((name, i, i))
        return out


def _block_name(key: Key) -> str:
    kind = str(key[0])
    if kind == "dahai":
        return "tsumogiri" if key[2] else "discard"
    if kind == "chi":
        return "chi with red five" if key[3] else "chi"
    if kind == "pon":
        return "pon with red five" if key[2] else "pon"
    return kind


#: Riichi: 37 tile codes (red fives 34-36 apart), red-five call variants, riichi, nine terminals.
RIICHI_ACTIONS: Final = ActionSpace(
    "riichi_v0",
    discard_tiles=tuple(range(37)),
    meld_kinds=tuple(range(34)),
    red=True,
    riichi=True,
    nine_terminals=True,
)
#: MCR: 34 kinds, no red fives, no riichi (flowers are set aside by the engine, not chosen).
MCR_ACTIONS: Final = ActionSpace("mcr_v0", tuple(range(34)), tuple(range(34)))
#: suits108: the 27 suited kinds; ``reach`` is the ready declaration.
SUITS108_ACTIONS: Final = ActionSpace(
    "suits108_v0", tuple(range(27)), tuple(range(27)), riichi=True
)

"""What a Riichi table proves about a player's winning tiles, from public events alone.

Furiten makes Riichi safety a rule, not a guess.  A player can never ron a tile whose kind
is in its own river, and ``RiichiRound`` counts every discard it made there (a discard someone
called stays in ``rivers``, flagged in ``river_called``), as real rules do.  A player that lets
a winning tile go by (a discard, or a tile set into an added kan or set aside as a North, whose
rob window closed without its win) may not ron until its own next discard, and after its riichi
never again.  So, whatever the player *wanted* to do, a kind it passed cannot be a ron for it
now: either the kind is not one of its waits or it is furiten.  This holds whether or not a
player takes every win it is offered (the 108-tile :func:`~tenpai.rules.suits108.safety.
passed_kinds` has to assume it does, having no furiten).

A closed kan's tile is left out: only a ready thirteen-orphans hand may rob it, so passing it
says nothing about anyone else's waits.

Readers: the Riichi search's safety planes (:func:`tenpai.mcts.features_riichi.
safety_planes_riichi`); it lives here, below them, so that rule-based players may share it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["safe_kinds"]

#: Events that offer the others a tile to ron: a discard, an added kan, a North set aside.
_OFFERS = frozenset({"dahai", "kakan", "nukidora"})


def _closed_without_win(events: Sequence[Event], i: int) -> bool:
    """Whether the window to win on ``events[i]``'s tile closed with nobody winning: some
    later event (implicit passes aside) follows, and it is not a win."""
    for e in events[i + 1 :]:
        if e.type != "none":
            return e.type != "hora"
    return False  # the window is still open


def safe_kinds(events: Sequence[Event], seat: int) -> set[int]:
    """Kinds ``seat`` certainly cannot win on by ron now (see the module docstring): every kind
    it discarded, every kind offered by another player and passed since its last discard, and
    from its riichi discard on, every kind passed at all."""
    river: set[int] = set()  # permanent: own discards, and passes once in riichi
    passed: set[int] = set()  # since its last discard (temporary furiten)
    declaring = in_riichi = False
    for i, e in enumerate(events):
        t = e.type
        if t == "start_kyoku":
            river.clear()
            passed.clear()
            declaring = in_riichi = False
        elif t == "reach":
            if e.actor == seat:
                declaring = True
        elif t in _OFFERS and e.pai is not None:
            kind = T.kind_of(e.pai)
            if e.actor == seat:
                if t == "dahai":
                    river.add(kind)
                    passed.clear()
                    in_riichi = in_riichi or declaring
            elif _closed_without_win(events, i):
                (river if in_riichi else passed).add(kind)
    return river | passed

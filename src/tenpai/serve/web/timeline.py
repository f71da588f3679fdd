"""A game hand by hand, as a review page lists it: who won or dealt in, each player's change.

Review pages people trust (mjai-reviewer's among them) open with the game's shape before any
single decision: one line per hand, the result in words and the points that moved, so a
reader can go straight to the hand that cost the game.  This module builds those lines from
the event stream the review followed; each hand also carries its tenhou.net/6 link when the
caller has one, so the same moment opens in the viewer players know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tenpai.events import Event
from tenpai.serve.web.labels import round_label, seat_labels

__all__ = ["HandKey", "hand_key", "hand_of_events", "hand_timeline"]

#: A hand's place in its game: (round wind, hand number, honba), unique within a game.
HandKey = tuple[int, int, int]

_DRAWS = {
    "exhaustive": "no tiles left", "kyushukyuhai": "nine terminals", "suufonrenda": "four winds",
    "suuchariichi": "four riichi", "suukaikan": "four kans", "sanchahou": "three ron",
    "triple_ron": "three ron", "nagashi_mangan": "nagashi mangan",
}


def hand_key(start: Event) -> HandKey:
    """The key of the hand a ``start_kyoku`` opens."""
    return (start.bakaze or 0, start.kyoku or 0, start.honba or 0)


def hand_of_events(stream: Sequence[Event]) -> list[int]:
    """For each event, the index of the hand it belongs to (-1 before the first deal)."""
    out = []
    hand = -1
    for e in stream:
        if e.type == "start_kyoku":
            hand += 1
        out.append(hand)
    return out


def _who(order: list[int], labels: list[str], position: int | None) -> str:
    """The label of the player at table ``position`` in a hand seated as ``order``."""
    player = order[position] if position is not None and position < len(order) else -1
    return labels[player] if 0 <= player < len(labels) else f"seat {position}"


def _points(n: int) -> str:
    return f"{n:+,}"


def hand_timeline(
    stream: Sequence[Event], names: Sequence[str], links: Mapping[HandKey, str] | None = None
) -> list[dict[str, Any]]:
    """One entry per hand of ``stream``: its name, where it starts, the result in words, each
    player's change (by player, not table position) and its tenhou.net/6 link if known."""
    labels = seat_labels(list(names))
    hands: list[dict[str, Any]] = []
    order: list[int] = []
    for j, e in enumerate(stream):
        if e.type == "start_kyoku":
            n = len(e.scores) if e.scores else len(labels)
            seating = (e.meta or {}).get("seating")
            order = [int(p) for p in seating] if seating else list(range(n))
            hands.append({
                "hand": len(hands),
                "event": j,
                "round": round_label(e.bakaze or 0, e.kyoku or 0, e.honba or 0),
                "results": [],
                "change": [0] * len(labels),
                "link": (links or {}).get(hand_key(e)),
            })
            continue
        if not hands or e.type not in ("hora", "ryukyoku"):
            continue
        cur = hands[-1]

        def who(position: int | None, order: list[int] = order) -> str:
            return _who(order, labels, position)

        for position, d in enumerate(e.deltas):
            if position < len(order) and order[position] < len(labels):
                cur["change"][order[position]] += d
        if e.type == "hora":
            gain = e.deltas[e.actor or 0] if e.deltas else 0
            if e.actor == e.target:
                text = f"{who(e.actor)} wins by tsumo"
            else:
                text = f"{who(e.target)} deals in to {who(e.actor)}"
            cur["results"].append({
                "type": "win", "text": text + (f" ({_points(gain)})" if gain else ""),
                "winner": order[e.actor or 0] if order else e.actor,
                "from": None if e.actor == e.target else (order[e.target or 0] if order
                                                          else e.target),
            })
        else:
            kind = e.kind or "exhaustive"
            cur["results"].append({"type": "draw", "text": f"draw: {_DRAWS.get(kind, kind)}",
                                   "winner": None, "from": None})
    return hands

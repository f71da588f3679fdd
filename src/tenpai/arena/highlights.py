"""The biggest wins and the worst deal-ins of a run, with the command that shows each hand.

A run's averages say who is better; these few hands say what it looked like.  Each is a hand
of a stored game; when the run's records were saved (``--save-records``) the hand gets a
``tenpai view`` command printing its tenhou.net/6 viewer link (``tenpai view`` prints one link
per round, so the command picks the hand's line).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ResultsStore

__all__ = ["Highlight", "Highlights", "find_highlights", "view_command"]

_WINDS = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class Highlight:
    """One hand: ``agent`` won (or dealt in) ``points``; ``other`` is the discarder of a ron
    win, or the winner a deal-in paid (``None`` for a self-draw)."""

    agent: str
    points: int
    key: GameKey
    hand: int
    bakaze: int
    kyoku: int
    honba: int
    han: int | None
    fu: int | None
    other: str | None

    @property
    def label(self) -> str:
        """``East 2, 1 honba`` (the round as players name it)."""
        wind = _WINDS[self.bakaze] if 0 <= self.bakaze < 4 else f"wind {self.bakaze}"
        honba = f", {self.honba} honba" if self.honba else ""
        return f"{wind} {self.kyoku + 1}{honba}"

    def as_dict(self, view: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agent": self.agent, "points": self.points, "deal": self.key.deal,
            "rotation": self.key.rotation, "hand": self.hand, "round": self.label,
            "han": self.han, "fu": self.fu, "other": self.other,
        }
        if view is not None:
            out["view"] = view
        return out


@dataclass(frozen=True, slots=True)
class Highlights:
    biggest_wins: tuple[Highlight, ...]
    worst_deal_ins: tuple[Highlight, ...]


_WINS_SQL = """
SELECT w.deal, w.rotation, w.hand, w.points, w.han, w.fu, r.bakaze, r.kyoku, r.honba,
       s.agent, d.agent
FROM wins w
JOIN rounds r ON r.deal = w.deal AND r.rotation = w.rotation AND r.hand = w.hand
JOIN seats s ON s.deal = w.deal AND s.rotation = w.rotation AND s.seat = w.winner
LEFT JOIN seats d ON d.deal = w.deal AND d.rotation = w.rotation AND d.seat = w.from_seat
ORDER BY w.points DESC, w.deal, w.rotation, w.hand
LIMIT ?
"""

# The discarder's loss is its own point change in the hand (a double ron pays both winners).
_DEAL_INS_SQL = """
SELECT r.deal, r.rotation, r.hand,
       -(CASE r.deal_in WHEN 0 THEN r.delta0 WHEN 1 THEN r.delta1 WHEN 2 THEN r.delta2
         ELSE r.delta3 END) AS lost,
       w.han, w.fu, r.bakaze, r.kyoku, r.honba, s.agent, v.agent
FROM rounds r
JOIN seats s ON s.deal = r.deal AND s.rotation = r.rotation AND s.seat = r.deal_in
JOIN wins w ON w.deal = r.deal AND w.rotation = r.rotation AND w.hand = r.hand
    AND w.from_seat = r.deal_in
JOIN seats v ON v.deal = r.deal AND v.rotation = r.rotation AND v.seat = w.winner
WHERE r.deal_in IS NOT NULL
GROUP BY r.deal, r.rotation, r.hand
ORDER BY lost DESC, r.deal, r.rotation, r.hand
LIMIT ?
"""


def _rows(store: ResultsStore, sql: str, n: int) -> tuple[Highlight, ...]:
    out = []
    for deal, rot, hand, pts, han, fu, bakaze, kyoku, honba, agent, other in store.query(
        sql, (n,)
    ):
        out.append(Highlight(agent, int(pts), GameKey(deal, rot), hand, bakaze, kyoku, honba,
                             han, fu, other))
    return tuple(out)


def find_highlights(store: ResultsStore, n: int = 5) -> Highlights:
    """The ``n`` wins with the most points and the ``n`` deal-ins that cost the most."""
    return Highlights(_rows(store, _WINS_SQL, n), _rows(store, _DEAL_INS_SQL, n))


def view_command(h: Highlight, record: Path) -> str:
    """The shell command printing the viewer link of ``h``'s hand in its game's record."""
    return f"tenpai view --bare {shlex.quote(str(record))} | sed -n {h.hand + 1}p"

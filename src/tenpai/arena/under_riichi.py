"""How each agent plays while another seat has declared riichi: the visible part of defence.

Average rank says who is better; it does not say *why*.  Policy-gradient runs, for one, keep
the win rate of their start yet deal in more, and the question is whether they stopped
folding.  A discard is *threatened* when another seat's riichi has been accepted and the
discarder has none of its own.  Of those discards we count

* **breaks**: the discard leaves the closed hand further from winning (higher shanten) than it
  was after the seat's previous discard.  A player who folds gives up tiles of its hand to
  discard safe ones, so breaks are what folding looks like from outside (a fold that happens to
  keep the shanten is not seen; a hand broken for speed is counted, which is rare under
  riichi);
* **deal-ins**: the threatened discard was won on by ron.

Read from the events every stored game keeps (Riichi rule sets only: the others have no
riichi).  A game stored without events is skipped and counted.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

from tenpai.arena.schedule import GameKey
from tenpai.arena.store import ResultsStore
from tenpai.events import Event
from tenpai.hand.shanten import shanten
from tenpai.tiles import kind_of

__all__ = ["UnderRiichi", "tally_game", "under_riichi"]

_CALLS = ("chi", "pon", "daiminkan", "ankan")


@dataclass(slots=True)
class UnderRiichi:
    """One agent's discards, and those made under another seat's riichi."""

    agent: str
    discards: int = 0
    threatened: int = 0
    breaks: int = 0
    deal_ins: int = 0

    def as_dict(self) -> dict[str, Any]:
        def share(n: int) -> float | None:
            return n / self.threatened if self.threatened else None

        return {
            "agent": self.agent, "discards": self.discards, "threatened": self.threatened,
            "breaks": self.breaks, "deal_ins": self.deal_ins,
            "break_rate": share(self.breaks), "deal_in_rate": share(self.deal_ins),
        }


class _Hand:
    """The table state the count needs: closed kinds, shanten after the last discard, riichi."""

    def __init__(self) -> None:
        self.closed = [[0] * 34 for _ in range(4)]
        self.before = [0] * 4
        self.riichi: set[int] = set()
        self.declared: set[int] = set()
        #: The last threatened discard (seat, agent's stats) not yet known to be safe.
        self.open_threat: UnderRiichi | None = None

    def start(self, e: Event) -> None:
        for seat, tiles in enumerate(e.tehais):
            for tile in tiles or ():
                self.closed[seat][kind_of(tile)] += 1
        self.before = [shanten(tuple(c)) for c in self.closed]


def tally_game(lines: list[str], seats: dict[int, UnderRiichi]) -> None:
    """Add one game's counts (its mjai lines) to ``seats``' agents (seat -> that agent's
    tally; two seats of one agent share a tally)."""
    hand = _Hand()
    for line in lines:
        e = Event.from_mjai(json.loads(line))
        if e.type == "start_kyoku":
            hand = _Hand()
            hand.start(e)
            continue
        actor = e.actor
        if actor is None:
            continue
        if e.type == "hora" and e.target is not None and e.target != actor:
            if hand.open_threat is not None and e.target in seats:
                hand.open_threat.deal_ins += 1
                hand.open_threat = None  # a double ron is one deal-in
            continue
        hand.open_threat = None
        if e.type == "tsumo" and e.pai is not None:
            hand.closed[actor][kind_of(e.pai)] += 1
        elif e.type == "dahai" and e.pai is not None:
            hand.closed[actor][kind_of(e.pai)] -= 1
            after = shanten(tuple(hand.closed[actor]))
            stats = seats[actor]
            stats.discards += 1
            if hand.riichi - {actor} and actor not in hand.riichi | hand.declared:
                stats.threatened += 1
                stats.breaks += after > hand.before[actor]
                hand.open_threat = stats
            hand.before[actor] = after
        elif e.type == "reach":
            hand.declared.add(actor)
        elif e.type == "reach_accepted":
            hand.declared.discard(actor)
            hand.riichi.add(actor)
        elif e.type in _CALLS:
            for tile in e.consumed:
                hand.closed[actor][kind_of(tile)] -= 1
        elif e.type == "kakan" and e.pai is not None:
            hand.closed[actor][kind_of(e.pai)] -= 1


def under_riichi(
    store: ResultsStore, into: dict[str, UnderRiichi] | None = None
) -> tuple[list[UnderRiichi], int]:
    """Each agent's counts (in order of first appearance) and the number of stored games that
    kept no events (skipped).  Empty for rule sets without riichi.  ``into`` adds this run's
    counts to those of earlier runs (pooled runs)."""
    out: dict[str, UnderRiichi] = {} if into is None else into
    cfg = store.config()
    if cfg is None or cfg.rules != "riichi":
        return list(out.values()), 0
    by_game: dict[tuple[int, int], dict[int, str]] = {}
    for row in store.seat_rows():
        by_game.setdefault((row.deal, row.rotation), {})[row.seat] = row.agent
    skipped = 0
    for (deal, rotation), agents in sorted(by_game.items()):
        data = store.game_events(GameKey(deal, rotation))
        if data is None:
            skipped += 1
            continue
        seats = {s: out.setdefault(a, UnderRiichi(a)) for s, a in agents.items()}
        tally_game(zlib.decompress(data).decode("utf-8").splitlines(), seats)
    return list(out.values()), skipped

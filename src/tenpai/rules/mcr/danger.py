"""Reading the danger of a discard at an MCR table from what is visible.

MCR has no riichi: nobody announces a ready hand, and there is no furiten.  What a player can
still read is:

* **how close each opponent is**: its sets on the table (three or four melds leave four or one
  concealed tiles, close to ready) and how far the hand has gone (its own discards so far).
  :func:`ready_probability` turns the two into an estimate of the chance it is ready with a
  win worth the 8-fan minimum, from :data:`READY_TABLE`;
* **tiles it cannot win on**: every tile discarded *after the opponent's last discard* that
  it let pass.  Its concealed hand has not changed since, and a player that can declare a win
  does (a win needs 8 fans, so a passed tile is at least one that would not reach them); the
  tile is safe against that opponent until it discards again;
* **the shapes a tile completes**: a number tile finishes two-sided, closed and edge waits of
  its neighbours and pair waits on itself; an honour only pair waits.  A shape is impossible
  when the copies it needs are all in sight (the player's own hand included), and less likely
  the fewer copies are unseen (:func:`wait_weight`);
* **the opponent's own discards**: without furiten they are not safe, but a player that threw
  a tile away rarely waits on it (:data:`OWN_DISCARD_FACTOR`).

:func:`deal_in_probability` combines them into the chance that discarding a kind now deals
in, summed over the opponents.  The agent (``tenpai.agents.planner``) weighs that against
what the discard keeps of its own hand.  The figures are deliberately simple; the arena
measures whether they help (docs/mcr_strength.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event

__all__ = [
    "OWN_DISCARD_FACTOR",
    "READY_TABLE",
    "WAIT_SCALE",
    "DangerError",
    "OpponentReading",
    "deal_in_probability",
    "read_opponents",
    "ready_probability",
    "wait_weight",
]

#: Chance that an opponent is ready with a win of 8 fans or more, by the sets it shows on the
#: table (0-4) and its own discards so far (columns: 0-2, 3-5, 6-8, 9-11, 12 or more).  Rows
#: 0-2 are the rates measured against the shanten-greedy Botzone bot on development walls
#: (``python -m tenpai.bench.mcr_danger_calibration``, docs/mcr_strength_runs.md), rounded and
#: made non-decreasing along the hand; rows 3-4 had too few cases (three melds: none ready
#: in 41) and are judgement.  The rows are not ordered by melds: a concealed hand reaches 8
#: fans through seven pairs and concealed fans, while a greedy hand with calls is usually
#: ready below 8, a hand it cannot declare.
READY_TABLE: tuple[tuple[float, ...], ...] = (
    (0.00, 0.00, 0.03, 0.17, 0.24),
    (0.00, 0.00, 0.03, 0.11, 0.11),
    (0.00, 0.00, 0.13, 0.17, 0.17),
    (0.05, 0.10, 0.15, 0.15, 0.15),
    (0.20, 0.25, 0.30, 0.30, 0.30),
)
#: Discards per row of :data:`READY_TABLE`.
_STAGE = 3
#: Probability that a ready hand wins on a kind, per unit of :func:`wait_weight`.
WAIT_SCALE = 0.06
#: A kind the opponent discarded itself is this much less likely to be its wait.
OWN_DISCARD_FACTOR = 0.1

#: Weights of the wait shapes through a tile (before the copies they need are counted).
_TWO_SIDED = 1.0
_CLOSED = 0.5
_EDGE = 0.5
_PAIR = 0.6
_SINGLE = 0.3


class DangerError(ValueError):
    """A table the danger reading cannot read (a seat out of range, counts of the wrong size)."""


@dataclass(frozen=True, slots=True)
class OpponentReading:
    """What the table shows of one opponent's hand."""

    seat: int
    #: Sets on the table (concealed kongs included).
    melds: int
    #: Tiles it has discarded this hand.
    discards: int
    #: Kinds discarded (by anyone) since its last discard that it let pass: safe against it.
    passed: frozenset[int]
    #: Kinds it has discarded itself this hand.
    own_discards: frozenset[int]

    @property
    def ready(self) -> float:
        return ready_probability(self.melds, self.discards)


def ready_probability(melds: int, discards: int) -> float:
    """The :data:`READY_TABLE` estimate for an opponent showing ``melds`` sets after
    ``discards`` discards."""
    row = READY_TABLE[max(0, min(melds, len(READY_TABLE) - 1))]
    return row[max(0, min(discards // _STAGE, len(row) - 1))]


def read_opponents(seat: int, events: Sequence[Event]) -> list[OpponentReading]:
    """The three other seats as the events of the current hand show them to ``seat``.

    Only public events are read (discards, calls, kongs, wins offered and passed are not
    events), so a masked observation's event list is enough.
    """
    if not 0 <= seat <= 3:
        raise DangerError(f"read_opponents: seat must be 0-3, got {seat}")
    start = 0
    for i, e in enumerate(events):
        if e.type == "start_kyoku":
            start = i + 1
    melds = [0, 0, 0, 0]
    discards = [0, 0, 0, 0]
    own: list[set[int]] = [set(), set(), set(), set()]
    passed: list[set[int]] = [set(), set(), set(), set()]
    for e in events[start:]:
        a = e.actor
        if a is None or not 0 <= a <= 3:
            continue
        if e.type == "dahai" and e.pai is not None:
            k = T.kind_of(e.pai)
            discards[a] += 1
            own[a].add(k)
            passed[a] = set()
            for o in range(4):
                if o != a:
                    passed[o].add(k)
        elif e.type in ("chi", "pon", "daiminkan", "ankan"):
            melds[a] += 1
        elif e.type == "kakan" and e.pai is not None:
            # a promoted kong can be robbed: a tile it shows that nobody robbed is passed
            for o in range(4):
                if o != a:
                    passed[o].add(T.kind_of(e.pai))
    return [
        OpponentReading(o, melds[o], discards[o], frozenset(passed[o]), frozenset(own[o]))
        for o in range(4) if o != seat
    ]


def _unseen(kind: int, unseen: Sequence[int]) -> float:
    """Share of a kind's four copies the reader cannot see (its own hand counts as seen)."""
    return max(0, unseen[kind]) / 4.0


def wait_weight(kind: int, unseen: Sequence[int]) -> float:
    """How many (weighted) ready shapes of an unknown hand win on ``kind``, given the copies
    of each kind the reader has not seen (``unseen``: 34 counts, 4 minus its own hand, the
    rivers and the melds; the tile about to be discarded still counted as its own).

    A shape needs its held tiles among the unseen copies: each held tile counts with the share
    of its kind still unseen, so a wall of four visible copies (or three, a pair wait needing
    two) rules the shape out.
    """
    if len(unseen) != 34:
        raise DangerError(f"wait_weight: unseen must have 34 counts, got {len(unseen)}")
    u = _unseen
    w = _PAIR * min(1.0, max(0, unseen[kind] - 1) / 2.0) * u(kind, unseen)
    w += _SINGLE * u(kind, unseen)
    if kind >= 27:
        return w
    n = kind % 9
    if n >= 2:       # k-2, k-1 held (12 waiting on 3 is the edge wait)
        w += (_EDGE if n == 2 else _TWO_SIDED) * u(kind - 2, unseen) * u(kind - 1, unseen)
    if n <= 6:       # k+1, k+2 held (89 waiting on 7 is the edge wait)
        w += (_EDGE if n == 6 else _TWO_SIDED) * u(kind + 1, unseen) * u(kind + 2, unseen)
    if 1 <= n <= 7:  # k-1, k+1 held: the closed wait
        w += _CLOSED * u(kind - 1, unseen) * u(kind + 1, unseen)
    return w


def deal_in_probability(
    kind: int, opponents: Sequence[OpponentReading], unseen: Sequence[int]
) -> float:
    """The estimated chance that discarding ``kind`` now lets one of ``opponents`` win
    (summed over them: small numbers, so the sum stands for the union)."""
    if not 0 <= kind < 34:
        raise DangerError(f"deal_in_probability: kind must be 0-33, got {kind}")
    base = wait_weight(kind, unseen) * WAIT_SCALE
    total = 0.0
    for o in opponents:
        if kind in o.passed:
            continue
        p = o.ready * base
        if kind in o.own_discards:
            p *= OWN_DISCARD_FACTOR
        total += p
    return min(1.0, total)

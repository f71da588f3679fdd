"""An observation of one seat rebuilt from a record, for ``tenpai explain``.

The MDP player reads only a seat's own hand, its melds and the masked event stream, so a
decision in a record can be explained without re-driving the engine: the events up to the
seat's draw are masked as the engine masks them, and the legal actions of that turn are
listed (every distinct discard, riichi when the closed hand is ready after some discard, a
self-drawn win when the hand is complete).  Call decisions are not offered here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.hand import is_complete, shanten

__all__ = ["RecordTurn", "find_turn", "iter_turns", "round_label"]


def round_label(start: Event) -> str:
    """E1, E2 … S4 (with "-h" for h honba when there are any)."""
    label = f"{'ESWN'[start.bakaze or 0]}{(start.kyoku or 0) + 1}"
    return label + (f"-{start.honba}" if start.honba else "")


@dataclass(slots=True)
class RecordTurn:
    """The seat's view at its ``turn``-th draw of a round, with the legal actions."""

    seat: int
    hand: tuple[int, ...]
    events: list[Event]
    melds: tuple[tuple[Meld, ...], ...]
    legal: list[Event]
    actual: Event | None

    @property
    def counts(self) -> list[int]:
        return T.counts34(self.hand)

    @property
    def drawn(self) -> int | None:
        return self.hand[-1] if self.hand else None

    def visible_counts(self) -> list[int]:
        """Copies of each kind in view outside the seat's hand, as the engine's observation
        counts them: discards (a called one once, in its meld), meld tiles, dora indicators."""
        seen = [0] * 34
        for e in self.events:
            tiles: tuple[int | None, ...] = ()
            if e.type in ("start_kyoku", "dora"):
                tiles = (e.dora_marker,)
            elif e.type in ("dahai", "kakan"):
                tiles = (e.pai,)
            elif e.type in ("chi", "pon", "daiminkan", "ankan"):
                tiles = tuple(e.consumed)
            for t in tiles:
                if t is not None:
                    seen[T.kind_of(t)] += 1
        return seen


def find_turn(round_events: Sequence[Event], seat: int, turn: int) -> RecordTurn:
    """The seat's ``turn``-th draw (1-based) in one round's events; ValueError if absent."""
    draws = 0
    for draws, view in enumerate(iter_turns(round_events, seat), 1):
        if draws == turn:
            return view
    raise ValueError(f"seat {seat} has no draw number {turn} in this round (it drew {draws})")


def iter_turns(round_events: Sequence[Event], seat: int) -> Iterator[RecordTurn]:
    """Every draw of ``seat`` in one round, in order, from a single pass over the events (a
    caller scoring a whole round would otherwise replay it from the start at every turn)."""
    hands: list[list[int]] = [[] for _ in range(4)]
    melds: list[list[Meld]] = [[] for _ in range(4)]
    riichi = [False] * 4
    seen: list[Event] = []
    for idx, e in enumerate(round_events):
        seen.append(mask_event(e, seat))
        t, a = e.type, e.actor
        if t == "start_kyoku":
            hands = [list(h or ()) for h in e.tehais]
        elif t == "tsumo" and a is not None and e.pai is not None:
            hands[a].append(e.pai)
            if a == seat:
                nxt = next((x for x in round_events[idx + 1 :] if x.actor == seat), None)
                yield _turn(seat, hands[seat], seen, melds, riichi[seat], nxt)
        elif t == "dahai" and a is not None and e.pai is not None:
            hands[a].remove(e.pai)
        elif t in ("chi", "pon", "daiminkan") and a is not None and e.pai is not None:
            for c in e.consumed:
                hands[a].remove(c)
            melds[a].append(Meld(t, (e.pai, *e.consumed), e.pai, e.target))
        elif t in ("ankan", "kakan") and a is not None:
            if t == "ankan":
                for c in e.consumed:
                    hands[a].remove(c)
                melds[a].append(Meld("ankan", tuple(e.consumed)))
            elif e.pai is not None:
                hands[a].remove(e.pai)
        elif t == "reach" and a is not None:
            riichi[a] = True


def _turn(seat: int, hand: list[int], seen: list[Event], melds: list[list[Meld]],
          in_riichi: bool, actual: Event | None) -> RecordTurn:
    counts = T.counts34(hand)
    drawn = hand[-1]
    legal: list[Event] = []
    if is_complete(counts):
        legal.append(Event("hora", actor=seat, target=seat, pai=drawn))
    if in_riichi:
        legal.append(Event("dahai", actor=seat, pai=drawn, tsumogiri=True))
    else:
        done: set[int] = set()
        for i, tile in enumerate(hand):
            if tile in done:
                continue
            done.add(tile)
            legal.append(Event("dahai", actor=seat, pai=tile, tsumogiri=i == len(hand) - 1))
        closed = all(m.type == "ankan" for m in melds[seat])
        if closed and any(_ready_after(counts, k) for k in range(34) if counts[k]):
            legal.append(Event("reach", actor=seat))
    return RecordTurn(seat, tuple(hand), list(seen), tuple(tuple(m) for m in melds), legal,
                      actual)


def _ready_after(counts: list[int], k: int) -> bool:
    counts[k] -= 1
    ok = shanten(counts) == 0
    counts[k] += 1
    return ok

"""A small public picture of a Riichi hand, fed event by event, for the opponent models.

The models of 001 §VI-C read what every player can see: each river in order with its
tsumogiri flags, calls, riichi declarations, dora indicators and the scores.  The same tracker
reads a full record (for fitting, where the hidden hands are also known and give the labels)
and a live observation's masked events (for play), so features are computed by one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["LIVE_WALL", "Discard", "TableState", "table_from_events"]

#: Drawable tiles after the deal in four-player Riichi.
LIVE_WALL = 70


@dataclass(frozen=True, slots=True)
class Discard:
    """One river tile: its kind, whether it was the drawn tile, whether a riichi came with it."""

    kind: int
    tsumogiri: bool
    riichi: bool
    called: bool = False


@dataclass(slots=True)
class TableState:
    """Public state of one hand; ``hands`` holds 34-count vectors of the seats that are known."""

    oya: int = 0
    bakaze: int = 0
    kyoku: int = 0
    honba: int = 0
    kyotaku: int = 0
    scores: list[int] = field(default_factory=lambda: [25000] * 4)
    rivers: list[list[Discard]] = field(default_factory=lambda: [[] for _ in range(4)])
    calls: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    meld_kinds: list[list[int]] = field(default_factory=lambda: [[] for _ in range(4)])
    pons: list[list[int]] = field(default_factory=lambda: [[] for _ in range(4)])
    riichi_at: list[int | None] = field(default_factory=lambda: [None] * 4)
    dora_markers: list[int] = field(default_factory=list)
    wall: int = LIVE_WALL
    hands: list[list[int] | None] = field(default_factory=lambda: [None] * 4)
    #: Every kind discarded by anyone since each seat's riichi (safe against that seat).
    passed_after_riichi: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])
    _pending_riichi: int | None = None

    @classmethod
    def start(cls, e: Event) -> TableState:
        s = cls(oya=e.oya if e.oya is not None else (e.kyoku or 0), bakaze=e.bakaze or 0,
                kyoku=e.kyoku or 0, honba=e.honba or 0, kyotaku=e.kyotaku or 0)
        if len(e.scores) == 4:
            s.scores = list(e.scores)
        for seat, tiles in enumerate(e.tehais):
            if tiles is not None:
                s.hands[seat] = T.counts34(tiles)
        if e.dora_marker is not None:
            s.dora_markers.append(T.kind_of(e.dora_marker))
        return s

    def apply(self, e: Event) -> None:
        """Update with one event of the hand (events of other kinds are ignored)."""
        t = e.type
        a = e.actor
        if t == "tsumo" and a is not None:
            self.wall -= 1
            h = self.hands[a]
            if h is not None and e.pai is not None:
                h[T.kind_of(e.pai)] += 1
        elif t == "dahai" and a is not None and e.pai is not None:
            k = T.kind_of(e.pai)
            h = self.hands[a]
            if h is not None and h[k] > 0:
                h[k] -= 1
            declared = self._pending_riichi == a
            self._pending_riichi = None
            self.rivers[a].append(Discard(k, bool(e.tsumogiri), declared))
            if declared:
                self.riichi_at[a] = len(self.rivers[a]) - 1
            for s in range(4):
                if s != a and self.riichi_at[s] is not None:
                    self.passed_after_riichi[s].add(k)
        elif t in ("chi", "pon", "daiminkan") and a is not None and e.pai is not None:
            self.calls[a] += 1
            tgt = e.target
            if tgt is not None and self.rivers[tgt]:
                last = self.rivers[tgt][-1]
                self.rivers[tgt][-1] = Discard(last.kind, last.tsumogiri, last.riichi, True)
            h = self.hands[a]
            for c in e.consumed:
                if h is not None and h[T.kind_of(c)] > 0:
                    h[T.kind_of(c)] -= 1
            kinds = [T.kind_of(e.pai), *(T.kind_of(c) for c in e.consumed)]
            self.meld_kinds[a].extend(kinds)
            if t == "pon":
                self.pons[a].append(T.kind_of(e.pai))
        elif t in ("ankan", "kakan") and a is not None:
            tiles = e.consumed if t == "ankan" else ((e.pai,) if e.pai is not None else ())
            h = self.hands[a]
            for c in tiles:
                if h is not None and h[T.kind_of(c)] > 0:
                    h[T.kind_of(c)] -= 1
                self.meld_kinds[a].append(T.kind_of(c))
        elif t == "dora" and e.dora_marker is not None:
            self.dora_markers.append(T.kind_of(e.dora_marker))
        elif t == "reach" and a is not None:
            self._pending_riichi = a
        elif t == "reach_accepted" and a is not None:
            if len(e.scores) == 4:
                self.scores = list(e.scores)
            else:
                self.scores[a] -= 1000
            self.kyotaku += 1

    # ------------------------------------------------------------------ reading
    def visible(self) -> list[int]:
        """Copies of each kind anyone can see: rivers (uncalled), melds, dora indicators."""
        seen = [0] * 34
        for r in self.rivers:
            for d in r:
                if not d.called:
                    seen[d.kind] += 1
        for ms in self.meld_kinds:
            for k in ms:
                seen[k] += 1
        for k in self.dora_markers:
            seen[k] += 1
        return seen

    def dora_kinds(self) -> list[int]:
        return [T.dora_from_indicator(k) for k in self.dora_markers]

    def in_riichi(self, seat: int) -> bool:
        return self.riichi_at[seat] is not None

    def round_index(self) -> int:
        return self.bakaze * 4 + self.kyoku


def table_from_events(events: Sequence[Event]) -> TableState:
    """The public table of the current hand from an observation's (masked) events."""
    state: TableState | None = None
    for e in events:
        if e.type == "start_kyoku":
            state = TableState.start(e)
        elif state is not None:
            state.apply(e)
    if state is None:
        raise ValueError("no start_kyoku among the observation's events")
    return state

"""One hand in Tenhou's physical tile ids (0-135), as the table server must show it.

The engine deals tile *codes* (a kind, or a red five); Tenhou's protocol names every physical
copy.  :class:`PhysicalRound` hands out a free copy whenever a tile first appears (the deal, a
draw, a dora indicator) and then follows that copy through the hand: discards, calls and kans
name the ids the seat really holds.  When a client names the copy it discards or calls with, the
table passes that id as a *hint*, so the client's own picture of its hand stays exact.  The
round also keeps, per seat, the meld codes (Norths set aside included) and the river (with
called tiles and the riichi discard marked) that a ``REINIT`` message needs after a reconnection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.mjlog_meld import MeldKind, encode_meld

__all__ = ["Applied", "PhysicalRound", "RiverTile", "TileIdError", "code_of"]


class TileIdError(ValueError):
    """A tile or id the hand cannot account for (a fifth copy, a tile the seat lacks)."""


def code_of(tile_id: int, red: bool) -> int:
    """The tile code of a physical id (red fives only when the rules play with them)."""
    if not 0 <= tile_id < 136:
        raise TileIdError(f"tile id {tile_id} is not 0-135")
    return T.from_tenhou136(tile_id, red)


@dataclass(slots=True)
class RiverTile:
    tile_id: int
    tsumogiri: bool
    called: bool = False
    riichi: bool = False


@dataclass(slots=True)
class Applied:
    """The ids an event turned into: a draw's or discard's ``tile_id``, a call's ``meld``
    code, a dealt hand, revealed markers, shown hands."""

    tile_id: int | None = None
    meld: int | None = None
    hands: list[list[int]] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)


class PhysicalRound:
    """Every copy's whereabouts in one hand (see the module docstring)."""

    def __init__(self, red: bool) -> None:
        self.red = red
        self._free: dict[int, list[int]] = {}
        for code in range(37 if red else 34):
            if T.is_red(code):
                self._free[code] = [T.RED_FIVE_IDS[code - 34]]
            else:
                ids = [code * 4 + i for i in range(4)]
                if red and code * 4 in T.RED_FIVE_IDS:
                    ids.remove(code * 4)
                self._free[code] = ids
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.drawn: list[int | None] = [None] * 4
        self.melds: list[list[int]] = [[] for _ in range(4)]
        self.rivers: list[list[RiverTile]] = [[] for _ in range(4)]
        self.dora_ids: list[int] = []
        self._pons: dict[tuple[int, int], tuple[tuple[int, ...], int, int]] = {}
        self._reach_pending: set[int] = set()
        self._last_discard: tuple[int, int] | None = None
        self._ura: list[int] | None = None

    # ------------------------------------------------------------------ copies
    def _take(self, code: int) -> int:
        pool = self._free.get(code)
        if pool is None:
            raise TileIdError(f"tile code {code} is not in this game's tile set")
        if not pool:
            raise TileIdError(f"no free copy of {T.to_mjai(code)} left")
        return pool.pop(0)

    def _remove(self, seat: int, code: int, hint: int | None = None, *, avoid: int | None = None
                ) -> int:
        hand = self.hands[seat]
        if hint is not None and hint in hand and code_of(hint, self.red) == code:
            hand.remove(hint)
            return hint
        same = [i for i in hand if code_of(i, self.red) == code]
        if not same:
            raise TileIdError(f"seat {seat} holds no {T.to_mjai(code)}")
        pick = next((i for i in same if i != avoid), same[0])
        hand.remove(pick)
        return pick

    # ------------------------------------------------------------------ events
    def apply(self, e: Event, hints: Sequence[int] = ()) -> Applied:
        """Follow one engine event (all hands visible); ``hints`` are the ids a client named."""
        handler = getattr(self, f"_on_{e.type}", None)
        return handler(e, list(hints)) if handler is not None else Applied()

    def _on_start_kyoku(self, e: Event, hints: list[int]) -> Applied:
        hands = []
        for seat, codes in enumerate(e.tehais):
            if codes is None:
                raise TileIdError(f"start_kyoku hides seat {seat}'s hand from the table")
            ids = [self._take(c) for c in codes]
            self.hands[seat] = list(ids)
            hands.append(ids)
        markers = []
        if e.dora_marker is not None:
            markers.append(self._take(e.dora_marker))
            self.dora_ids.extend(markers)
        return Applied(hands=hands, markers=markers)

    def _on_tsumo(self, e: Event, hints: list[int]) -> Applied:
        assert e.actor is not None and e.pai is not None
        tid = self._take(e.pai)
        self.hands[e.actor].append(tid)
        self.drawn[e.actor] = tid
        return Applied(tile_id=tid)

    def _on_dahai(self, e: Event, hints: list[int]) -> Applied:
        seat = e.actor
        assert seat is not None and e.pai is not None
        drawn = self.drawn[seat]
        if e.tsumogiri and drawn is not None and code_of(drawn, self.red) == e.pai:
            self.hands[seat].remove(drawn)
            tid = drawn
        else:
            tid = self._remove(seat, e.pai, hints[0] if hints else None, avoid=drawn)
        self.drawn[seat] = None
        self.rivers[seat].append(RiverTile(tid, bool(e.tsumogiri), riichi=seat in
                                           self._reach_pending))
        self._reach_pending.discard(seat)
        self._last_discard = (seat, tid)
        return Applied(tile_id=tid)

    def _on_reach(self, e: Event, hints: list[int]) -> Applied:
        assert e.actor is not None
        self._reach_pending.add(e.actor)
        return Applied()

    def _on_dora(self, e: Event, hints: list[int]) -> Applied:
        assert e.dora_marker is not None
        tid = self._take(e.dora_marker)
        self.dora_ids.append(tid)
        return Applied(tile_id=tid, markers=[tid])

    def _claimed(self, e: Event) -> tuple[int, int, int]:
        seat, target = e.actor, e.target
        assert seat is not None and target is not None
        if self._last_discard is None or self._last_discard[0] != target:
            raise TileIdError(f"{e.type} by seat {seat}: seat {target} made no discard to claim")
        self.rivers[target][-1].called = True
        return seat, target, self._last_discard[1]

    def _consume(self, seat: int, codes: Iterable[int], hints: list[int]) -> list[int]:
        out = []
        for code in codes:
            hint = next((h for h in hints if code_of(h, self.red) == code), None)
            if hint is not None:
                hints.remove(hint)
            out.append(self._remove(seat, code, hint))
        return out

    def _call(self, e: Event, hints: list[int]) -> Applied:
        seat, target, called = self._claimed(e)
        used = self._consume(seat, e.consumed, hints)
        rel = (target - seat) % 4
        kind: MeldKind = e.type  # type: ignore[assignment]
        tiles = (*used, called)
        code = encode_meld(kind, rel, tiles, called)
        self.melds[seat].append(code)
        if e.type == "pon":
            self._pons[(seat, called // 4)] = (tiles, called, rel)
        self.drawn[seat] = None
        return Applied(meld=code)

    _on_chi = _call
    _on_pon = _call
    _on_daiminkan = _call

    def _on_ankan(self, e: Event, hints: list[int]) -> Applied:
        seat = e.actor
        assert seat is not None
        used = self._consume(seat, e.consumed, hints)
        code = encode_meld("ankan", 0, tuple(sorted(used)), None)
        self.melds[seat].append(code)
        self.drawn[seat] = None
        self._last_discard = (seat, used[0])  # robbable by kokushi where the rules allow
        return Applied(meld=code)

    def _on_kakan(self, e: Event, hints: list[int]) -> Applied:
        seat = e.actor
        assert seat is not None and e.pai is not None
        added = self._remove(seat, e.pai, hints[0] if hints else None)
        key = (seat, added // 4)
        if key not in self._pons:
            raise TileIdError(f"kakan by seat {seat} without a pon of {T.to_mjai(e.pai)}")
        tiles, called, rel = self._pons.pop(key)
        old = encode_meld("pon", rel, tiles, called)
        code = encode_meld("kakan", rel, (*tiles, added), called)
        ms = self.melds[seat]
        ms[ms.index(old)] = code
        self.drawn[seat] = None
        self._last_discard = (seat, added)  # the tile a chankan would rob
        return Applied(meld=code, tile_id=added)

    def _on_nukidora(self, e: Event, hints: list[int]) -> Applied:
        """A North set aside (three players): listed with the seat's melds, as Tenhou's ``m``
        attributes do, and the tile a ron on it takes."""
        seat = e.actor
        assert seat is not None and e.pai is not None
        tid = self._remove(seat, e.pai, hints[0] if hints else None)
        code = encode_meld("nukidora", 0, (tid,), tid)
        self.melds[seat].append(code)
        self.drawn[seat] = None
        self._last_discard = (seat, tid)
        return Applied(meld=code, tile_id=tid)

    def _on_hora(self, e: Event, hints: list[int]) -> Applied:
        assert e.actor is not None
        hand = list(self.hands[e.actor])
        win = self.drawn[e.actor]
        if e.actor != e.target:
            if self._last_discard is None or self._last_discard[0] != e.target:
                raise TileIdError(f"ron by seat {e.actor}: seat {e.target} offered no tile")
            win = self._last_discard[1]
            hand.append(win)
        if e.ura_markers and self._ura is None:
            # Both winners of a double ron show the same ura indicators.
            self._ura = [self._take(t) for t in e.ura_markers]
        return Applied(tile_id=win, hands=[sorted(hand)], markers=list(self._ura or []))

    def shown_hand(self, seat: int) -> list[int]:
        return sorted(self.hands[seat])

"""Follow a Riichi round event by event and answer "what could seat *s* see just now?".

Encoders need the same picture of the table whether they are fed by a record (dataset build)
or by a live game (the ``sl`` agent).  Both sides speak events, so one tracker serves both: the
dataset feeds it the full engine stream, the agent the masked stream of its observation
(``RiichiObservation.events``), where other players' hands and draws are hidden.  A test checks
that the two pictures agree with the engine's own observation at every decision.

Seats in a :class:`SeatView` are *relative* to the viewer: index 0 is the viewer, 1 the next
player (shimocha, who draws after the viewer), 2 the player across, 3 the previous player
(kamicha, whose discards the viewer may chi).  At a three-player table (a ``start_kyoku`` with
three hands) index 2 is the empty seat (no tiles, 0 points) and 3 the previous player; a North
set aside (``nukidora``) counts among its owner's melds, as it lies beside the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.seat_counts import CALL_TYPES, SeatCounts

__all__ = ["MAX_HISTORY", "RoundTracker", "SeatView", "StateError"]

#: Past situations kept per seat (Gao's 86-plane encoder uses six).
MAX_HISTORY = 6
#: Live wall tiles after the deal in four-player Riichi (136 - 14 dead wall - 52 dealt).
LIVE_WALL_AFTER_DEAL = 70
#: ... and in three-player Riichi (108 - 14 dead wall - 39 dealt).
LIVE_WALL_AFTER_DEAL_3P = 55


class StateError(ValueError):
    """The event stream cannot be followed (an event before ``start_kyoku``, a tile not held)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat knows at one moment, in plain tuples (cheap to copy, easy to test).

    Count vectors have 34 entries (kinds).  ``rivers`` leave out tiles that were called (they
    are counted in the caller's ``melds``) so no kind ever exceeds four copies on the table.
    ``meld_types`` counts (chi, pon, kan) per relative seat.  ``offered`` is the kind of the tile
    being claimed when the decision is a call, else ``None``.  ``history`` holds the views of
    the seat's previous turns (most recent first, at most :data:`MAX_HISTORY`); past views have
    an empty history of their own.
    """

    seat: int
    hand: tuple[int, ...]
    red: tuple[int, int, int]
    rivers: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[int, ...], ...]
    meld_types: tuple[tuple[int, int, int], ...]
    dora: tuple[int, ...]
    riichi: tuple[bool, ...]
    bakaze: int
    seat_wind: int
    kyoku: int
    honba: int
    kyotaku: int
    scores: tuple[int, ...]
    wall_remaining: int
    offered: int | None = None
    history: tuple[SeatView, ...] = ()
    players: int = 4

    @property
    def rank(self) -> int:
        """0 for the leader … 3 for last; ties go to the lower absolute seat (Tenhou's rule)."""
        mine = self.scores[0]
        better = 0
        three = self.players == 3
        for rel in range(1, 4):
            if three and rel == 2:
                continue  # the empty seat of a three-player table
            offset = 2 if three and rel == 3 else rel  # the previous player of three is +2
            other_abs = (self.seat + offset) % self.players
            s = self.scores[rel]
            if s > mine or (s == mine and other_abs < self.seat):
                better += 1
        return better

    @property
    def round_index(self) -> int:
        """East 1 = 0 … South 4 = 7; West and North rounds count as South 4 (the last hand)."""
        return min(self.bakaze * 4 + self.kyoku, 7)


class RoundTracker(SeatCounts):
    """Mutable table state for one round, fed one :class:`Event` at a time.

    ``watch`` names the seats whose past turns are remembered (for encoders with history); a
    seat's hand is tracked whenever its deal is known.
    """

    error = StateError

    def __init__(
        self, watch: tuple[int, ...] = (0, 1, 2, 3), *, live_wall: int = LIVE_WALL_AFTER_DEAL
    ) -> None:
        self.watch = watch
        #: Drawable tiles after the deal (70 in Riichi; 56 in the 108-tile rules, no dead wall).
        self.live_wall = live_wall
        self._reset()

    def _reset(self) -> None:
        self.started = False
        self.players = 4
        self._reset_counts()
        self.red: list[list[int]] = [[0, 0, 0] for _ in range(4)]
        self.open_hand = [False] * 4
        self.dora = [0] * 34
        self.riichi = [False] * 4
        self.riichi_accepted = [False] * 4
        self.scores = [25000] * 4
        self.bakaze = self.kyoku = self.honba = self.kyotaku = self.oya = 0
        self.wall_remaining = self.live_wall
        self.last_discard: tuple[int, int] | None = None
        self.history: list[list[SeatView]] = [[] for _ in range(4)]

    # ----------------------------------------------------------------- feeding
    def apply(self, e: Event) -> None:
        """Update the state with one event; events outside a round are ignored."""
        t = e.type
        if t == "start_kyoku":
            self._start(e)
            return
        if not self.started or t in ("none", "end_kyoku", "start_game", "end_game"):
            return
        if t == "tsumo":
            self.wall_remaining -= 1
            if e.pai is not None:
                self._add(self._actor(e), e.pai)
            self.last_discard = None
        elif t == "dahai":
            seat = self._actor(e)
            assert e.pai is not None
            if seat in self.watch and self.hands[seat] is not None:
                past = self.history[seat]
                past.insert(0, self.view(seat, with_history=False))
                del past[MAX_HISTORY:]
            self._discard(seat, e.pai)
            self.last_discard = (seat, e.pai)
        elif t in CALL_TYPES:
            self.open_hand[self._call(e)] = True
            self.last_discard = None
        elif t == "ankan":
            self._closed_kan(e)
        elif t == "kakan":
            self._added_kan(e)
        elif t == "nukidora":
            seat = self._actor(e)
            assert e.pai is not None
            self._remove(seat, e.pai)
            self.melds[seat][T.kind_of(e.pai)] += 1
        elif t == "dora":
            assert e.dora_marker is not None
            self.dora[T.kind_of(e.dora_marker)] += 1
        elif t == "reach":
            self.riichi[self._actor(e)] = True
        elif t == "reach_accepted":
            seat = self._actor(e)
            self.riichi_accepted[seat] = True
            if len(e.scores) == self.players:
                self.scores = [*e.scores, *([0] * (4 - self.players))]
            else:
                self.scores[seat] -= 1000
            self.kyotaku += 1
        elif t in ("hora", "ryukyoku") and len(e.deltas) == self.players:
            self.scores = [s + d for s, d in zip(self.scores, (*e.deltas, 0, 0, 0))]

    def _start(self, e: Event) -> None:
        self._reset()
        self.started = True
        if len(e.tehais) == 3:
            self.players = 3
            if self.live_wall == LIVE_WALL_AFTER_DEAL:
                self.wall_remaining = LIVE_WALL_AFTER_DEAL_3P
            self.scores = [*self.scores[:3], 0]
        self.bakaze = e.bakaze or 0
        self.kyoku = e.kyoku or 0
        self.honba = e.honba or 0
        self.kyotaku = e.kyotaku or 0
        self.oya = e.oya if e.oya is not None else self.kyoku
        if len(e.scores) == self.players:
            self.scores = [*e.scores, *([0] * (4 - self.players))]
        for seat, tiles in enumerate(e.tehais):
            if tiles is None:
                continue
            self.hands[seat] = [0] * 34
            for tile in tiles:
                self._add(seat, tile)
        if e.dora_marker is not None:
            self.dora[T.kind_of(e.dora_marker)] += 1

    def _add(self, seat: int, tile: int) -> None:
        super()._add(seat, tile)
        if self.hands[seat] is not None and T.is_red(tile):
            self.red[seat][tile - 34] += 1

    def _remove(self, seat: int, tile: int) -> None:
        super()._remove(seat, tile)
        if self.hands[seat] is not None and T.is_red(tile) and self.red[seat][tile - 34] > 0:
            self.red[seat][tile - 34] -= 1

    # ----------------------------------------------------------------- reading
    def view(self, seat: int, *, offered: int | None = None, with_history: bool = True) -> SeatView:
        """The picture of the table from ``seat`` (see :class:`SeatView`)."""
        if self.players == 3:  # self, next, the empty seat (3 holds nothing), previous
            order = [seat, (seat + 1) % 3, 3, (seat + 2) % 3]
        else:
            order = [(seat + i) % 4 for i in range(4)]
        red = self.red[seat]
        return SeatView(
            seat=seat,
            hand=tuple(self.hand_counts(seat)),
            red=(red[0], red[1], red[2]),
            rivers=tuple(tuple(self.rivers[s]) for s in order),
            melds=tuple(tuple(self.melds[s]) for s in order),
            meld_types=tuple(
                (self.meld_types[s][0], self.meld_types[s][1], self.meld_types[s][2]) for s in order
            ),
            dora=tuple(self.dora),
            riichi=tuple(self.riichi[s] for s in order),
            bakaze=self.bakaze,
            seat_wind=(seat - self.oya) % self.players,
            kyoku=self.kyoku,
            honba=self.honba,
            kyotaku=self.kyotaku,
            scores=tuple(self.scores[s] for s in order),
            wall_remaining=self.wall_remaining,
            offered=offered,
            history=tuple(self.history[seat]) if with_history else (),
            players=self.players,
        )

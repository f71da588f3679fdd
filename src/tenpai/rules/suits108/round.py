"""One hand of the 108-tile game on the shared table.

:class:`~tenpai.engine.table.TableRound` runs draws, discards, the claim window (win > pong /
kong > chow, chow only from the player on the left), kongs with replacement draws and the window
to rob an added kong.  This subclass adds what the paper's Appendix A adds: the win shapes of
Table A1, the ready-hand declaration of Definition 1 with its locked hand, and the settlement.

The declaration is the mjai ``reach`` event: ``reach`` (actor), then the declaring ``dahai``,
then ``reach_accepted`` once no one wins on that discard.  No points change hands on the
declaration; its reward is a multiplier on a later win.  From then on the hand is locked: on
its turn the player may only win, make a kong that leaves its waits unchanged, or discard the
tile just drawn; on others' discards only win or make such an open kong.  A forced discard
(nothing else legal) is done by the engine unless ``auto_discard_when_locked`` is off.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tenpai.engine.table import KIND, TableRound
from tenpai.events import Event
from tenpai.rules.suits108.combinations import WinningHand, WinValue, evaluate
from tenpai.rules.suits108.observation import Suits108Observation
from tenpai.rules.suits108.ruleset import Suits108Rules
from tenpai.rules.suits108.settlement import win_payments
from tenpai.rules.suits108.shapes import can_become_ready, is_winning, ready_discards, waits
from tenpai.rules.suits108.wall import Suits108Wall

__all__ = ["HandResult", "Suits108Round"]


@dataclass(slots=True)
class HandResult:
    """How a hand ended, for the game's progression and statistics."""

    kind: Literal["hora", "exhaustive"]
    deltas: list[int]
    winners: list[int] = field(default_factory=list)
    multipliers: list[int] = field(default_factory=list)


class Suits108Round(TableRound):
    """State and transitions of one hand (four players, 108 tiles)."""

    def __init__(
        self,
        rules: Suits108Rules,
        wall: Suits108Wall,
        *,
        hand_index: int,
        dealer: int,
        scores: Sequence[int],
        emit: Callable[[Event], None] | None = None,
    ) -> None:
        super().__init__(wall.hands, dealer=dealer, emit=emit)
        self.rules = rules
        self.wall = wall
        self.hand_index = hand_index
        self.scores = list(scores)
        self.declared = [False] * 4
        self.locked_waits: list[tuple[int, ...]] = [()] * 4
        self.declare_pending: int | None = None
        self.result: HandResult | None = None
        self._quads = rules.seven_pairs_allow_quads
        self._emit(
            Event(
                "start_kyoku",
                bakaze=hand_index // 4 % 4,
                kyoku=hand_index % 4,
                honba=0,
                kyotaku=0,
                oya=dealer,
                scores=tuple(self.scores),
                tehais=tuple(tuple(h) for h in self.hands),
            )
        )
        self._draw(dealer)
        self._run_forced()

    # ------------------------------------------------------------------ table hooks
    def _observe(self, seat: int) -> Suits108Observation:
        return Suits108Observation(self, seat)

    def _where(self) -> str:
        return f"hand {self.hand_index + 1}, event {len(self.events)}"

    def _take_tile(self, seat: int, replacement: bool) -> int:
        return self.wall.draw_replacement() if replacement else self.wall.draw()

    @property
    def wall_remaining(self) -> int:
        return self.wall.remaining

    def _compute_waits(self, seat: int) -> tuple[int, ...]:
        """Kinds that complete ``seat``'s hand, four of a kind counting as two pairs when the
        rules allow it."""
        return waits(self.counts[seat], quads_as_pairs=self._quads)

    def seat_wind(self, seat: int) -> int:
        """East for the dealer, then South, West, North (kinds 27-30, for generic agents)."""
        return 27 + (seat - self.dealer) % 4

    # ------------------------------------------------------------------ stepping
    def step(self, answers: Mapping[int, Event]) -> None:
        super().step(answers)
        self._run_forced()

    def _run_forced(self) -> None:
        """Make a locked player's forced discard (its only legal action) without asking.

        Written here rather than in the table because :class:`TableRound` has no hook for
        decisions that need no decider (see docs/suits108.md).
        """
        if not self.rules.auto_discard_when_locked:
            return
        while self.phase == "act" and len(self._pending) == 1:
            (d,) = self._pending
            if not self.declared[d.seat] or len(d.legal) != 1:
                return
            super().step({d.seat: d.legal[0]})

    # ------------------------------------------------------------------ legal actions
    def _rule_self_actions(self, seat: int) -> list[Event]:
        drawn = self.drawn
        assert drawn is not None
        out = self._win_self_actions(seat) + self._kan_actions(seat)
        if self.declared[seat]:
            out.append(Event("dahai", actor=seat, pai=drawn, tsumogiri=True))
            return out
        if self._can_declare(seat):
            out.append(Event("reach", actor=seat))
        out += self._discards(seat, drawn)
        return out

    def _can_declare(self, seat: int) -> bool:
        r = self.rules
        if not r.ready_declaration or self.declared[seat]:
            return False
        if r.ready_requires_closed and any(m.is_open for m in self.melds[seat]):
            return False
        return can_become_ready(self.counts[seat], quads_as_pairs=self._quads)

    def _rule_can_win_self(self, seat: int) -> bool:
        return is_winning(self.counts[seat], quads_as_pairs=self._quads)

    def _rule_can_win_on(self, seat: int, tile: int, discarder: int, robbing: bool) -> bool:
        if robbing and not self.rules.rob_added_kong:
            return False
        return KIND[tile] in self.waits_of(seat)

    def _rule_may_call(self, seat: int) -> bool:
        return not self.declared[seat] and self.wall.remaining > 0

    def _keeps_waits(self, seat: int, kind: int, removed: int) -> bool:
        """Whether taking ``removed`` tiles of ``kind`` out of the concealed hand for a kong
        leaves a locked player's waits exactly as they were when it declared."""
        counts = self.counts[seat]
        counts[kind] -= removed
        try:
            after = waits(counts, quads_as_pairs=self._quads)
        finally:
            counts[kind] += removed
        return after == self.locked_waits[seat]

    def _rule_ankan_allowed(self, seat: int, kind: int) -> bool:
        return not self.declared[seat] or self._keeps_waits(seat, kind, 4)

    def _rule_kakan_allowed(self, seat: int, kind: int) -> bool:
        return not self.declared[seat] or self._keeps_waits(seat, kind, 1)

    def _claims(self, seat: int, tile: int, discarder: int) -> list[Event]:
        """A locked player may win or make an open kong that keeps its waits, nothing else."""
        if not self.declared[seat]:
            return super()._claims(seat, tile, discarder)
        out: list[Event] = []
        k = KIND[tile]
        if self._rule_can_win_on(seat, tile, discarder, False):
            out.append(Event("hora", actor=seat, target=discarder, pai=tile))
        if self.counts[seat][k] == 3 and self._rule_may_kan(seat) and self._keeps_waits(seat, k, 3):
            same = tuple(sorted(t for t in self.hands[seat] if KIND[t] == k))
            out.append(Event("daiminkan", actor=seat, target=discarder, pai=tile, consumed=same))
        return out

    # ------------------------------------------------------------------ declaration
    def _rule_extra_action(self, seat: int, a: Event) -> None:
        if a.type != "reach":
            super()._rule_extra_action(seat, a)
            return
        self._emit(a)
        self.declare_pending = seat
        self.phase = "discard"
        keep = set(ready_discards(self.counts[seat], quads_as_pairs=self._quads))
        legal = [
            e for e in self._discards(seat, self.drawn) if e.pai is not None and KIND[e.pai] in keep
        ]
        self._pending = [self._decide(seat, legal)]

    def _rule_discard_passed(self, discarder: int, tile: int, answers: Mapping[int, Event]) -> bool:
        if self.declare_pending == discarder:
            self.declare_pending = None
            self.declared[discarder] = True
            self.locked_waits[discarder] = self.waits_of(discarder)
            self._emit(Event("reach_accepted", actor=discarder, scores=tuple(self.scores)))
        return False

    # ------------------------------------------------------------------ endings
    def value_of(self, seat: int, tile: int | None) -> WinValue:
        """What ``seat``'s hand is worth, completed by ``tile`` (None: already in hand)."""
        counts = list(self.counts[seat])
        if tile is not None:
            counts[KIND[tile]] += 1
        hand = WinningHand(counts, self.melds[seat], declared=self.declared[seat])
        return evaluate(hand, self.rules)

    def _rule_wins(
        self, seats: list[int], target: int, tile: int, *, tsumo: bool, robbing: bool
    ) -> None:
        if not self.rules.multiple_winners:
            seats = seats[:1]
        self.declare_pending = None
        total = [0, 0, 0, 0]
        mults: list[int] = []
        for s in seats:
            value = self.value_of(s, None if tsumo else tile)
            deltas = win_payments(s, None if tsumo else target, value.points, self.rules)
            for j in range(4):
                total[j] += deltas[j]
            mults.append(value.multiplier)
            concealed = tuple(self.hands[s]) if tsumo else (*self.hands[s], tile)
            self._emit(
                Event(
                    "hora",
                    actor=s,
                    target=target,
                    pai=tile,
                    deltas=deltas,
                    hora_tehais=concealed,
                    yaku=value.combinations,
                )
            )
        for j in range(4):
            self.scores[j] += total[j]
        self._end(HandResult("hora", total, winners=list(seats), multipliers=mults))

    def _rule_exhaustive(self) -> None:
        self._emit(Event("ryukyoku", kind="exhaustive", deltas=(0, 0, 0, 0)))
        self._end(HandResult("exhaustive", [0, 0, 0, 0]))

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = "ended"
        self._pending = []
        self._emit(Event("end_kyoku"))

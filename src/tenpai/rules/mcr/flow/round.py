"""One MCR hand on the shared table: what Chinese Official rules add to the generic hand.

:class:`~tenpai.engine.table.TableRound` runs draws, discards, claims (win > pung/kong > chow,
chow from the left only) and kongs; this subclass adds flowers, the 8-fan minimum before any
win is accepted, one winner per discard (the nearest in turn order), robbing an added kong
only, the situation flags the scorer needs (妙手回春 / 海底捞月 / 杠上开花 / 抢杠和 / 和绝张),
base-8 settlement, and the optional false-win declaration with its penalty.  MCR has no
furiten, riichi or dora, and an empty wall leaves only a win on the last discard.

Every index here is a table *position* (turn order, the dealer's first draw starts the hand);
:class:`tenpai.rules.mcr.game.MCRGame` maps positions to players when seats change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from tenpai import tiles as T
from tenpai.engine.table import KIND, TableRound
from tenpai.events import Event
from tenpai.hand import is_complete_mcr
from tenpai.rules.mcr import MCRContext, MCRResult, evaluate
from tenpai.rules.mcr import Meld as ScoredMeld
from tenpai.rules.mcr.flow.observation import MCRObservation
from tenpai.rules.mcr.flow.rules import MCRRules
from tenpai.rules.mcr.flow.wall import MCRWall
from tenpai.rules.mcr.settle import SettlementPreset, settle

__all__ = ["FALSE_WIN", "HandResult", "MCRRound"]

#: ``kind`` of the false-win declaration (an action ``Event("ryukyoku", actor=s, kind=...)``).
FALSE_WIN: Final = "false_win"


@dataclass(slots=True)
class HandResult:
    """How a hand ended, in table positions."""

    kind: Literal["hora", "exhaustive", "penalty"]
    deltas: list[int]
    winner: int | None = None
    target: int | None = None
    offender: int | None = None
    fan: int = 0
    fans: tuple[tuple[str, int], ...] = field(default_factory=tuple)


class _WallRanDry(Exception):
    """A flower was drawn and no tile is left to replace it: the hand is drawn."""


class MCRRound(TableRound):
    """State and transitions of one MCR hand (four positions)."""

    def __init__(
        self,
        rules: MCRRules,
        wall: MCRWall,
        *,
        dealer: int,
        prevalent_wind: int,
        hand_number: int = 0,
        scores: Sequence[int] = (0, 0, 0, 0),
        seating: Sequence[int] | None = None,
        emit: Callable[[Event], None] | None = None,
    ) -> None:
        dealt = [list(h) for h in wall.hands]
        super().__init__([[t for t in h if not T.is_flower(t)] for h in dealt],
                         dealer=dealer, emit=emit)
        if not rules.flowers and any(T.is_flower(t) for h in dealt for t in h):
            raise ValueError(f"preset {rules.name} plays without flowers, but one was dealt")
        self.rules = rules
        self.wall = wall
        self.prevalent_wind = prevalent_wind
        self.hand_number = hand_number
        self.scores = list(scores)
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.result: HandResult | None = None
        self._settlement = SettlementPreset(rules.name, rules.base)
        self._emit(Event(
            "start_kyoku", bakaze=prevalent_wind, kyoku=hand_number, honba=0, kyotaku=0,
            oya=dealer, scores=tuple(self.scores), tehais=tuple(tuple(h) for h in dealt),
            meta={"seating": list(seating)} if seating is not None else None,
        ))
        for i in range(4):
            seat = (dealer + i) % 4
            for f in (t for t in dealt[seat] if T.is_flower(t)):
                self._set_aside(seat, f)
                tile = self._replacement_for_flower(seat)
                self._add(seat, tile)
                self._emit(Event("tsumo", actor=seat, pai=tile))
        self._draw(dealer)

    # ------------------------------------------------------------------ table hooks
    def _observe(self, seat: int) -> MCRObservation:
        return MCRObservation(self, seat)

    def _where(self) -> str:
        wind = "ESWN"[self.prevalent_wind]
        return f"{wind} hand {self.hand_number + 1}, event {len(self.events)}"

    def seat_wind(self, seat: int) -> int:
        """The wind (0-3 = E S W N) of a position in this hand."""
        return (seat - self.dealer) % 4

    @property
    def wall_remaining(self) -> int:
        """Tiles the next player in turn can draw: 0 means the last discard is being made."""
        return self.wall.remaining_for((self.turn + 1) % 4)

    def _take_tile(self, seat: int, replacement: bool) -> int:
        tile = self.wall.draw_replacement(seat) if replacement else self.wall.draw(seat)
        if T.is_flower(tile):
            self._emit(Event("tsumo", actor=seat, pai=tile))
            self._set_aside(seat, tile)
            tile = self._replacement_for_flower(seat)
        return tile

    def _replacement_for_flower(self, seat: int) -> int:
        """Draw from the back until a tile that is not a flower comes (each flower set aside)."""
        while True:
            if self.wall.remaining_for(seat) == 0:
                raise _WallRanDry
            tile = self.wall.draw_replacement(seat)
            if not T.is_flower(tile):
                return tile
            self._emit(Event("tsumo", actor=seat, pai=tile))
            self._set_aside(seat, tile)

    def _set_aside(self, seat: int, flower: int) -> None:
        self.flowers[seat].append(flower)
        self._emit(Event("flower", actor=seat, pai=flower))

    def _draw(self, seat: int, replacement: bool = False) -> None:
        try:
            super()._draw(seat, replacement)
        except _WallRanDry:
            self.turn = seat
            self._rule_exhaustive()

    # ------------------------------------------------------------------ legal actions
    def _rule_self_actions(self, seat: int) -> list[Event]:
        out = self._win_self_actions(seat) + self._kan_actions(seat)
        if self.rules.allow_false_win and not (out and out[0].type == "hora"):
            out.append(Event("ryukyoku", actor=seat, kind=FALSE_WIN))
        return out + self._discards(seat, self.drawn)

    def _claims(self, seat: int, tile: int, discarder: int) -> list[Event]:
        out = super()._claims(seat, tile, discarder)
        if self.rules.allow_false_win and not (out and out[0].type == "hora"):
            out.append(Event("ryukyoku", actor=seat, kind=FALSE_WIN))
        return out

    def _rule_may_kan(self, seat: int) -> bool:
        """A kong needs a replacement tile for its caller and must leave a draw for the next
        player (Botzone checks both walls; with one wall it is one condition)."""
        return self.wall_remaining > 0 and self.wall.remaining_for(seat) > 0

    def _rule_can_win_self(self, seat: int) -> bool:
        drawn = self.drawn
        assert drawn is not None
        if not is_complete_mcr(self.counts[seat]):
            return False
        return self._accepts(self._evaluate(seat, drawn, tsumo=True, robbing=False))

    def _rule_can_win_on(self, seat: int, tile: int, discarder: int, robbing: bool) -> bool:
        counts = self.counts[seat]
        k = KIND[tile]
        if counts[k] >= 4:
            return False
        counts[k] += 1
        complete = is_complete_mcr(counts)
        counts[k] -= 1
        if not complete:
            return False
        return self._accepts(self._evaluate(seat, tile, tsumo=False, robbing=robbing))

    def _accepts(self, result: MCRResult | None) -> bool:
        """The 8-fan minimum (flowers do not count toward it)."""
        return result is not None and result.total_without_flowers >= self.rules.min_fan

    # ------------------------------------------------------------------ scoring
    def _evaluate(self, seat: int, tile: int, *, tsumo: bool, robbing: bool) -> MCRResult | None:
        hand = tuple(self.hands[seat]) if tsumo else (*self.hands[seat], tile)
        k = KIND[tile]
        held = sum(1 for t in hand if KIND[t] == k)
        ctx = MCRContext(
            concealed=hand,
            win_tile=tile,
            melds=tuple(self._scored_melds(seat)),
            self_drawn=tsumo,
            seat_wind=self.seat_wind(seat),
            prevalent_wind=self.prevalent_wind,
            last_tile=self.wall_remaining == 0 and not robbing,
            kong_replacement=tsumo and self.after_kan,
            robbing_kong=robbing,
            last_copy=held == 1 and self._visible_others(k, tsumo=tsumo, robbing=robbing) == 3,
            flowers=len(self.flowers[seat]),
        )
        return evaluate(ctx)

    def _scored_melds(self, seat: int) -> list[ScoredMeld]:
        out: list[ScoredMeld] = []
        for m in self.melds[seat]:
            offset = 0 if m.target is None else (seat - m.target) % 4
            tiles = tuple(KIND[t] for t in m.tiles)
            if m.type == "chi":
                out.append(ScoredMeld("chow", tiles, 1))
            elif m.type == "pon":
                out.append(ScoredMeld("pung", tiles, offset))
            elif m.type == "daiminkan":
                out.append(ScoredMeld("exposed_kong", tiles, offset))
            elif m.type == "kakan":
                out.append(ScoredMeld("promoted_kong", tiles, offset))
            else:
                out.append(ScoredMeld("concealed_kong", tiles, 0))
        return out

    def _visible_others(self, kind: int, *, tsumo: bool, robbing: bool) -> int:
        """Copies of ``kind`` in view (discards not claimed, exposed melds), the winning tile
        itself left out — 和绝张 needs all three others."""
        seen = 0
        for s in range(4):
            for t, called in zip(self.rivers[s], self.river_called[s]):
                if not called and KIND[t] == kind:
                    seen += 1
            for m in self.melds[s]:
                if m.type != "ankan":
                    seen += sum(1 for t in m.tiles if KIND[t] == kind)
        return seen - (0 if tsumo else 1)

    # ------------------------------------------------------------------ turn hooks
    def _rule_extra_action(self, seat: int, action: Event) -> None:
        if action.type == "ryukyoku" and action.kind == FALSE_WIN:
            self._penalty(seat)
        else:
            super()._rule_extra_action(seat, action)

    def _resolve_claims(self, chosen: Mapping[int, Event]) -> None:
        assert self.last_discard is not None
        if not self._false_win_first(chosen, self.last_discard[0]):
            super()._resolve_claims(chosen)

    def _false_win_first(self, chosen: Mapping[int, Event], source: int) -> bool:
        """Among win declarations, true or false, the nearest in turn order counts; a false one
        is penalised and ends the hand.  Returns True when that happened."""
        declared = sorted(
            (s for s, a in chosen.items()
             if a.type == "hora" or (a.type == "ryukyoku" and a.kind == FALSE_WIN)),
            key=lambda s: (s - source) % 4,
        )
        if declared and chosen[declared[0]].type == "ryukyoku":
            self._penalty(declared[0])
            return True
        return False

    # ------------------------------------------------------------------ endings
    def _rule_wins(
        self, seats: list[int], target: int, tile: int, *, tsumo: bool, robbing: bool
    ) -> None:
        seat = seats[0]  # one winner per discard: the nearest in turn order
        result = self._evaluate(seat, tile, tsumo=tsumo, robbing=robbing)
        assert result is not None and self._accepts(result), "a win offered as legal must score"
        deltas = settle(result, seat, None if tsumo else target, self._settlement)
        fans = tuple((h.fan.zh, h.points) for h in result.fans)
        self._emit(Event(
            "hora", actor=seat, target=target, pai=tile, deltas=tuple(deltas),
            hora_tehais=tuple(self.hands[seat]), han=result.total, yaku=fans,
        ))
        self._end(HandResult("hora", deltas, winner=seat, target=target, fan=result.total,
                             fans=fans))

    def _penalty(self, seat: int) -> None:
        p = self.rules.false_win_penalty
        deltas = [p] * 4
        deltas[seat] = -3 * p
        self._emit(Event("ryukyoku", actor=seat, kind="penalty", deltas=tuple(deltas)))
        self._end(HandResult("penalty", deltas, offender=seat))

    def _rule_exhaustive(self) -> None:
        self._emit(Event("ryukyoku", kind="exhaustive", deltas=(0, 0, 0, 0)))
        self._end(HandResult("exhaustive", [0, 0, 0, 0]))

    def _end(self, result: HandResult) -> None:
        for s in range(4):
            self.scores[s] += result.deltas[s]
        self.result = result
        self.phase = "ended"
        self._pending = []
        self._emit(Event("end_kyoku"))


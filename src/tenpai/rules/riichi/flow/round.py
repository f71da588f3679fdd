"""One Riichi hand (kyoku) on the shared table: what Riichi adds to the generic hand.

:class:`~tenpai.engine.table.TableRound` runs draws, discards, claims and kans; this subclass
adds riichi and its deposit, furiten, kuikae, dora and kan dora, pao, abortive draws, the
exhaustive-draw settlement and the scoring of wins.  Rule details follow the Tenhou ranked lobby
unless a :class:`RiichiRules` flag says otherwise; the timing choices that real records pin
down (kan dora after the replacement draw for open kans, riichi accepted before a call on the
declaring discard, no dora for a robbed kakan) are noted where they happen.

Three players (``rules.players == 3``): no chi, and with ``rules.nukidora`` a North may be set
aside on one's turn (the ``nukidora`` action, mjai's ``kita``): others may ron it (no chankan),
then the player draws a replacement tile (rinshan if it wins).  Once it stands it counts as a
call for ippatsu and the first go-around (double riichi, nine terminals, tenhou, chiihou).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.engine.table import KIND, TableRound
from tenpai.events import Event
from tenpai.hand import is_complete, shanten, waits
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.flow.types import WinOutcome, WinRequest
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.payments import completes_pao_sets, nagashi_mangan_payments
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["RiichiRound", "RoundResult", "Scorer", "start_kyoku"]

Scorer = Callable[[WinRequest, RiichiRules], WinOutcome | None]

_TERMINAL_HONOR = frozenset(k for k in range(34) if T.is_terminal_or_honor(k))
_WINDS = (27, 28, 29, 30)
NORTH = 30


@dataclass(slots=True)
class RoundResult:
    """How the round ended, for the game's progression."""

    kind: Literal["hora", "exhaustive", "abortive"]
    deltas: list[int]
    winners: list[int] = field(default_factory=list)
    tenpai: list[bool] = field(default_factory=lambda: [False] * 4)
    abort: str | None = None


def start_kyoku(wall: RoundWall, *, bakaze: int, kyoku: int, honba: int, kyotaku: int,
                oya: int, scores: Sequence[int]) -> Event:
    """The hand's first event (the deal, the scores and the first dora indicator): one place for
    both tables that play a hand — this round and the compiled one
    (:class:`~tenpai.rules.riichi.compiled_round.CompiledRound`) — whose event streams must
    be the same."""
    return Event(
        "start_kyoku",
        bakaze=bakaze,
        kyoku=kyoku,
        honba=honba,
        kyotaku=kyotaku,
        oya=oya,
        scores=tuple(scores),
        tehais=tuple(tuple(h) for h in wall.hands),
        dora_marker=wall.dora[0],
    )


class RiichiRound(TableRound):
    """State and transitions of one kyoku (``rules.players`` seats: four, or three)."""

    def __init__(
        self,
        rules: RiichiRules,
        wall: RoundWall,
        *,
        bakaze: int,
        kyoku: int,
        honba: int,
        kyotaku: int,
        scores: Sequence[int],
        scorer: Scorer,
        emit: Callable[[Event], None] | None = None,
        hand_index: int = 0,
    ) -> None:
        n = rules.players
        #: Which hand of its game this is (0 = the first), for players that learn per hand.
        self.hand_index = hand_index
        self.allow_chi = n == 4
        super().__init__(wall.hands, dealer=kyoku % n, emit=emit, players=n)
        self.rules = rules
        self.wall = wall
        self.bakaze = bakaze
        self.kyoku = kyoku
        self.oya = kyoku % n
        self.honba = honba
        self.kyotaku = kyotaku
        self.scores = list(scores)
        self.scorer = scorer
        self.dora_markers: list[int] = [wall.dora[0]]
        self.riichi = [False] * n
        self.double_riichi = [False] * n
        self.ippatsu = [False] * n
        self.furiten_temp = [False] * n
        self.furiten_riichi = [False] * n
        self.pao: list[int | None] = [None] * n
        #: Norths each seat has set aside (three players, ``rules.nukidora``).
        self.nukidora: list[list[int]] = [[] for _ in range(n)]
        #: A North set aside that the others may still ron (its rob window is open).
        self.kita_pending = False
        self.pending_dora = 0
        self.reach_pending: int | None = None
        self.result: RoundResult | None = None
        self._emit(start_kyoku(wall, bakaze=bakaze, kyoku=kyoku, honba=honba, kyotaku=kyotaku,
                               oya=self.oya, scores=self.scores))
        self._draw(self.oya)

    # ------------------------------------------------------------------ table hooks
    def _observe(self, seat: int) -> RiichiObservation:
        return RiichiObservation(self, seat)

    def _where(self) -> str:
        return f"{'ESWN'[self.bakaze]}{self.kyoku + 1}-{self.honba}, event {len(self.events)}"

    def _take_tile(self, seat: int, replacement: bool) -> int:
        return self.wall.draw_rinshan() if replacement else self.wall.draw()

    @property
    def wall_remaining(self) -> int:
        """The live wall: rinshan tiles and dead-wall markers are not counted."""
        return self.wall.remaining

    def _compute_waits(self, seat: int) -> tuple[int, ...]:
        """Kinds that complete a 13-tile-equivalent hand in any shape (yaku not asked)."""
        return tuple(waits(self.counts[seat]))

    def seat_wind(self, seat: int) -> int:
        return 27 + (seat - self.oya) % self.players

    def _first_go_around(self, seat: int) -> bool:
        """True while ``seat`` has not discarded and nobody has called (tenhou, kyuushu…)."""
        return not self.any_call and self.discards_made[seat] == 0

    def _flip_dora(self) -> None:
        marker = self.wall.dora[len(self.dora_markers)]
        self.dora_markers.append(marker)
        self._emit(Event("dora", dora_marker=marker))

    def _flip_pending_dora(self) -> None:
        while self.pending_dora:
            self.pending_dora -= 1
            self._flip_dora()

    # ------------------------------------------------------------------ legal actions
    def _rule_self_actions(self, seat: int) -> list[Event]:
        """After a draw: tsumo win, kans, nine-terminal draw, riichi, discards."""
        drawn = self.drawn
        assert drawn is not None
        out = self._win_self_actions(seat) + self._kan_actions(seat)
        if (
            self.rules.abortive_draws
            and self._first_go_around(seat)
            and len({KIND[t] for t in self.hands[seat]} & _TERMINAL_HONOR) >= 9
        ):
            out.append(Event("ryukyoku", actor=seat, kind="nine_terminals"))
        if self.rules.nukidora:
            out += self._kita_actions(seat)
        if self.riichi[seat]:
            out.append(Event("dahai", actor=seat, pai=drawn, tsumogiri=True))
            return out
        if self._can_declare_riichi(seat):
            out.append(Event("reach", actor=seat))
        out += self._discards(seat, drawn)
        return out

    def _kita_actions(self, seat: int) -> list[Event]:
        """Setting a North aside: with a replacement tile left, never after a pon (no draw
        then), and in riichi only the North just drawn (the waits stay as they were)."""
        if not self.counts[seat][NORTH] or self.wall.remaining <= 0:
            return []
        if self.wall.replacements_left <= 0:
            return []
        if self.riichi[seat] and (self.drawn is None or KIND[self.drawn] != NORTH):
            return []
        tile = next(t for t in self.hands[seat] if KIND[t] == NORTH)
        return [Event("nukidora", actor=seat, pai=tile)]

    def _rule_can_win_self(self, seat: int) -> bool:
        drawn = self.drawn
        assert drawn is not None
        return is_complete(self.counts[seat]) and bool(self._score(seat, seat, drawn, tsumo=True))

    def _rule_can_win_on(self, seat: int, tile: int, discarder: int, robbing: bool) -> bool:
        if KIND[tile] not in self.waits_of(seat) or self._furiten(seat):
            return False
        return self._score(seat, discarder, tile, tsumo=False, chankan=robbing) is not None

    def _rule_might_win_on(self, seat: int, kind: int) -> bool:
        return kind in self.waits_of(seat)

    def _rule_may_call(self, seat: int) -> bool:
        return not self.riichi[seat] and self.wall.remaining > 0

    def _rule_may_kan(self, seat: int) -> bool:
        return (
            self.wall.remaining > 0 and self.kan_count < 4 and self.wall.replacements_left > 0
        )

    def _rule_kakan_allowed(self, seat: int, kind: int) -> bool:
        return not self.riichi[seat]

    def _rule_ankan_allowed(self, seat: int, kind: int) -> bool:
        """Outside riichi always; in riichi only with the drawn tile and unchanged waits."""
        if not self.riichi[seat]:
            return True
        if self.drawn is None or KIND[self.drawn] != kind:
            return False
        counts = self.counts[seat]
        counts[kind] -= 1
        before = tuple(waits(counts))
        counts[kind] -= 3
        after = tuple(waits(counts))
        counts[kind] += 4
        return before == after and bool(after)

    def _rule_banned_after_call(
        self, kind: int, consumed: Sequence[int], call: str
    ) -> tuple[int, ...]:
        """Kuikae: the called kind, and with ``strict`` the other end of a chi's run."""
        if self.rules.kuikae == "none":
            return ()
        if call == "pon":
            return (kind,)
        lo = min(KIND[c] for c in consumed)
        hi = max(KIND[c] for c in consumed)
        banned = [kind]
        if self.rules.kuikae == "strict":
            if kind < lo and hi % 9 < 8:
                banned.append(hi + 1)
            elif kind > hi and lo % 9 > 0:
                banned.append(lo - 1)
        return tuple(banned)

    def _rule_rob_candidates(self, seat: int, tile: int, kan_seat: int, closed: bool) -> bool:
        if self.kita_pending:
            # a ron on a North set aside is an ordinary ron (no chankan yaku)
            return self._rule_can_win_on(seat, tile, kan_seat, False)
        if closed:
            return (
                self.rules.kokushi_robs_ankan
                and self._kokushi_ready(seat)
                and self._rule_can_win_on(seat, tile, kan_seat, True)
            )
        return self._rule_can_win_on(seat, tile, kan_seat, True)

    def _riichi_discards(self, seat: int) -> list[Event]:
        """Discards that leave the hand ready, offered after a riichi declaration."""
        out: list[Event] = []
        counts = self.counts[seat]
        ready: dict[int, bool] = {}
        for e in self._discards(seat, self.drawn):
            assert e.pai is not None
            k = KIND[e.pai]
            if k not in ready:
                counts[k] -= 1
                ready[k] = shanten(counts) == 0
                counts[k] += 1
            if ready[k]:
                out.append(e)
        return out

    def _can_declare_riichi(self, seat: int) -> bool:
        r = self.rules
        if self.riichi[seat] or any(m.is_open for m in self.melds[seat]):
            return False
        if self.scores[seat] < r.riichi_min_points or self.wall.remaining < r.riichi_min_wall_tiles:
            return False
        # A 14-tile hand's shanten is the best over its discards: <= 0 means some discard
        # leaves it ready.
        return shanten(self.counts[seat]) <= 0

    def _furiten(self, seat: int) -> bool:
        if self.furiten_temp[seat] or self.furiten_riichi[seat]:
            return True
        river_kinds = {KIND[t] for t in self.rivers[seat]}
        return any(w in river_kinds for w in self.waits_of(seat))

    def _kokushi_ready(self, seat: int) -> bool:
        c = self.counts[seat]
        return sum(1 for k in _TERMINAL_HONOR if c[k]) >= 12 and not self.melds[seat]

    # ------------------------------------------------------------------ scoring
    def _score(
        self,
        seat: int,
        target: int,
        tile: int,
        *,
        tsumo: bool,
        chankan: bool = False,
        kyotaku: int | None = None,
        honba: int | None = None,
    ) -> WinOutcome | None:
        hand = tuple(self.hands[seat]) if tsumo else (*self.hands[seat], tile)
        last = self.wall.remaining == 0
        first = self._first_go_around(seat)
        req = WinRequest(
            seat=seat,
            target=target,
            hand=hand,
            melds=tuple(self.melds[seat]),
            win_tile=tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=27 + self.bakaze,
            dealer=self.oya,
            riichi=self.riichi[seat],
            double_riichi=self.double_riichi[seat],
            ippatsu=self.ippatsu[seat],
            haitei=tsumo and last and not self.after_kan,
            houtei=not tsumo and last and not chankan,
            rinshan=tsumo and self.after_kan,
            chankan=chankan,
            tenhou=tsumo and first and seat == self.oya,
            chiihou=tsumo and first and seat != self.oya,
            dora_markers=tuple(self.dora_markers),
            ura_markers=tuple(self.wall.ura[: len(self.dora_markers)]) if self.riichi[seat] else (),
            honba=self.honba if honba is None else honba,
            kyotaku=self.kyotaku if kyotaku is None else kyotaku,
            pao=self.pao[seat],
            nukidora=len(self.nukidora[seat]),
        )
        return self.scorer(req, self.rules)

    # ------------------------------------------------------------------ turn hooks
    def _rule_extra_action(self, seat: int, a: Event) -> None:
        if a.type == "ryukyoku":
            self._abort("nine_terminals", seat)
        elif a.type == "nukidora":
            self._kita(seat, a)
        elif a.type == "reach":
            self._emit(a)
            self.reach_pending = seat
            self.phase = "discard"
            self._pending = [self._decide(seat, self._riichi_discards(seat))]
        else:
            super()._rule_extra_action(seat, a)

    def _kita(self, seat: int, a: Event) -> None:
        """Set a North aside; the others may ron it before the replacement draw."""
        assert a.pai is not None
        self._remove(seat, a.pai)
        self.nukidora[seat].append(a.pai)
        self.drawn = None
        self._emit(a)
        self.kita_pending = True
        self._open_rob(seat, a.pai, closed=False)

    def _rule_before_discard(self, seat: int, action: Event) -> None:
        # An open kan's dora turns when its caller discards (Tenhou; records show the DORA
        # element just before the discard).
        self._flip_pending_dora()

    def _rule_after_discard(self, seat: int, tile: int) -> None:
        if self.reach_pending == seat:
            self.riichi[seat] = True
            self.double_riichi[seat] = self.discards_made[seat] == 1 and not self.any_call
        elif self.riichi[seat]:
            self.ippatsu[seat] = False
        self.furiten_temp[seat] = False

    def _mark_missed(self, seat: int, tile: int, answer: Event | None) -> None:
        """Passing a winning tile makes a hand furiten (for good once in riichi)."""
        if (answer is None or answer.type != "hora") and KIND[tile] in self.waits_of(seat):
            if self.riichi[seat]:
                self.furiten_riichi[seat] = True
            else:
                self.furiten_temp[seat] = True

    def _rule_discard_passed(self, discarder: int, tile: int, answers: Mapping[int, Event]) -> bool:
        for s in range(self.players):
            if s != discarder:
                self._mark_missed(s, tile, answers.get(s))
        if self.reach_pending == discarder:
            # Riichi stands once its discard is not won on, before any call on it.
            self.reach_pending = None
            self.scores[discarder] -= self.rules.riichi_deposit
            self.kyotaku += 1
            self.ippatsu[discarder] = True
            self._emit(Event("reach_accepted", actor=discarder, scores=tuple(self.scores)))
            if self.rules.abortive_draws and self.players == 4 and all(self.riichi):
                self._abort("four_riichi")
                return True
        return False

    def _rule_before_draw(self, discarder: int) -> bool:
        if self.rules.abortive_draws and self._four_winds():
            self._abort("four_winds")
            return True
        if self.rules.four_kan_abort and self.kan_count == 4 and len(set(self.kans_by)) > 1:
            self._abort("four_kans")
            return True
        return False

    def _four_winds(self) -> bool:
        if self.players != 4 or self.any_call or any(d != 1 for d in self.discards_made):
            return False
        first = [KIND[r[0]] for r in self.rivers]
        return first[0] in _WINDS and all(k == first[0] for k in first)

    def _rule_on_call(self, seat: int, meld: Meld) -> None:
        self.ippatsu = [False] * self.players
        if not self.rules.pao_yakuman or meld.target is None:
            return
        have = (KIND[m.tiles[0]] for m in self.melds[seat] if m.type != "chi")
        if completes_pao_sets(KIND[meld.tiles[0]], have):
            self.pao[seat] = meld.target

    def _rule_on_kan(self, seat: int, meld: Meld) -> None:
        self.ippatsu = [False] * self.players
        # An earlier kan's pending dora turns first; a robbed kakan never gets here, so it
        # reveals nothing (mjai-reviewer's double_kakan_then_chankan record).
        self._flip_pending_dora()
        if meld.type == "ankan" or not self.rules.open_kan_dora_after_discard:
            self._flip_dora()
        else:
            self.pending_dora += 1

    def _rule_kan_stands(
        self, seat: int, tile: int, closed: bool, answers: Mapping[int, Event]
    ) -> None:
        for s in range(self.players):
            if s != seat and (not closed or self._kokushi_ready(s)):
                self._mark_missed(s, tile, answers.get(s))
        if self.kita_pending:
            # A North set aside stands: it ends every ippatsu and the first go-around, like
            # a call.  It reveals no dora of its own but, like a kan, turns the one an earlier
            # open kan still owes (records: kakan, nukidora, DORA, replacement draw).
            self.kita_pending = False
            self.ippatsu = [False] * self.players
            self.any_call = True
            self._flip_pending_dora()
            return
        super()._rule_kan_stands(seat, tile, closed, answers)

    # ------------------------------------------------------------------ endings
    def _rule_wins(
        self, seats: list[int], target: int, tile: int, *, tsumo: bool, robbing: bool
    ) -> None:
        if len(seats) == 3 and self.rules.triple_ron_abort:
            self._abort("triple_ron")
            return
        if len(seats) > 1 and not self.rules.double_ron:
            seats = seats[:1]
        self.reach_pending = None
        # Robbing a closed kan (kokushi only) or a North set aside is not the chankan yaku.
        chankan = (
            robbing
            and not self.kita_pending
            and not (self.kan_in_progress and self.kan_in_progress[2])
        )
        total = [0] * self.players
        for i, s in enumerate(seats):
            first = i == 0
            out = self._score(
                s,
                target,
                tile,
                tsumo=tsumo,
                chankan=chankan,
                kyotaku=self.kyotaku if first else 0,
                honba=self.honba if first else 0,
            )
            assert out is not None, "a win offered as legal must score"
            for j in range(self.players):
                total[j] += out.deltas[j]
            ura = tuple(self.wall.ura[: len(self.dora_markers)]) if self.riichi[s] else ()
            self._emit(
                Event(
                    "hora",
                    actor=s,
                    target=target,
                    pai=tile,
                    deltas=out.deltas,
                    ura_markers=ura,
                    hora_tehais=tuple(self.hands[s]),
                    han=out.han,
                    fu=out.fu,
                    yaku=out.yaku,
                    pao=out.pao,
                )
            )
        for j in range(self.players):
            self.scores[j] += total[j]
        self.kyotaku = 0
        self._end(RoundResult("hora", total, winners=list(seats), tenpai=[False] * self.players))

    def _abort(self, kind: str, actor: int | None = None) -> None:
        """End the round drawn; ``actor`` is the declarer (nine terminals) if there is one."""
        n = self.players
        self._emit(Event("ryukyoku", actor=actor, kind=kind, deltas=(0,) * n))
        self._end(RoundResult("abortive", [0] * n, abort=kind, tenpai=[False] * n))

    def is_tenpai(self, seat: int) -> bool:
        """Ready, with a winning tile the player does not hold all four of (``rules.karaten``
        says whether the copies in the player's own melds count)."""
        held = list(self.counts[seat])
        if self.rules.karaten == "hand_and_melds":
            for m in self.melds[seat]:
                for t in m.tiles:
                    held[KIND[t]] += 1
            held[NORTH] += len(self.nukidora[seat])
        return any(held[w] < 4 for w in self.waits_of(seat))

    def _rule_exhaustive(self) -> None:
        n = self.players
        tenpai = [self.is_tenpai(s) for s in range(n)]
        deltas = [0] * n
        nagashi = [s for s in range(n) if self.rules.nagashi_mangan and self._nagashi(s)]
        if nagashi:
            for s in nagashi:
                for j, d in enumerate(nagashi_mangan_payments(s, self.oya, self.rules)):
                    deltas[j] += d
            kind = "nagashi_mangan"
        else:
            ready = sum(tenpai)
            pot = self.rules.noten_penalty
            if 0 < ready < n:
                for s in range(n):
                    deltas[s] = pot // ready if tenpai[s] else -pot // (n - ready)
            kind = "exhaustive"
        for j in range(n):
            self.scores[j] += deltas[j]
        self._emit(
            Event(
                "ryukyoku",
                kind=kind,
                deltas=tuple(deltas),
                tehais=tuple(tuple(self.hands[s]) if tenpai[s] else None for s in range(n)),
            )
        )
        self._end(RoundResult("exhaustive", deltas, tenpai=tenpai))

    def _nagashi(self, seat: int) -> bool:
        river = self.rivers[seat]
        return (
            bool(river)
            and not any(self.river_called[seat])
            and all(KIND[t] in _TERMINAL_HONOR for t in river)
        )

    def _end(self, result: RoundResult) -> None:
        self.result = result
        self.phase = "ended"
        self._pending = []
        self._emit(Event("end_kyoku"))

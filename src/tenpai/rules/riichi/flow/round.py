"""One Riichi hand (kyoku), from the deal to a win or a draw, as a decision-driven state machine.

The round advances on its own until somebody must choose (draws, dora flips, deposits and
abortive-draw checks are automatic), then waits in :meth:`RiichiRound.pending` for the answers.
Every change is emitted as an :class:`~tenpai.events.Event`, so the event list *is* the record.

Rule details follow the Tenhou ranked lobby unless a :class:`RiichiRules` flag says otherwise;
the timing choices that records pin down (kan dora after the replacement draw for open kans,
riichi accepted before a call on the declaring discard) are noted where they happen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tenpai import tiles as T
from tenpai.engine.flow import Decision, IllegalActionError
from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.hand import is_complete, shanten, waits
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.flow.types import WinOutcome, WinRequest
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["RiichiRound", "RoundResult", "Scorer"]

Scorer = Callable[[WinRequest, RiichiRules], WinOutcome | None]
Phase = Literal["act", "discard", "claim", "rob", "ended"]

_NONE = Event("none")
_KIND = tuple(T.kind_of(t) for t in range(T.NUM_TILES))
#: Shared, immutable discard events: _DAHAI[seat][tile][tsumogiri].
_DAHAI = tuple(
    tuple(
        (
            Event("dahai", actor=s, pai=t, tsumogiri=False),
            Event("dahai", actor=s, pai=t, tsumogiri=True),
        )
        for t in range(T.NUM_TILES)
    )
    for s in range(4)
)
_TERMINAL_HONOR = frozenset(k for k in range(34) if T.is_terminal_or_honor(k))
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)


@dataclass(slots=True)
class RoundResult:
    """How the round ended, for the game's progression."""

    kind: Literal["hora", "exhaustive", "abortive"]
    deltas: list[int]
    winners: list[int] = field(default_factory=list)
    tenpai: list[bool] = field(default_factory=lambda: [False] * 4)
    abort: str | None = None
    kyotaku_taken: bool = False


class RiichiRound:
    """State and transitions of one kyoku (four players)."""

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
    ) -> None:
        self.rules = rules
        self.wall = wall
        self.bakaze = bakaze
        self.kyoku = kyoku
        self.oya = kyoku % 4
        self.honba = honba
        self.kyotaku = kyotaku
        self.scores = list(scores)
        self.scorer = scorer
        self.events: list[Event] = []
        self._emit_hook = emit
        self.hands: list[list[int]] = [list(h) for h in wall.hands]
        self.counts: list[list[int]] = [T.counts34(h) for h in self.hands]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.rivers: list[list[int]] = [[] for _ in range(4)]
        self.river_called: list[list[bool]] = [[] for _ in range(4)]
        self.dora_markers: list[int] = [wall.dora[0]]
        self.riichi = [False] * 4
        self.double_riichi = [False] * 4
        self.ippatsu = [False] * 4
        self.furiten_temp = [False] * 4
        self.furiten_riichi = [False] * 4
        self.discards_made = [0] * 4
        self.kans_by: list[int] = []
        self.pao: list[int | None] = [None] * 4
        self.any_call = False
        self.turn = self.oya
        self.drawn: int | None = None
        self.phase: Phase = "act"
        self.after_kan = False
        self.pending_dora = 0
        self.reach_pending: int | None = None
        self.last_discard: tuple[int, int] | None = None
        self.kakan_tile: tuple[int, int, bool] | None = None
        self.kuikae: tuple[int, ...] = ()
        self.result: RoundResult | None = None
        self._waits_cache: list[tuple[int, ...] | None] = [None] * 4
        self._pending: list[Decision] = []
        self._emit(
            Event(
                "start_kyoku",
                bakaze=bakaze,
                kyoku=kyoku,
                honba=honba,
                kyotaku=kyotaku,
                oya=self.oya,
                scores=tuple(self.scores),
                tehais=tuple(tuple(h) for h in self.hands),
                dora_marker=wall.dora[0],
            )
        )
        self._draw(self.oya)

    # ------------------------------------------------------------------ plumbing
    def _emit(self, e: Event) -> None:
        self.events.append(e)
        if self._emit_hook is not None:
            self._emit_hook(e)

    @property
    def done(self) -> bool:
        return self.phase == "ended"

    def pending(self) -> list[Decision]:
        return self._pending

    def _add(self, seat: int, tile: int) -> None:
        self.hands[seat].append(tile)
        self.counts[seat][T.kind_of(tile)] += 1
        self._waits_cache[seat] = None

    def _remove(self, seat: int, tile: int) -> None:
        try:
            self.hands[seat].remove(tile)
        except ValueError:
            raise IllegalActionError(
                seat, Event("dahai", actor=seat, pai=tile), (), "a tile not in hand"
            ) from None
        self.counts[seat][T.kind_of(tile)] -= 1
        self._waits_cache[seat] = None

    def waits_of(self, seat: int) -> tuple[int, ...]:
        """Kinds that complete a 13-tile-equivalent hand (cached until the hand changes)."""
        w = self._waits_cache[seat]
        if w is None:
            w = tuple(waits(self.counts[seat]))
            self._waits_cache[seat] = w
        return w

    def seat_wind(self, seat: int) -> int:
        return 27 + (seat - self.oya) % 4

    @property
    def kan_count(self) -> int:
        return len(self.kans_by)

    def _first_go_around(self, seat: int) -> bool:
        """True while ``seat`` has not discarded and nobody has called (tenhou, kyuushu…)."""
        return not self.any_call and self.discards_made[seat] == 0

    # ------------------------------------------------------------------ drawing
    def _draw(self, seat: int, rinshan: bool = False) -> None:
        tile = self.wall.draw_rinshan() if rinshan else self.wall.draw()
        self.turn = seat
        self.drawn = tile
        self.after_kan = rinshan
        self._add(seat, tile)
        self._emit(Event("tsumo", actor=seat, pai=tile))
        self.phase = "act"
        self._pending = [
            Decision(seat, tuple(self._self_actions(seat)), RiichiObservation(self, seat))
        ]

    def _flip_dora(self) -> None:
        marker = self.wall.dora[len(self.dora_markers)]
        self.dora_markers.append(marker)
        self._emit(Event("dora", dora_marker=marker))

    # ------------------------------------------------------------------ legal actions
    def _self_actions(self, seat: int) -> list[Event]:
        """Actions after a draw: tsumo win, kans, riichi, nine-terminal draw, discards."""
        out: list[Event] = []
        drawn = self.drawn
        assert drawn is not None
        if is_complete(self.counts[seat]) and self._score(seat, seat, drawn, tsumo=True):
            out.append(Event("hora", actor=seat, target=seat, pai=drawn))
        counts = self.counts[seat]
        can_kan = self.wall.remaining > 0 and self.kan_count < 4
        if can_kan:
            for k in range(34):
                if counts[k] == 4 and self._ankan_allowed(seat, k):
                    tiles = tuple(sorted(t for t in self.hands[seat] if T.kind_of(t) == k))
                    out.append(Event("ankan", actor=seat, consumed=tiles))
            if not self.riichi[seat]:
                for m in self.melds[seat]:
                    if m.type == "pon":
                        k = T.kind_of(m.tiles[0])
                        if counts[k]:
                            added = next(t for t in self.hands[seat] if T.kind_of(t) == k)
                            out.append(Event("kakan", actor=seat, pai=added, consumed=m.tiles))
        if (
            self._first_go_around(seat)
            and len({T.kind_of(t) for t in self.hands[seat]} & _TERMINAL_HONOR) >= 9
            and self.rules.abortive_draws
        ):
            out.append(Event("ryukyoku", actor=seat, kind="nine_terminals"))
        if self.riichi[seat]:
            out.append(Event("dahai", actor=seat, pai=drawn, tsumogiri=True))
            return out
        if self._can_declare_riichi(seat):
            out.append(Event("reach", actor=seat))
        out += self._discards(seat, drawn)
        return out

    def _discards(self, seat: int, drawn: int | None, banned: tuple[int, ...] = ()) -> list[Event]:
        """Every distinct discard; the drawn tile (last in hand) also as a tsumogiri."""
        table = _DAHAI[seat]
        hand = self.hands[seat]
        rest = hand if drawn is None else hand[:-1]
        if banned:
            kinds = _KIND
            out = [table[t][0] for t in sorted(set(rest)) if kinds[t] not in banned]
        else:
            out = [table[t][0] for t in sorted(set(rest))]
        if drawn is not None:
            out.append(table[drawn][1])
        return out

    def _riichi_discards(self, seat: int) -> list[Event]:
        """Discards that leave the hand ready, offered after a riichi declaration."""
        out: list[Event] = []
        counts = self.counts[seat]
        ready: dict[int, bool] = {}
        for e in self._discards(seat, self.drawn):
            assert e.pai is not None
            k = _KIND[e.pai]
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

    def _ankan_allowed(self, seat: int, kind: int) -> bool:
        """Outside riichi always; in riichi only with the drawn tile and unchanged waits."""
        if not self.riichi[seat]:
            return True
        if self.drawn is None or T.kind_of(self.drawn) != kind:
            return False
        counts = self.counts[seat]
        counts[kind] -= 1
        before = tuple(waits(counts))
        counts[kind] -= 3
        after = tuple(waits(counts))
        counts[kind] += 4
        return before == after and bool(after)

    def _claims(self, seat: int, tile: int, discarder: int) -> list[Event]:
        """What ``seat`` may do with another player's discard (ron, pon, kan, chi)."""
        out: list[Event] = []
        k = _KIND[tile]
        counts = self.counts[seat]
        if k in self.waits_of(seat) and self._can_ron(seat, tile, discarder):
            out.append(Event("hora", actor=seat, target=discarder, pai=tile))
        if self.riichi[seat] or self.wall.remaining == 0:
            return out
        n = counts[k]
        chi_ok = seat == (discarder + 1) % 4 and k < 27
        if n < 2 and not chi_ok:
            return out
        hand = self.hands[seat]
        if n >= 2:
            same = [t for t in hand if _KIND[t] == k]
            for pair in sorted({tuple(sorted(p)) for p in _pairs(same)}):
                if self._has_discard_after(seat, pair, k, tile, "pon"):
                    out.append(Event("pon", actor=seat, target=discarder, pai=tile, consumed=pair))
            if n == 3 and self.kan_count < 4:
                out.append(
                    Event(
                        "daiminkan",
                        actor=seat,
                        target=discarder,
                        pai=tile,
                        consumed=tuple(sorted(same)),
                    )
                )
        if chi_ok:
            num = k % 9
            for da, db in ((-2, -1), (-1, 1), (1, 2)):
                if num + da < 0 or num + db > 8:
                    continue
                a, b = k + da, k + db
                if not (counts[a] and counts[b]):
                    continue
                opts_a = sorted({t for t in hand if _KIND[t] == a})
                opts_b = sorted({t for t in hand if _KIND[t] == b})
                for ta in opts_a:
                    for tb in opts_b:
                        if self._has_discard_after(seat, (ta, tb), k, tile, "chi"):
                            out.append(
                                Event(
                                    "chi", actor=seat, target=discarder, pai=tile, consumed=(ta, tb)
                                )
                            )
        return out

    def _kuikae_kinds(self, kind: int, consumed: Sequence[int], call: str) -> tuple[int, ...]:
        """Kinds that may not be discarded right after a call (swap-calling ban)."""
        if self.rules.kuikae == "none":
            return ()
        if call == "pon":
            return (kind,)
        lo = min(T.kind_of(c) for c in consumed)
        hi = max(T.kind_of(c) for c in consumed)
        banned = [kind]
        if self.rules.kuikae == "strict":
            if kind < lo and hi % 9 < 8:
                banned.append(hi + 1)
            elif kind > hi and lo % 9 > 0:
                banned.append(lo - 1)
        return tuple(banned)

    def _has_discard_after(
        self, seat: int, consumed: Sequence[int], kind: int, tile: int, call: str
    ) -> bool:
        banned = set(self._kuikae_kinds(kind, consumed, call))
        left = list(self.hands[seat])
        for c in consumed:
            left.remove(c)
        return any(T.kind_of(t) not in banned for t in left)

    def _furiten(self, seat: int) -> bool:
        if self.furiten_temp[seat] or self.furiten_riichi[seat]:
            return True
        river_kinds = {T.kind_of(t) for t in self.rivers[seat]}
        return any(w in river_kinds for w in self.waits_of(seat))

    def _can_ron(self, seat: int, tile: int, discarder: int, chankan: bool = False) -> bool:
        k = T.kind_of(tile)
        if k not in self.waits_of(seat) or self._furiten(seat):
            return False
        return self._score(seat, discarder, tile, tsumo=False, chankan=chankan) is not None

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
        )
        return self.scorer(req, self.rules)

    # ------------------------------------------------------------------ stepping
    def step(self, answers: Mapping[int, Event]) -> None:
        """Apply the pending seats' answers (a missing answer means "pass")."""
        if self.phase == "ended":
            raise RuntimeError("the round is over")
        chosen: dict[int, Event] = {}
        for d in self._pending:
            a = answers.get(d.seat, _NONE)
            if a.type == "none" and self.phase in ("claim", "rob"):
                chosen[d.seat] = a
                continue
            if not any(a is e for e in d.legal) and a not in d.legal:
                raise IllegalActionError(d.seat, a, d.legal, self._where())
            chosen[d.seat] = a
        for s in answers:
            if s not in chosen:
                raise IllegalActionError(
                    s, answers[s], (), f"{self._where()} (not this seat's turn)"
                )
        if self.phase in ("act", "discard"):
            ((seat, action),) = chosen.items()
            self._self_step(seat, action)
        else:
            self._resolve_claims(chosen)

    def _where(self) -> str:
        return f"{'ESWN'[self.bakaze]}{self.kyoku + 1}-{self.honba}, event {len(self.events)}"

    def _self_step(self, seat: int, a: Event) -> None:
        t = a.type
        if t == "hora":
            self._win([seat], target=seat, tile=a.pai, tsumo=True)
        elif t == "ryukyoku":
            self._abort("nine_terminals")
        elif t == "reach":
            self._emit(a)
            self.reach_pending = seat
            self.phase = "discard"
            self._pending = [
                Decision(seat, tuple(self._riichi_discards(seat)), RiichiObservation(self, seat))
            ]
        elif t == "dahai":
            self._discard(seat, a)
        elif t == "ankan":
            self._ankan(seat, a)
        elif t == "kakan":
            self._kakan(seat, a)
        else:
            raise IllegalActionError(seat, a, (), self._where())

    def _discard(self, seat: int, a: Event) -> None:
        assert a.pai is not None
        while self.pending_dora:
            self.pending_dora -= 1
            self._flip_dora()
        self._remove(seat, a.pai)
        self._emit(a)
        self.rivers[seat].append(a.pai)
        self.river_called[seat].append(False)
        if self.reach_pending == seat:
            self.riichi[seat] = True
            self.double_riichi[seat] = self._first_go_around(seat)
        elif self.riichi[seat]:
            self.ippatsu[seat] = False
        self.discards_made[seat] += 1
        self.furiten_temp[seat] = False
        self.drawn = None
        self.kuikae = ()
        self.last_discard = (seat, a.pai)
        self._open_claims(seat, a.pai)

    def _open_claims(self, discarder: int, tile: int) -> None:
        decisions = []
        for s in range(4):
            if s == discarder:
                continue
            legal = self._claims(s, tile, discarder)
            if legal:
                decisions.append(Decision(s, (*legal, _NONE), RiichiObservation(self, s)))
        self.phase = "claim"
        self._pending = decisions
        if not decisions:
            self._after_discard_passed(discarder, {})

    def _mark_missed(self, seat: int, tile: int, answer: Event | None) -> None:
        """Passing a winning tile makes a hand furiten (for good once in riichi)."""
        if (answer is None or answer.type != "hora") and T.kind_of(tile) in self.waits_of(seat):
            if self.riichi[seat]:
                self.furiten_riichi[seat] = True
            else:
                self.furiten_temp[seat] = True

    def _resolve_claims(self, chosen: Mapping[int, Event]) -> None:
        if self.phase == "rob":
            self._resolve_rob(chosen)
            return
        assert self.last_discard is not None
        discarder, tile = self.last_discard
        rons = [s for s, a in chosen.items() if a.type == "hora"]
        if rons:
            rons.sort(key=lambda s: (s - discarder) % 4)
            self._win(rons, target=discarder, tile=tile, tsumo=False)
            return
        self._after_discard_passed(discarder, chosen)

    def _after_discard_passed(self, discarder: int, chosen: Mapping[int, Event]) -> None:
        assert self.last_discard is not None
        _, tile = self.last_discard
        for s in range(4):
            if s != discarder:
                self._mark_missed(s, tile, chosen.get(s))
        if self.reach_pending == discarder:
            self.reach_pending = None
            self.scores[discarder] -= self.rules.riichi_deposit
            self.kyotaku += 1
            self.ippatsu[discarder] = True
            self._emit(Event("reach_accepted", actor=discarder, scores=tuple(self.scores)))
            if self.rules.abortive_draws and all(self.riichi):
                self._abort("four_riichi")
                return
        calls = [a for a in chosen.values() if a.type in ("pon", "daiminkan", "chi")]
        calls.sort(key=lambda a: 0 if a.type != "chi" else 1)
        if calls:
            self._call(calls[0])
            return
        if self.rules.abortive_draws and self._four_winds():
            self._abort("four_winds")
            return
        if self.rules.four_kan_abort and self.kan_count == 4 and len(set(self.kans_by)) > 1:
            self._abort("four_kans")
            return
        if self.wall.remaining == 0:
            self._exhaustive()
            return
        self._draw((discarder + 1) % 4)

    def _four_winds(self) -> bool:
        if self.any_call or any(d != 1 for d in self.discards_made):
            return False
        first = [T.kind_of(r[0]) for r in self.rivers]
        return first[0] in _WINDS and all(k == first[0] for k in first)

    def _call(self, a: Event) -> None:
        seat, target, tile = a.actor, a.target, a.pai
        assert seat is not None and target is not None and tile is not None
        for c in a.consumed:
            self._remove(seat, c)
        self.river_called[target][-1] = True
        meld = Meld(a.type, tuple(sorted((*a.consumed, tile), key=T.kind_of)), tile, target)  # type: ignore[arg-type]
        self.melds[seat].append(meld)
        self.any_call = True
        self.ippatsu = [False] * 4
        self._emit(a)
        self._check_pao(seat, meld)
        self.turn = seat
        if a.type == "daiminkan":
            self.kans_by.append(seat)
            self._kan_dora_later()
            self._draw(seat, rinshan=True)
            return
        self.kuikae = self._kuikae_kinds(T.kind_of(tile), a.consumed, a.type)
        self.drawn = None
        self.phase = "discard"
        self._pending = [
            Decision(
                seat, tuple(self._discards(seat, None, self.kuikae)), RiichiObservation(self, seat)
            )
        ]

    def _check_pao(self, seat: int, meld: Meld) -> None:
        if not self.rules.pao_yakuman or meld.target is None:
            return
        k = T.kind_of(meld.tiles[0])
        for group in (_DRAGONS, _WINDS):
            if k not in group:
                continue
            have = {T.kind_of(m.tiles[0]) for m in self.melds[seat] if m.type != "chi"}
            if all(g in have for g in group):
                self.pao[seat] = meld.target

    def _ankan(self, seat: int, a: Event) -> None:
        for c in a.consumed:
            self._remove(seat, c)
        self.melds[seat].append(Meld("ankan", tuple(a.consumed)))
        self.kans_by.append(seat)
        self.any_call = True
        self.ippatsu = [False] * 4
        self._emit(a)
        while self.pending_dora:
            self.pending_dora -= 1
            self._flip_dora()
        self._flip_dora()
        tile = a.consumed[0]
        robbers = []
        if self.rules.kokushi_robs_ankan:
            for s in range(4):
                if s != seat and self._kokushi_ready(s) and self._can_ron(s, tile, seat, True):
                    robbers.append(
                        Decision(
                            s,
                            (Event("hora", actor=s, target=seat, pai=tile), _NONE),
                            RiichiObservation(self, s),
                        )
                    )
        self._open_rob(seat, tile, robbers, ankan=True)

    def _kokushi_ready(self, seat: int) -> bool:
        c = self.counts[seat]
        return sum(1 for k in _TERMINAL_HONOR if c[k]) >= 12 and not self.melds[seat]

    def _kakan(self, seat: int, a: Event) -> None:
        assert a.pai is not None
        self._remove(seat, a.pai)
        k = T.kind_of(a.pai)
        i = next(
            i
            for i, m in enumerate(self.melds[seat])
            if m.type == "pon" and T.kind_of(m.tiles[0]) == k
        )
        old = self.melds[seat][i]
        self.melds[seat][i] = Meld("kakan", (*old.tiles, a.pai), old.called, old.target, a.pai)
        self.kans_by.append(seat)
        self._emit(a)
        robbers = []
        for s in range(4):
            if s != seat:
                legal = self._rob_claims(s, a.pai, seat)
                if legal:
                    robbers.append(Decision(s, (*legal, _NONE), RiichiObservation(self, s)))
        self._open_rob(seat, a.pai, robbers, ankan=False)

    def _rob_claims(self, seat: int, tile: int, kan_seat: int) -> list[Event]:
        if self._can_ron(seat, tile, kan_seat, chankan=True):
            return [Event("hora", actor=seat, target=kan_seat, pai=tile)]
        return []

    def _open_rob(self, seat: int, tile: int, robbers: list[Decision], *, ankan: bool) -> None:
        self.kakan_tile = (seat, tile, ankan)
        self.phase = "rob"
        self._pending = robbers
        if not robbers:
            self._resolve_rob({})

    def _resolve_rob(self, chosen: Mapping[int, Event]) -> None:
        assert self.kakan_tile is not None
        seat, tile, ankan = self.kakan_tile
        rons = sorted(
            (s for s, a in chosen.items() if a.type == "hora"), key=lambda s: (s - seat) % 4
        )
        if rons:
            self._win(rons, target=seat, tile=tile, tsumo=False, chankan=not ankan)
            return
        for s in range(4):
            if s != seat and (not ankan or self._kokushi_ready(s)):
                self._mark_missed(s, tile, chosen.get(s))
        if not ankan:
            # A robbed kan never happened, so ippatsu ends only once the kan stands.
            self.ippatsu = [False] * 4
            self.any_call = True
            # An earlier kan's pending dora turns only once this kan stands (a robbed kakan
            # reveals nothing: mjai-reviewer's double_kakan_then_chankan record).
            while self.pending_dora:
                self.pending_dora -= 1
                self._flip_dora()
            self._kan_dora_later()
        self._draw(seat, rinshan=True)

    def _kan_dora_later(self) -> None:
        """An open or added kan's dora: after the next discard (or kan), or at once."""
        if self.rules.open_kan_dora_after_discard:
            self.pending_dora += 1
        else:
            self._flip_dora()

    # ------------------------------------------------------------------ endings
    def _win(
        self, seats: list[int], *, target: int, tile: int | None, tsumo: bool, chankan: bool = False
    ) -> None:
        assert tile is not None
        if len(seats) == 3 and self.rules.triple_ron_abort:
            self._abort("triple_ron")
            return
        if len(seats) > 1 and not self.rules.double_ron:
            seats = seats[:1]
        if self.reach_pending is not None:
            self.reach_pending = None
        total = [0] * 4
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
            for j in range(4):
                total[j] += out.deltas[j]
            self._emit(
                Event(
                    "hora",
                    actor=s,
                    target=target,
                    pai=tile,
                    deltas=out.deltas,
                    ura_markers=tuple(self.wall.ura[: len(self.dora_markers)])
                    if self.riichi[s]
                    else (),
                    hora_tehais=tuple(self.hands[s]),
                    han=out.han,
                    fu=out.fu,
                    yaku=out.yaku,
                )
            )
        for j in range(4):
            self.scores[j] += total[j]
        self.kyotaku = 0
        self._end(RoundResult("hora", total, winners=list(seats), kyotaku_taken=True))

    def _abort(self, kind: str) -> None:
        self._emit(Event("ryukyoku", kind=kind, deltas=(0, 0, 0, 0)))
        self._end(RoundResult("abortive", [0, 0, 0, 0], abort=kind))

    def is_tenpai(self, seat: int) -> bool:
        """Ready, with at least one winning tile not all held by the player (Tenhou's rule)."""
        held = list(self.counts[seat])
        for m in self.melds[seat]:
            for t in m.tiles:
                held[T.kind_of(t)] += 1
        return any(held[w] < 4 for w in self.waits_of(seat))

    def _exhaustive(self) -> None:
        tenpai = [self.is_tenpai(s) for s in range(4)]
        deltas = [0] * 4
        nagashi = [s for s in range(4) if self.rules.nagashi_mangan and self._nagashi(s)]
        if nagashi:
            for s in nagashi:
                for j in range(4):
                    if j == s:
                        continue
                    pay = 4000 if (s == self.oya or j == self.oya) else 2000
                    deltas[j] -= pay
                    deltas[s] += pay
            kind = "nagashi_mangan"
        else:
            n = sum(tenpai)
            if 0 < n < 4:
                for s in range(4):
                    deltas[s] = 3000 // n if tenpai[s] else -3000 // (4 - n)
            kind = "exhaustive"
        for j in range(4):
            self.scores[j] += deltas[j]
        self._emit(
            Event(
                "ryukyoku",
                kind=kind,
                deltas=tuple(deltas),
                tehais=tuple(tuple(self.hands[s]) if tenpai[s] else None for s in range(4)),
            )
        )
        self._end(RoundResult("exhaustive", deltas, tenpai=tenpai))

    def _nagashi(self, seat: int) -> bool:
        river = self.rivers[seat]
        return (
            bool(river)
            and not any(self.river_called[seat])
            and all(T.kind_of(t) in _TERMINAL_HONOR for t in river)
        )

    def _end(self, result: RoundResult) -> None:
        self.result = result
        self.phase = "ended"
        self._pending = []
        self._emit(Event("end_kyoku"))


def _pairs(tiles: list[int]) -> list[tuple[int, int]]:
    return [(tiles[i], tiles[j]) for i in range(len(tiles)) for j in range(i + 1, len(tiles))]

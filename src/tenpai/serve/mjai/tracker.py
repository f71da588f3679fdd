"""One seat's picture of a Riichi hand, rebuilt from the mjai events that seat receives.

An mjai bot sees only a stream of events: its own deal and draws, everyone's discards, calls,
riichi, dora, results.  :class:`SeatTracker` follows that stream and keeps what the rules need to
decide what the seat may do next — its concealed tiles (drawn tile last), every meld and river,
riichi and ippatsu, furiten, kuikae, the kan count, the live wall — without any engine object.
It follows the same rule timings as :class:`tenpai.rules.riichi.flow.round.RiichiRound` (riichi
stands at its discard, ippatsu broken by any call or kan, furiten after a passed winning tile),
so that :mod:`tenpai.serve.mjai.legal` derives exactly the actions the engine would offer; a
test checks the two against each other at every decision of many seeded games.

Inconsistent input (a discard of a tile the seat does not hold, a call on an empty river, a
discard with no draw before it, a fifth copy of a tile, a deal of the wrong size, a win with
nothing to win on) raises :class:`TrackerError` naming the event: a bot must not act on a state
it knows to be wrong, and a stream that cannot happen says nothing an agent should answer.

Three players (``rules.players == 3``, the ``tenhou_sanma`` preset): three hands and scores in
``start_kyoku``, no chi, and a North set aside (``nukidora``) on one's own turn, which the others
may ron like a discard and which is then followed by a replacement draw — the engine's timings
again (it stands like a call: ippatsu and the first go-around end; passing it is furiten).
"""

from __future__ import annotations

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.hand import waits
from tenpai.rules.riichi.payments import completes_pao_sets
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules

__all__ = [
    "LIVE_WALL_AFTER_DEAL",
    "NORTH",
    "SeatTracker",
    "TrackerError",
    "banned_after_call",
    "live_wall_after_deal",
]

#: Live wall tiles after a four-player deal (136 - 14 dead wall - 52 dealt).
LIVE_WALL_AFTER_DEAL = 70
#: Replacement draws a hand may have: four kans (and, with three players, four Norths).
_REPLACEMENTS = {4: 4, 3: 8}
#: The North kind (the tile a three-player hand may set aside).
NORTH = 30
_CALLS = frozenset({"chi", "pon", "daiminkan"})
#: Events a replacement draw follows.
_REPLACED = frozenset({"ankan", "kakan", "daiminkan", "nukidora"})


class TrackerError(ValueError):
    """The event stream contradicts what the seat knows (or arrives out of order)."""


def live_wall_after_deal(players: int) -> int:
    """Live wall tiles once ``players`` hands are dealt: 70 of 136, or 55 of 108 (three
    players play without the manzu 2-8)."""
    tiles = 136 if players == 4 else 108
    return tiles - 14 - 13 * players


class SeatTracker:
    """The state of the current hand as ``seat`` knows it (see the module docstring)."""

    def __init__(self, seat: int, rules: RiichiRules = TENHOU) -> None:
        #: Seats at the table: 4, or 3 under a three-player preset.
        self.players = n = rules.players
        if not 0 <= seat < n:
            raise TrackerError(f"seat must be 0-{n - 1}, got {seat}")
        self.seat = seat
        self.rules = rules
        self.in_round = False
        self.names: tuple[str, ...] = ()
        self.round_events: list[Event] = []
        self.scores = [rules.starting_points] * n
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.players
        self.hand: list[int] = []
        self.counts = [0] * 34
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.rivers: list[list[int]] = [[] for _ in range(n)]
        self.river_called: list[list[bool]] = [[] for _ in range(n)]
        #: Norths each seat has set aside (three players).
        self.nukidora: list[list[int]] = [[] for _ in range(n)]
        self.discards_made = [0] * n
        self.kans = 0
        #: Replacement draws taken so far (kans and Norths set aside).
        self.replacements = 0
        self.any_call = False
        self.turn = 0
        self.drawn: int | None = None
        self.after_kan = False
        self.riichi = [False] * n
        self.double_riichi = [False] * n
        self.ippatsu = [False] * n
        self.reach_pending: int | None = None
        self.furiten_temp = False
        self.furiten_riichi = False
        self.pao: int | None = None
        self.banned: tuple[int, ...] = ()
        self.dora_markers: list[int] = []
        self.wall_remaining = live_wall_after_deal(n)
        self.bakaze = self.kyoku = self.honba = self.kyotaku = self.oya = 0
        self.last: Event | None = None
        self._missed: int | None = None
        self._kan_by: int | None = None
        self._waits: tuple[int, ...] | None = None
        #: The seat that drew (or called) and must discard now; None between turns.
        self.to_discard: int | None = None
        #: True when the hand was rebuilt mid-way (Tenhou's REINIT) and whose turn it is was
        #: not said: the next turn event is taken as it comes.
        self.turn_unknown = False
        #: Copies of each kind this seat has seen (own tiles, others' discards and calls,
        #: dora markers), and of each red five: a fifth copy means a corrupt stream.
        self.seen = [0] * 34
        self.seen_red: dict[int, int] = {}

    # ------------------------------------------------------------------ helpers
    def seat_wind(self, seat: int | None = None) -> int:
        return 27 + ((self.seat if seat is None else seat) - self.oya) % self.players

    def replacements_left(self) -> int:
        """Replacement draws still possible (a kan or a North set aside takes one)."""
        return _REPLACEMENTS[self.players] - self.replacements

    def waits(self) -> tuple[int, ...]:
        """Kinds completing the seat's hand when it holds 3k+1 tiles (cached until it changes)."""
        if self._waits is None:
            self._waits = tuple(waits(self.counts))
        return self._waits

    def first_go_around(self) -> bool:
        return not self.any_call and self.discards_made[self.seat] == 0

    def furiten(self) -> bool:
        if self.furiten_temp or self.furiten_riichi:
            return True
        river = {T.kind_of(t) for t in self.rivers[self.seat]}
        return any(w in river for w in self.waits())

    def _see(self, tile: int, e: Event) -> None:
        """One more physical tile became visible to this seat."""
        if T.is_flower(tile):
            raise TrackerError(f"{e.type} shows a flower, which Riichi has not: {e.to_mjai()}")
        k = T.kind_of(tile)
        self.seen[k] += 1
        if self.seen[k] > 4:
            raise TrackerError(f"{e.type} shows a fifth {T.to_mjai(k)}: {e.to_mjai()}")
        if T.is_red(tile):
            self.seen_red[tile] = self.seen_red.get(tile, 0) + 1
            if self.seen_red[tile] > 1:
                raise TrackerError(f"{e.type} shows a second red {T.to_mjai(tile)}: "
                                   f"{e.to_mjai()}")

    def _concealed_size(self) -> int:
        """Tiles the seat holds between turns: 13 less three per meld (a kan's fourth tile is
        replaced by its extra draw)."""
        return 13 - 3 * len(self.melds[self.seat])

    def _add(self, tile: int) -> None:
        self.hand.append(tile)
        self.counts[T.kind_of(tile)] += 1
        self._waits = None

    def _remove(self, tile: int, what: str) -> None:
        try:
            self.hand.remove(tile)
        except ValueError:
            raise TrackerError(
                f"{what}: seat {self.seat} does not hold {T.to_mjai(tile)} "
                f"(hand {' '.join(T.to_mjai(t) for t in self.hand)})"
            ) from None
        self.counts[T.kind_of(tile)] -= 1
        self._waits = None

    def _mark_missed(self, tile: int) -> None:
        """Passing a winning tile makes the hand furiten (until the next discard, or for good
        in riichi) — whether or not the win would have had a yaku, as on Tenhou."""
        if T.kind_of(tile) in self.waits():
            if self.riichi[self.seat]:
                self.furiten_riichi = True
            else:
                self.furiten_temp = True

    # ------------------------------------------------------------------ feeding
    def apply(self, e: Event) -> None:
        """Follow one event (already as this seat sees it)."""
        t = e.type
        if t == "start_game":
            self.names = e.names
            self.in_round = False
            return
        if t == "start_kyoku":
            self._start(e)
            return
        if t in ("end_game", "none"):
            return
        if not self.in_round:
            raise TrackerError(f"{t} outside a hand (no start_kyoku before it)")
        self.round_events.append(e)
        if self._missed is not None and t != "hora":
            self._mark_missed(self._missed)
        self._missed = None
        kan_by, self._kan_by = self._kan_by, None
        if kan_by is not None and t != "hora":
            self._kan_stands(kan_by)
        handler = getattr(self, f"_on_{t}", None)
        if handler is not None:
            handler(e)
        self.last = e

    def _start(self, e: Event) -> None:
        self._check_start(e)
        self._reset_round()
        self.in_round = True
        self.round_events = [e]
        self.bakaze = e.bakaze or 0
        self.kyoku = e.kyoku or 0
        self.honba = e.honba or 0
        self.kyotaku = e.kyotaku or 0
        self.oya = e.oya if e.oya is not None else self.kyoku
        self.turn = self.oya
        if len(e.scores) == self.players:
            self.scores = list(e.scores)
        mine = e.tehais[self.seat]
        if mine is None:
            raise TrackerError(f"start_kyoku does not show seat {self.seat}'s hand")
        for tile in mine:
            self._see(tile, e)
            self._add(tile)
        if e.dora_marker is not None:
            self._see(e.dora_marker, e)
            self.dora_markers.append(e.dora_marker)
        self.last = e

    def _turn_of(self, seat: int) -> bool:
        """Whether ``seat`` is the one to discard (or declare) now."""
        if self.turn_unknown:
            self.turn_unknown = False
            return True
        return self.to_discard == seat

    def _check_start(self, e: Event) -> None:
        """A deal that cannot be: one hand per seat, a dealer and a round of the table.  (A
        hand's size is checked by the bot on the message: Tenhou's REINIT rebuilds a hand
        mid-way.)"""
        n = self.players
        if len(e.tehais) != n:
            raise TrackerError(f"start_kyoku deals {len(e.tehais)} hands, not {n} "
                               f"(rules {self.rules.name}: {n} players)")
        if e.oya is not None and not 0 <= e.oya < n:
            raise TrackerError(f"start_kyoku names dealer seat {e.oya}, not 0-{n - 1}")
        if e.kyoku is not None and not 0 <= e.kyoku < n:
            raise TrackerError(f"start_kyoku round {e.kyoku + 1} is not 1-{n}")
        for name in ("honba", "kyotaku"):
            value = getattr(e, name)
            if value is not None and value < 0:
                raise TrackerError(f"start_kyoku {name} {value} is negative")
        if e.scores and len(e.scores) != n:
            raise TrackerError(f"start_kyoku gives {len(e.scores)} scores, not {n}")

    def _actor(self, e: Event) -> int:
        if e.actor is None or not 0 <= e.actor < self.players:
            raise TrackerError(f"{e.type} without a valid actor: {e.to_mjai()}")
        return e.actor

    def _on_tsumo(self, e: Event) -> None:
        seat = self._actor(e)
        if self.wall_remaining <= 0:
            raise TrackerError("a draw from an empty wall")
        if self.to_discard is not None and not self.turn_unknown:
            raise TrackerError(f"tsumo by seat {seat} while seat {self.to_discard} has yet to "
                               f"discard: {e.to_mjai()}")
        self.turn_unknown = False
        if seat == self.seat and len(self.hand) != self._concealed_size():
            raise TrackerError(f"tsumo to a hand of {len(self.hand)} tiles (seat {seat} holds "
                               f"{self._concealed_size()} between turns): {e.to_mjai()}")
        self.to_discard = seat
        self.wall_remaining -= 1
        # A replacement draw follows its kan, perhaps with dora turned in between.
        before = next((p for p in reversed(self.round_events[:-1]) if p.type != "dora"), None)
        self.after_kan = before is not None and before.type in _REPLACED
        if self.after_kan:
            self.replacements += 1
        self.turn = seat
        if seat == self.seat:
            if e.pai is None:
                raise TrackerError("own draw without its tile")
            self._see(e.pai, e)
            self._add(e.pai)
            self.drawn = e.pai
        else:
            self.drawn = None

    def _on_dahai(self, e: Event) -> None:
        seat = self._actor(e)
        if e.pai is None:
            raise TrackerError(f"dahai without a tile: {e.to_mjai()}")
        if not self._turn_of(seat):
            raise TrackerError(f"dahai by seat {seat} with no draw or call before it: "
                               f"{e.to_mjai()}")
        self.to_discard = None
        if seat == self.seat:
            self._remove(e.pai, "dahai")
            self.drawn = None
            self.banned = ()
            self.furiten_temp = False
        else:
            self._see(e.pai, e)
        self.rivers[seat].append(e.pai)
        self.river_called[seat].append(False)
        self.discards_made[seat] += 1
        if self.reach_pending == seat:
            self.riichi[seat] = True
            self.double_riichi[seat] = self.discards_made[seat] == 1 and not self.any_call
        elif self.riichi[seat]:
            self.ippatsu[seat] = False
        if seat != self.seat:
            self._missed = e.pai

    def _on_reach(self, e: Event) -> None:
        seat = self._actor(e)
        if not self._turn_of(seat):
            raise TrackerError(f"reach by seat {seat}, who has not just drawn: {e.to_mjai()}")
        if self.riichi[seat] or self.reach_pending is not None:
            raise TrackerError(f"reach by seat {seat} during another riichi declaration or "
                               f"after its own: {e.to_mjai()}")
        if any(m.type != "ankan" for m in self.melds[seat]):
            raise TrackerError(f"reach by seat {seat} with an open hand: {e.to_mjai()}")
        self.reach_pending = seat

    def _on_reach_accepted(self, e: Event) -> None:
        seat = self._actor(e)
        if self.reach_pending != seat:
            raise TrackerError(f"reach_accepted of seat {seat}, who declared no riichi: "
                               f"{e.to_mjai()}")
        self.reach_pending = None
        self.riichi[seat] = True
        self.ippatsu[seat] = True
        self.kyotaku += 1
        if len(e.scores) == self.players:
            self.scores = list(e.scores)
        else:
            self.scores[seat] -= self.rules.riichi_deposit

    def _on_dora(self, e: Event) -> None:
        if e.dora_marker is None:
            raise TrackerError("dora without its marker")
        self._see(e.dora_marker, e)
        self.dora_markers.append(e.dora_marker)

    def _claimed(self, e: Event) -> tuple[int, int, int]:
        seat = self._actor(e)
        target, tile = e.target, e.pai
        if target is None or tile is None or not 0 <= target < self.players:
            raise TrackerError(f"{e.type} without target or tile: {e.to_mjai()}")
        if (self.to_discard is not None and not self.turn_unknown) or target == seat:
            raise TrackerError(f"{e.type} by seat {seat} when no discard can be called: "
                               f"{e.to_mjai()}")
        river = self.rivers[target]
        if not river or river[-1] != tile or self.river_called[target][-1]:
            raise TrackerError(f"{e.type} of a tile that is not seat {target}'s last discard")
        self.river_called[target][-1] = True
        return seat, target, tile

    def _call(self, e: Event) -> None:
        if e.type == "chi" and self.players != 4:
            raise TrackerError(f"chi at a {self.players}-player table, which has none: "
                               f"{e.to_mjai()}")
        seat, target, tile = self._claimed(e)
        if self.reach_pending is not None:
            # A call on the riichi discard: the deposit was accepted just before (Tenhou order).
            self.reach_pending = None
        if seat == self.seat:
            for c in e.consumed:
                self._remove(c, e.type)
        else:
            for c in e.consumed:
                self._see(c, e)
        if e.type != "daiminkan":  # a kan's caller draws its replacement tile first
            self.to_discard = seat
        tiles = tuple(sorted((*e.consumed, tile), key=T.kind_of))
        meld = Meld(e.type, tiles, tile, target)  # type: ignore[arg-type]
        self.melds[seat].append(meld)
        self.any_call = True
        self.ippatsu = [False] * self.players
        self.turn = seat
        self.drawn = None
        if seat == self.seat and self.rules.pao_yakuman:
            have = (T.kind_of(m.tiles[0]) for m in self.melds[seat] if m.type != "chi")
            if completes_pao_sets(T.kind_of(tile), have):
                self.pao = target
        if e.type == "daiminkan":
            self.kans += 1
        elif seat == self.seat:
            self.banned = banned_after_call(self.rules, T.kind_of(tile), e.consumed, e.type)

    _on_chi = _call
    _on_pon = _call
    _on_daiminkan = _call

    def _on_ankan(self, e: Event) -> None:
        seat = self._actor(e)
        self._own_turn_kan(seat, e)
        if seat == self.seat:
            if len(e.consumed) != 4:
                raise TrackerError(f"own ankan needs four tiles: {e.to_mjai()}")
            for c in e.consumed:
                self._remove(c, "ankan")
        else:
            for c in e.consumed:
                self._see(c, e)
        self.melds[seat].append(Meld("ankan", tuple(e.consumed)))
        self.kans += 1
        self.any_call = True
        self.ippatsu = [False] * self.players
        if seat != self.seat and e.consumed and self._kokushi_ready():
            self._missed = e.consumed[0]

    def _on_kakan(self, e: Event) -> None:
        seat = self._actor(e)
        if e.pai is None:
            raise TrackerError(f"kakan without a tile: {e.to_mjai()}")
        self._own_turn_kan(seat, e)
        if seat == self.seat:
            self._remove(e.pai, "kakan")
        else:
            self._see(e.pai, e)
        k = T.kind_of(e.pai)
        ms = self.melds[seat]
        i = next(
            (i for i, m in enumerate(ms) if m.type == "pon" and T.kind_of(m.tiles[0]) == k), -1
        )
        if i < 0:
            raise TrackerError(f"kakan without a pon of {T.to_mjai(e.pai)}")
        old = ms[i]
        ms[i] = Meld("kakan", (*old.tiles, e.pai), old.called, old.target, e.pai)
        self.kans += 1
        self._kan_by = seat
        if seat != self.seat:
            self._missed = e.pai

    def _on_nukidora(self, e: Event) -> None:
        """A North set aside (three players), in the seat's own turn instead of a discard; the
        others may ron it, then its replacement draw follows."""
        seat = self._actor(e)
        if not self.rules.nukidora:
            raise TrackerError(f"nukidora under rules {self.rules.name}, which set no North "
                               f"aside: {e.to_mjai()}")
        tile = e.pai
        if tile is None or T.kind_of(tile) != NORTH:
            raise TrackerError(f"nukidora of a tile that is not a North: {e.to_mjai()}")
        self._own_turn_kan(seat, e)
        if seat == self.seat:
            self._remove(tile, "nukidora")
            self.drawn = None
        else:
            self._see(tile, e)
        self.nukidora[seat].append(tile)
        self._kan_by = seat
        if seat != self.seat:
            self._missed = tile

    def _own_turn_kan(self, seat: int, e: Event) -> None:
        """A closed or added kan is declared in the seat's own turn, instead of a discard; its
        replacement draw follows."""
        if not self._turn_of(seat):
            raise TrackerError(f"{e.type} by seat {seat}, whose turn it is not: {e.to_mjai()}")
        self.to_discard = None

    def _kan_stands(self, seat: int) -> None:
        """An added kan (or a North set aside) nobody robbed: it now counts as a call and
        breaks ippatsu."""
        self.any_call = True
        self.ippatsu = [False] * self.players

    def _on_end_kyoku(self, e: Event) -> None:
        self.in_round = False

    def _on_hora(self, e: Event) -> None:
        self._check_win(e)
        if len(e.deltas) == self.players:
            self.scores = [s + d for s, d in zip(self.scores, e.deltas, strict=True)]
        if len(e.scores) == self.players:
            self.scores = list(e.scores)
        self.kyotaku = 0

    def _on_ryukyoku(self, e: Event) -> None:
        if len(e.deltas) == self.players:
            self.scores = [s + d for s, d in zip(self.scores, e.deltas, strict=True)]
        if len(e.scores) == self.players:
            self.scores = list(e.scores)

    def _check_win(self, e: Event) -> None:
        """A win needs something to win on: the winner's own draw (tsumo), or the tile just
        discarded or added to a kan (ron, chankan; a closed kan for thirteen orphans)."""
        seat = self._actor(e)
        target = seat if e.target is None else e.target
        if not 0 <= target < self.players:
            raise TrackerError(f"hora from seat {target}, not 0-{self.players - 1}: "
                               f"{e.to_mjai()}")
        if target == seat:
            if not self._turn_of(seat):
                raise TrackerError(f"hora (tsumo) by seat {seat}, who has not just drawn: "
                                   f"{e.to_mjai()}")
            return
        prev = next((p for p in reversed(self.round_events[:-1])
                     if p.type not in ("hora", "dora", "reach_accepted")), None)
        if (prev is None or prev.type not in ("dahai", "kakan", "ankan", "nukidora")
                or prev.actor != target):
            raise TrackerError(f"hora (ron) by seat {seat} on seat {target}, who has just "
                               f"discarded nothing: {e.to_mjai()}")
        if prev.actor == seat:
            raise TrackerError(f"hora by seat {seat} on its own discard: {e.to_mjai()}")

    # ------------------------------------------------------------------ questions
    def _kokushi_ready(self) -> bool:
        terminal_honour = sum(1 for k in range(34) if self.counts[k] and T.is_terminal_or_honor(k))
        return terminal_honour >= 12 and not self.melds[self.seat]

    def held_with_melds(self) -> list[int]:
        """Own concealed counts plus own melds' tiles and Norths set aside (for the 'all four
        held' tenpai rule)."""
        held = list(self.counts)
        for m in self.melds[self.seat]:
            for t in m.tiles:
                held[T.kind_of(t)] += 1
        held[NORTH] += len(self.nukidora[self.seat])
        return held


def banned_after_call(
    rules: RiichiRules, kind: int, consumed: tuple[int, ...], call: str
) -> tuple[int, ...]:
    """Kuikae: the called kind, and with the strict rule the other end of a chi's run."""
    if rules.kuikae == "none":
        return ()
    if call == "pon":
        return (kind,)
    lo = min(T.kind_of(c) for c in consumed)
    hi = max(T.kind_of(c) for c in consumed)
    banned = [kind]
    if rules.kuikae == "strict":
        if kind < lo and hi % 9 < 8:
            banned.append(hi + 1)
        elif kind > hi and lo % 9 > 0:
            banned.append(lo - 1)
    return tuple(banned)

"""One hand at a four- (or three-) seat table: the state machine every rule set shares.

The table owns what all our rule sets agree on: concealed hands with incremental counts, melds,
discard rivers, turn order, draws and replacement draws, the claim window after a discard (win >
pon/kan > chi), kans (closed, open, added) and the window to rob an added kan, and the events
and decisions that come out of it.  A rule set subclasses :class:`TableRound` and fills in the
hooks: what a win is worth, which calls are allowed, what else a player may do on their turn
(riichi, a ready declaration), abortive draws and the settlement of an exhaustive draw.

Phases: ``act`` (the player to move after a draw), ``discard`` (must discard: after a call or
a declaration), ``claim`` (others answer a discard), ``rob`` (others answer an added kan),
``ended``.  The round advances by itself until someone must choose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NoReturn

from tenpai import tiles as T
from tenpai.engine.flow import Decision, IllegalActionError
from tenpai.engine.meld import Meld
from tenpai.events import Event

__all__ = ["KIND", "NONE", "Phase", "TableRound"]

Phase = Literal["act", "discard", "claim", "rob", "ended"]

NONE = Event("none")
#: Kind of every tile code (-1 for flowers), as a tuple for fast indexing.
KIND = tuple(T.kind_of(t) for t in range(T.NUM_TILES))
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
_CALLS = frozenset({"pon", "daiminkan", "chi"})


class TableRound:
    """A hand in progress.  Subclasses implement the ``_rule_*`` hooks and ``_observe``.

    ``players`` seats (4, or 3 for three-player Riichi) play in turn order 0, 1, …; a rule set
    without chi (three-player Riichi) sets ``allow_chi`` to False.
    """

    players = 4
    allow_chi = True

    def __init__(
        self,
        hands: Sequence[Sequence[int]],
        *,
        dealer: int,
        emit: Callable[[Event], None] | None = None,
        players: int | None = None,
    ) -> None:
        if players is not None:
            self.players = players
        n = self.players
        self.events: list[Event] = []
        self._emit_hook = emit
        self.dealer = dealer
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.counts: list[list[int]] = [T.counts34(h) for h in self.hands]
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.rivers: list[list[int]] = [[] for _ in range(n)]
        self.river_called: list[list[bool]] = [[] for _ in range(n)]
        self.discards_made = [0] * n
        self.kans_by: list[int] = []
        self.any_call = False
        self.turn = dealer
        self.drawn: int | None = None
        self.phase: Phase = "act"
        self.after_kan = False
        self.last_discard: tuple[int, int] | None = None
        self.kan_in_progress: tuple[int, int, bool] | None = None
        self.banned_discards: tuple[int, ...] = ()
        self._pending: list[Decision] = []
        #: Each seat's waits, as :meth:`waits_of` last computed them (None: not since the hand
        #: changed).  Searches that rewrite hands in a copy reset it whole.
        self._waits_cache: list[tuple[int, ...] | None] = [None] * n

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

    @property
    def kan_count(self) -> int:
        return len(self.kans_by)

    @property
    def wall_remaining(self) -> int:
        """Tiles the next draw in turn can still come from; 0 means the discard being made is
        the hand's last.  Read-only and public (observations read it); each rule set's round
        overrides it, since what counts differs: the live wall in Riichi and the 108-tile game,
        the next player's own wall under MCR's per-seat walls."""
        raise NotImplementedError

    def _add(self, seat: int, tile: int) -> None:
        self.hands[seat].append(tile)
        self.counts[seat][KIND[tile]] += 1
        self._hand_changed(seat)

    def _remove(self, seat: int, tile: int) -> None:
        try:
            self.hands[seat].remove(tile)
        except ValueError:
            raise IllegalActionError(
                seat, Event("dahai", actor=seat, pai=tile), (), f"{self._where()}: not in hand"
            ) from None
        self.counts[seat][KIND[tile]] -= 1
        self._hand_changed(seat)

    def _hand_changed(self, seat: int) -> None:
        """Drop what is cached about ``seat``'s hand (its waits); a subclass that caches more
        extends this."""
        self._waits_cache[seat] = None

    def waits_of(self, seat: int) -> tuple[int, ...]:
        """Kinds that complete ``seat``'s 3k+1 concealed hand, cached until the hand changes:
        the rule set says what completes a hand (:meth:`_compute_waits`), the table when to ask
        again.  Agents, observations and the search ask this many times per decision."""
        w = self._waits_cache[seat]
        if w is None:
            w = self._compute_waits(seat)
            self._waits_cache[seat] = w
        return w

    def _compute_waits(self, seat: int) -> tuple[int, ...]:
        """The kinds that complete ``seat``'s 3k+1 concealed hand under this rule set (a rule
        set whose round never asks :meth:`waits_of`, such as MCR's, leaves it out)."""
        raise NotImplementedError

    def _decide(self, seat: int, legal: Sequence[Event]) -> Decision:
        return Decision(seat, tuple(legal), self._observe(seat))

    # ------------------------------------------------------------------ hooks
    def _observe(self, seat: int) -> Any:
        """What ``seat`` is shown when it decides."""
        raise NotImplementedError

    def _where(self) -> str:
        return f"event {len(self.events)}"

    def _take_tile(self, seat: int, replacement: bool) -> int:
        """The next tile for ``seat`` from the wall (or the replacement tile after a kan)."""
        raise NotImplementedError

    def _rule_self_actions(self, seat: int) -> list[Event]:
        """Everything the player to move may do after a draw, discards included."""
        return (
            self._win_self_actions(seat)
            + self._kan_actions(seat)
            + self._discards(seat, self.drawn)
        )

    def _rule_can_win_self(self, seat: int) -> bool:
        raise NotImplementedError

    def _rule_can_win_on(self, seat: int, tile: int, discarder: int, robbing: bool) -> bool:
        raise NotImplementedError

    def rules_allow_win_on(self, seat: int, tile: int, discarder: int) -> bool:
        """Whether the rules let ``seat`` win on ``tile`` discarded by ``discarder`` now (its
        yaku or fan minimum, its furiten where the rules have one), whatever it would answer.
        For tools that ask about a discard not thrown: an instrument's perfect defense, a
        playout's watch for wins the rules refuse."""
        return self._rule_can_win_on(seat, tile, discarder, False)

    def _rule_might_win_on(self, seat: int, kind: int) -> bool:
        """A cheap necessary condition for winning on ``kind`` (default: always possible)."""
        return True

    def _rule_may_call(self, seat: int) -> bool:
        """Whether ``seat`` may pon, kan or chi at all now (not in riichi, wall not empty…)."""
        return self.wall_remaining > 0

    def _rule_may_kan(self, seat: int) -> bool:
        return self.wall_remaining > 0

    def _rule_ankan_allowed(self, seat: int, kind: int) -> bool:
        return True

    def _rule_banned_after_call(
        self, kind: int, consumed: Sequence[int], call: str
    ) -> tuple[int, ...]:
        """Kinds that may not be discarded right after a call (none by default)."""
        return ()

    def _rule_rob_candidates(self, seat: int, tile: int, kan_seat: int, closed: bool) -> bool:
        """Whether ``seat`` may rob this kan (default: added kans only)."""
        return not closed and self._rule_can_win_on(seat, tile, kan_seat, True)

    def _rule_wins(
        self, seats: list[int], target: int, tile: int, *, tsumo: bool, robbing: bool
    ) -> None:
        """Settle a win (or several on one discard, in turn order from the discarder)."""
        raise NotImplementedError

    def _rule_extra_action(self, seat: int, action: Event) -> None:
        """A rule-specific action on one's turn (riichi, nine-terminal draw …)."""
        raise IllegalActionError(seat, action, (), self._where())

    def _rule_before_discard(self, seat: int, action: Event) -> None:
        """Hook before a discard is applied (dora turns, declarations)."""

    def _rule_after_discard(self, seat: int, tile: int) -> None:
        """Hook after a discard is in the river, before the claim window."""

    def _rule_discard_passed(self, discarder: int, tile: int, answers: Mapping[int, Event]) -> bool:
        """Hook once no win was declared on a discard; return True if the hand ended."""
        return False

    def _rule_before_draw(self, discarder: int) -> bool:
        """Hook before the next ordinary draw; return True if the hand ended (an abort)."""
        return False

    def _rule_on_call(self, seat: int, meld: Meld) -> None:
        """Hook after a pon/chi/open kan is on the table."""

    def _rule_on_kan(self, seat: int, meld: Meld) -> None:
        """Hook once a kan stands (not robbed), before the replacement draw."""

    def _rule_exhaustive(self) -> None:
        """Settle the hand when the wall runs out (must end the hand)."""
        raise NotImplementedError

    def _rule_max_winners(self, wins: int) -> int:
        """How many of several players winning on one discard actually win (default: one)."""
        return 1

    # ------------------------------------------------------------------ legal actions
    def _win_self_actions(self, seat: int) -> list[Event]:
        drawn = self.drawn
        if drawn is not None and self._rule_can_win_self(seat):
            return [Event("hora", actor=seat, target=seat, pai=drawn)]
        return []

    def _kan_actions(self, seat: int) -> list[Event]:
        if not self._rule_may_kan(seat):
            return []
        out: list[Event] = []
        counts = self.counts[seat]
        hand = self.hands[seat]
        if 4 in counts:  # most draws: no four of a kind, skip the scan
            for k in range(34):
                if counts[k] == 4 and self._rule_ankan_allowed(seat, k):
                    tiles = tuple(sorted(t for t in hand if KIND[t] == k))
                    out.append(Event("ankan", actor=seat, consumed=tiles))
        for m in self.melds[seat]:
            if m.type == "pon":
                k = KIND[m.tiles[0]]
                if counts[k] and self._rule_kakan_allowed(seat, k):
                    added = next(t for t in hand if KIND[t] == k)
                    out.append(Event("kakan", actor=seat, pai=added, consumed=m.tiles))
        return out

    def _rule_kakan_allowed(self, seat: int, kind: int) -> bool:
        return True

    def _discards(self, seat: int, drawn: int | None, banned: tuple[int, ...] = ()) -> list[Event]:
        """Every distinct discard; the drawn tile (last in hand) also as a tsumogiri."""
        table = _DAHAI[seat]
        hand = self.hands[seat]
        rest = hand if drawn is None else hand[:-1]
        if banned:
            out = [table[t][0] for t in sorted(set(rest)) if KIND[t] not in banned]
        else:
            out = [table[t][0] for t in sorted(set(rest))]
        if drawn is not None:
            out.append(table[drawn][1])
        return out

    def _claims(self, seat: int, tile: int, discarder: int) -> list[Event]:
        """What ``seat`` may do with another player's discard (win, pon, kan, chi)."""
        out: list[Event] = []
        k = KIND[tile]
        if self._rule_can_win_on(seat, tile, discarder, False):
            out.append(Event("hora", actor=seat, target=discarder, pai=tile))
        if not self._rule_may_call(seat):
            return out
        counts = self.counts[seat]
        n = counts[k]
        chi_ok = self.allow_chi and seat == (discarder + 1) % self.players and k < 27
        if n < 2 and not chi_ok:
            return out
        hand = self.hands[seat]
        if n >= 2:
            same = [t for t in hand if KIND[t] == k]
            for pair in sorted({tuple(sorted(p)) for p in _pairs(same)}):
                if self._has_discard_after(seat, pair, k, "pon"):
                    out.append(Event("pon", actor=seat, target=discarder, pai=tile, consumed=pair))
            if n == 3 and self._rule_may_kan(seat):
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
                for ta in sorted({t for t in hand if KIND[t] == a}):
                    for tb in sorted({t for t in hand if KIND[t] == b}):
                        if self._has_discard_after(seat, (ta, tb), k, "chi"):
                            out.append(
                                Event(
                                    "chi", actor=seat, target=discarder, pai=tile, consumed=(ta, tb)
                                )
                            )
        return out

    def _has_discard_after(self, seat: int, consumed: Sequence[int], kind: int, call: str) -> bool:
        banned = set(self._rule_banned_after_call(kind, consumed, call))
        left = list(self.hands[seat])
        for c in consumed:
            left.remove(c)
        return any(KIND[t] not in banned for t in left)

    # ------------------------------------------------------------------ drawing
    def _draw(self, seat: int, replacement: bool = False) -> None:
        tile = self._take_tile(seat, replacement)
        self.turn = seat
        self.drawn = tile
        self.after_kan = replacement
        self._add(seat, tile)
        self._emit(Event("tsumo", actor=seat, pai=tile))
        self.phase = "act"
        self._pending = [self._decide(seat, self._rule_self_actions(seat))]

    # ------------------------------------------------------------------ stepping
    def step(self, answers: Mapping[int, Event]) -> None:
        """Apply the pending seats' answers (a missing answer in a claim window is a pass)."""
        if self.phase == "ended":
            raise RuntimeError("the hand is over")
        chosen: dict[int, Event] = {}
        claiming = self.phase in ("claim", "rob")
        for d in self._pending:
            a = answers.get(d.seat, NONE)
            if claiming and a.type == "none":
                chosen[d.seat] = a
                continue
            # The usual answer is one of the offered objects: find it by identity first, since
            # ``in`` would call the dataclass ``__eq__`` on every entry before it.
            for e in d.legal:
                if e is a:
                    break
            else:
                if a not in d.legal:
                    raise IllegalActionError(d.seat, a, d.legal, self._where())
            chosen[d.seat] = a
        for s in answers:
            if s not in chosen:
                raise IllegalActionError(
                    s, answers[s], (), f"{self._where()} (not this seat's turn)"
                )
        if not claiming:
            ((seat, action),) = chosen.items()
            self._self_step(seat, action)
        elif self.phase == "claim":
            self._resolve_claims(chosen)
        else:
            self._resolve_rob(chosen)

    # ------------------------------------------------------------------ observed moves
    def apply_observed(self, action: Event) -> None:
        """Apply a move its player made, whether or not this round offered it to that seat.

        A view rebuilt from what one seat is told (a Botzone bot's state) runs a round in
        which the other hands are stand-ins: they are offered no real choice, and their moves
        arrive from outside.  Such a move is checked against the table — whose turn it is,
        the discard a call takes, the pong a kong adds to, the tiles in hand — not against the
        stand-in's offered actions, and then applied by the code a chosen move goes through
        (a discard opens its claim window, a kong its rob window).  A discard is taken as
        given (``tsumogiri`` included): the view cannot know whether it was the drawn tile.
        """
        seat, t = action.actor, action.type
        if seat is None or not 0 <= seat < self.players:
            self._refuse(action, "no seat of this table")
        if self.phase == "ended":
            self._refuse(action, "the hand is over")
        if t == "dahai":
            if self.phase not in ("act", "discard") or self.turn != seat or action.pai is None:
                self._refuse(action, f"not seat {seat}'s discard ({self.phase}, seat "
                             f"{self.turn}'s turn)")
            self._check_held(action, (action.pai,))
            self._discard(seat, action)
        elif t in _CALLS:
            target = action.target
            if (self.phase != "claim" or target is None or target == seat
                    or self.last_discard != (target, action.pai)
                    or (t == "chi" and (not self.allow_chi
                                        or seat != (target + 1) % self.players))):
                self._refuse(action, f"calls no discard open to seat {seat}")
            self._check_held(action, action.consumed)
            self._call(action)
        elif t in ("ankan", "kakan"):
            if self.phase != "act" or self.turn != seat:
                self._refuse(action, f"not seat {seat}'s turn to declare a kong ({self.phase},"
                             f" seat {self.turn}'s turn)")
            if t == "ankan":
                if len(action.consumed) != 4 or len({KIND[c] for c in action.consumed}) != 1:
                    self._refuse(action, "a concealed kong is four tiles of one kind")
                self._check_held(action, action.consumed)
                self._ankan(seat, action)
            else:
                if action.pai is None or not any(
                    m.type == "pon" and KIND[m.tiles[0]] == KIND[action.pai]
                    for m in self.melds[seat]
                ):
                    self._refuse(action, f"seat {seat} has no pong to add to")
                self._check_held(action, (action.pai,))
                self._kakan(seat, action)
        else:
            self._refuse(action, f"{t} is not a move of the table")

    def _refuse(self, action: Event, why: str) -> NoReturn:
        raise IllegalActionError(action.actor if action.actor is not None else -1, action, (),
                                 f"{self._where()}: {why}")

    def _check_held(self, action: Event, tiles: Sequence[int]) -> None:
        """Every tile the move shows is in its player's hand (checked before anything moves,
        so a refused move leaves the round as it was)."""
        assert action.actor is not None
        hand = self.hands[action.actor]
        for t in set(tiles):
            if hand.count(t) < tiles.count(t):
                self._refuse(action, f"seat {action.actor} does not hold {T.to_mjai(t)}")

    def _self_step(self, seat: int, a: Event) -> None:
        t = a.type
        if t == "dahai":
            self._discard(seat, a)
        elif t == "hora":
            assert a.pai is not None
            self._rule_wins([seat], seat, a.pai, tsumo=True, robbing=False)
        elif t == "ankan":
            self._ankan(seat, a)
        elif t == "kakan":
            self._kakan(seat, a)
        else:
            self._rule_extra_action(seat, a)

    def _discard(self, seat: int, a: Event) -> None:
        assert a.pai is not None
        self._rule_before_discard(seat, a)
        self._remove(seat, a.pai)
        self._emit(a)
        self.rivers[seat].append(a.pai)
        self.river_called[seat].append(False)
        self.discards_made[seat] += 1
        self.drawn = None
        self.banned_discards = ()
        self.last_discard = (seat, a.pai)
        self._rule_after_discard(seat, a.pai)
        decisions = []
        k = KIND[a.pai]
        n = self.players
        nxt = (seat + 1) % n if self.allow_chi else -1
        for s in range(n):
            if s == seat:
                continue
            # Cheap screen first: most discards interest nobody (no pair, no chi, no wait).
            c = self.counts[s]
            if c[k] < 2 and not self._rule_might_win_on(s, k):
                if s != nxt or k >= 27:
                    continue
                n = k % 9
                if not (
                    (n >= 2 and c[k - 2] and c[k - 1])
                    or (1 <= n <= 7 and c[k - 1] and c[k + 1])
                    or (n <= 6 and c[k + 1] and c[k + 2])
                ):
                    continue
            legal = self._claims(s, a.pai, seat)
            if legal:
                decisions.append(self._decide(s, (*legal, NONE)))
        self.phase = "claim"
        self._pending = decisions
        if not decisions:
            self._after_discard(seat, {})

    def _resolve_claims(self, chosen: Mapping[int, Event]) -> None:
        assert self.last_discard is not None
        discarder, tile = self.last_discard
        wins = [s for s, a in chosen.items() if a.type == "hora"]
        if wins:
            wins.sort(key=lambda s: (s - discarder) % self.players)
            self._rule_wins(wins, discarder, tile, tsumo=False, robbing=False)
            return
        self._after_discard(discarder, chosen)

    def _after_discard(self, discarder: int, chosen: Mapping[int, Event]) -> None:
        assert self.last_discard is not None
        if self._rule_discard_passed(discarder, self.last_discard[1], chosen):
            return
        calls = [a for a in chosen.values() if a.type in _CALLS]
        if calls:
            calls.sort(key=lambda a: 1 if a.type == "chi" else 0)
            self._call(calls[0])
            return
        if self._rule_before_draw(discarder):
            return
        if self.wall_remaining == 0:
            self._rule_exhaustive()
            return
        self._draw((discarder + 1) % self.players)

    def _call(self, a: Event) -> None:
        seat, target, tile = a.actor, a.target, a.pai
        assert seat is not None and target is not None and tile is not None
        for c in a.consumed:
            self._remove(seat, c)
        self.river_called[target][-1] = True
        tiles = tuple(sorted((*a.consumed, tile), key=lambda t: KIND[t]))
        meld = Meld(a.type, tiles, tile, target)  # type: ignore[arg-type]
        self.melds[seat].append(meld)
        self.any_call = True
        self._emit(a)
        self._rule_on_call(seat, meld)
        self.turn = seat
        if a.type == "daiminkan":
            self.kans_by.append(seat)
            self._rule_on_kan(seat, meld)
            self._draw(seat, replacement=True)
            return
        self.banned_discards = self._rule_banned_after_call(KIND[tile], a.consumed, a.type)
        self.drawn = None
        self.phase = "discard"
        self._pending = [self._decide(seat, self._discards(seat, None, self.banned_discards))]

    def _ankan(self, seat: int, a: Event) -> None:
        for c in a.consumed:
            self._remove(seat, c)
        meld = Meld("ankan", tuple(a.consumed))
        self.melds[seat].append(meld)
        self.kans_by.append(seat)
        self.any_call = True
        self._emit(a)
        self._rule_on_kan(seat, meld)
        self._open_rob(seat, a.consumed[0], closed=True)

    def _kakan(self, seat: int, a: Event) -> None:
        assert a.pai is not None
        self._remove(seat, a.pai)
        k = KIND[a.pai]
        i = next(
            i for i, m in enumerate(self.melds[seat]) if m.type == "pon" and KIND[m.tiles[0]] == k
        )
        old = self.melds[seat][i]
        self.melds[seat][i] = Meld("kakan", (*old.tiles, a.pai), old.called, old.target, a.pai)
        self.kans_by.append(seat)
        self._emit(a)
        self._open_rob(seat, a.pai, closed=False)

    def _open_rob(self, seat: int, tile: int, *, closed: bool) -> None:
        self.kan_in_progress = (seat, tile, closed)
        robbers = [
            self._decide(s, (Event("hora", actor=s, target=seat, pai=tile), NONE))
            for s in range(self.players)
            if s != seat and self._rule_rob_candidates(s, tile, seat, closed)
        ]
        self.phase = "rob"
        self._pending = robbers
        if not robbers:
            self._resolve_rob({})

    def _resolve_rob(self, chosen: Mapping[int, Event]) -> None:
        assert self.kan_in_progress is not None
        seat, tile, closed = self.kan_in_progress
        wins = sorted(
            (s for s, a in chosen.items() if a.type == "hora"),
            key=lambda s: (s - seat) % self.players,
        )
        if wins:
            self._rule_wins(wins, seat, tile, tsumo=False, robbing=True)
            return
        self._rule_kan_stands(seat, tile, closed, chosen)
        self._draw(seat, replacement=True)

    def _rule_kan_stands(
        self, seat: int, tile: int, closed: bool, answers: Mapping[int, Event]
    ) -> None:
        """Hook once nobody robbed a kan (an added kan now counts as declared)."""
        if not closed:
            self.any_call = True
            meld = next(m for m in self.melds[seat] if m.type == "kakan" and m.added == tile)
            self._rule_on_kan(seat, meld)


def _pairs(tiles: list[int]) -> list[tuple[int, int]]:
    return [(tiles[i], tiles[j]) for i in range(len(tiles)) for j in range(i + 1, len(tiles))]

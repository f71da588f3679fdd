"""One seat's view of a Botzone match, rebuilt from the judge's requests on our own engine.

A bot sees its own tiles and what the others do, never their tiles.  To give our agents the
same observations and legal actions the in-process engine gives them, the view runs a real
:class:`~tenpai.rules.mcr.flow.round.MCRRound` (Botzone preset: no flowers, one wall of 21
draws per seat) in which the other three hands are *stand-ins*: tiles the seat has not seen,
taken from the unseen pool.  When a request shows another player using a tile (a discard, a
pong, a kong) the stand-in hand is made to hold it — swapped in from the pool or from another
stand-in hand — so the engine can apply the move with its own code.  Tile counts stay
conservative (four of each kind in all), so nothing public (melds, rivers, wall counts, the
fans a win would score) depends on the stand-ins; only this seat's observation is shown to the
agent, and it never reveals other hands.

Draws the seat cannot know yet (its own replacement draw arrives as the next request; the
engine draws as soon as a kong stands) are taken as a stand-in and fixed when the ``2 t``
request names the tile.  A request that cannot follow the state (out of order, a fifth copy
of a tile, a move nobody could make) raises :class:`StateError` with one line.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Literal, TypedDict

from tenpai import tiles as T
from tenpai.engine.flow import IllegalActionError
from tenpai.engine.meld import Meld
from tenpai.engine.table import KIND, NONE
from tenpai.events import Event
from tenpai.rules.mcr.flow.observation import MCRObservation
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE
from tenpai.rules.mcr.flow.wall import HAND, WallError
from tenpai.rules.mcr.game import tileset_for
from tenpai.serve.botzone.protocol import Request

__all__ = ["WALL_PER_SEAT", "SeatState", "StateError"]

#: Tiles each seat draws from its own wall (34 per seat, 13 dealt).
WALL_PER_SEAT = 136 // 4 - HAND


class StateError(ValueError):
    """A request that does not fit the match so far (one-line message)."""


class _FedWall:
    """Per-seat wall counts; the tiles come from the seat state (known, or a stand-in)."""

    def __init__(self, hands: Sequence[Sequence[int]], state: SeatState) -> None:
        self.hands = [list(h) for h in hands]
        self.left = [WALL_PER_SEAT] * 4
        self.known: dict[int, int] = {}
        self.standin: dict[int, bool] = {}
        self._state = state

    def draw(self, seat: int) -> int:
        if self.left[seat] <= 0:
            raise WallError(f"seat {seat}'s wall is empty")
        self.left[seat] -= 1
        tile = self.known.pop(seat, None)
        if tile is None:
            self.standin[seat] = True
            return self._state.take_unseen()
        self.standin[seat] = False
        self._state.take_from_unseen(tile)
        return tile

    def draw_replacement(self, seat: int) -> int:
        return self.draw(seat)

    def remaining_for(self, seat: int) -> int:
        return self.left[seat]

    @property
    def total_remaining(self) -> int:
        return sum(self.left)

    def undrawn_tiles(self) -> list[int]:
        return []


class PublicView(TypedDict):
    """What a seat knows, in comparable form (see :meth:`SeatState.public_view`)."""

    hand: list[int]
    melds: list[list[tuple[str, tuple[int, ...]]]]
    rivers: list[list[tuple[int, bool]]]
    wall: list[int]


class _ShadowRound(MCRRound):
    """The engine's round, except that stand-in seats never decide anything themselves: their
    claim and rob windows always stay open (only the next request says what they did), and
    their own turns offer only discards (their real choice arrives as a request)."""

    def __init__(self, me: int, wall: _FedWall, prevalent_wind: int) -> None:
        self.standins = frozenset(s for s in range(4) if s != me)
        super().__init__(BOTZONE, wall, dealer=0, prevalent_wind=prevalent_wind)

    def _claims(self, seat: int, tile: int, discarder: int) -> list[Event]:
        if seat in self.standins:
            return [NONE]
        return super()._claims(seat, tile, discarder)

    def _rule_might_win_on(self, seat: int, kind: int) -> bool:
        return seat in self.standins or super()._rule_might_win_on(seat, kind)

    def _rule_rob_candidates(self, seat: int, tile: int, kan_seat: int, closed: bool) -> bool:
        if seat in self.standins:
            return not closed
        return super()._rule_rob_candidates(seat, tile, kan_seat, closed)

    def _rule_self_actions(self, seat: int) -> list[Event]:
        if seat in self.standins:
            return self._discards(seat, self.drawn)
        return super()._rule_self_actions(seat)

    def set_tile(self, seat: int, i: int, tile: int) -> None:
        """Put ``tile`` at position ``i`` of hand ``seat`` (stand-in tiles are swapped as moves
        show them; the hand's counts and caches follow)."""
        old = self.hands[seat][i]
        self.hands[seat][i] = tile
        self.counts[seat][KIND[old]] -= 1
        self.counts[seat][KIND[tile]] += 1
        self._hand_changed(seat)

    def name_drawn(self, seat: int, tile: int) -> None:
        """The tile the engine drew for ``seat`` as a stand-in is ``tile`` (the judge's ``2 t``
        names it): the hand, the draw's event and the seat's choices follow."""
        self.set_tile(seat, len(self.hands[seat]) - 1, tile)
        self.drawn = tile
        self.events[-1] = self.events[-1].with_(pai=tile)
        self._pending = [self._decide(seat, self._rule_self_actions(seat))]


class SeatState:
    """The match as seat ``me`` knows it, advanced one request at a time (see module doc)."""

    def __init__(self) -> None:
        self.me: int | None = None
        self.quan: int | None = None
        self.round: _ShadowRound | None = None
        self._wall: _FedWall | None = None
        self.unseen: Counter[int] = Counter(tileset_for(BOTZONE))
        self.requests = 0
        self.last_request: Request | None = None

    # ------------------------------------------------------------------ the unseen pool
    def take_unseen(self) -> int:
        """A stand-in tile: the unseen kind with the most copies left (deterministic)."""
        if not +self.unseen:
            raise StateError("no tile is left unseen for a draw")
        tile = max(sorted(self.unseen), key=lambda t: self.unseen[t])
        self.unseen[tile] -= 1
        return tile

    def take_from_unseen(self, tile: int) -> None:
        """``tile`` leaves the unseen pool (or, if every unseen copy sits in a stand-in hand,
        that hand gets a pool tile instead)."""
        if self.unseen[tile] > 0:
            self.unseen[tile] -= 1
            return
        for s in self._others():
            if self._swap_out(s, tile):
                return
        if self._relabel_hidden_kong(tile):
            self.unseen[tile] -= 1
            return
        raise StateError(f"{T.to_botzone(tile)}: all four copies are already accounted for")

    def _others(self) -> list[int]:
        return [s for s in range(4) if s != self.me]

    def _swap_out(self, seat: int, tile: int) -> bool:
        """Replace one ``tile`` in stand-in hand ``seat`` by a pool tile; False if none."""
        rnd = self._rnd()
        hand = rnd.hands[seat]
        if tile not in hand:
            return False
        if not +self.unseen:
            return False
        i = hand.index(tile)
        self._set(seat, i, self.take_unseen())
        return True

    def _set(self, seat: int, i: int, tile: int) -> None:
        self._rnd().set_tile(seat, i, tile)

    def _hold(self, seat: int, need: Sequence[int]) -> None:
        """Make stand-in hand ``seat`` hold the tiles ``need`` (the move shows them), swapping
        other stand-in tiles out for them from the pool or from another stand-in hand."""
        rnd = self._rnd()
        hand = rnd.hands[seat]
        want = Counter(need)
        for tile, copies in sorted(want.items()):
            while hand.count(tile) < copies:
                have = Counter(hand)
                slots = [i for i, t in enumerate(hand) if have[t] > want[t]]
                if not slots:
                    raise StateError(f"seat {seat} cannot hold {copies} x {T.to_botzone(tile)}")
                i = slots[0]
                old = hand[i]
                if self.unseen[tile] > 0:
                    self.unseen[tile] -= 1
                    self.unseen[old] += 1
                    self._set(seat, i, tile)
                    continue
                donor = next((s for s in self._others()
                              if s != seat and tile in rnd.hands[s]), None)
                if donor is None and self._relabel_hidden_kong(tile):
                    continue
                if donor is None:
                    raise StateError(
                        f"seat {seat} shows {T.to_botzone(tile)}, but all four copies are "
                        "already accounted for"
                    )
                self._set(donor, rnd.hands[donor].index(tile), old)
                self._set(seat, i, tile)

    def _relabel_hidden_kong(self, tile: int) -> bool:
        """Another seat's face-down kong was given ``tile``'s kind, which a move now shows:
        give that kong another kind still wholly unseen and free the four copies."""
        rnd = self._rnd()
        for s in self._others():
            for i, m in enumerate(rnd.melds[s]):
                if m.type != "ankan" or KIND[m.tiles[0]] != KIND[tile]:
                    continue
                self.unseen.update(m.tiles)
                self.unseen[tile] -= 1  # held back while another kind is chosen
                try:
                    other = self._hidden_kong_tile(s, exclude=tile)
                except StateError:
                    self.unseen[tile] += 1
                    self.unseen.subtract(m.tiles)
                    return False
                self.unseen[tile] += 1
                self._take_four(s, other)
                rnd.melds[s][i] = Meld("ankan", (other,) * 4)
                return True
        return False

    def _take_four(self, seat: int, tile: int) -> None:
        """Four copies of ``tile`` leave the unseen pool and the stand-in hands (a hidden kong
        changes kind); hands that gave one get pool tiles instead."""
        rnd = self._rnd()
        for _ in range(4):
            if self.unseen[tile] > 0:
                self.unseen[tile] -= 1
                continue
            holder = next(s for s in self._others() if tile in rnd.hands[s])
            self._set(holder, rnd.hands[holder].index(tile), self.take_unseen())

    # ------------------------------------------------------------------ access
    def _rnd(self) -> _ShadowRound:
        if self.round is None:
            raise StateError("a play request before the deal")
        return self.round

    @property
    def started(self) -> bool:
        return self.round is not None

    def my_decision(self) -> tuple[MCRObservation, tuple[Event, ...]] | None:
        """This seat's pending decision (observation, legal actions), if the engine has one."""
        if self.round is None or self.round.done:
            return None
        for d in self.round.pending():
            if d.seat == self.me:
                return d.observation, d.legal
        return None

    def awaiting_own_draw(self) -> bool:
        """The engine drew for this seat a tile the judge has not named yet (after its kong,
        or the dealer's first draw): nothing to decide until the ``2 t`` request."""
        w = self._wall
        return w is not None and self.me is not None and bool(w.standin.get(self.me)) \
            and self._drawn_standin(self.me)

    def public_view(self) -> PublicView:
        """What this seat knows, in comparable form: its own concealed tiles (sorted), every
        seat's melds as ``(type, kinds)`` (another's concealed kong as ``("ankan", ())``), every
        seat's discards with whether they were claimed, and each seat's draws left."""
        rnd = self._rnd()
        me = self.me
        assert me is not None
        concealed = list(rnd.hands[me])
        wall = list(self.wall_left())
        last = rnd.events[-1]
        req = self.last_request
        drew = req is not None and (req.kind == 2 or req.verb == "DRAW")
        if last.type == "tsumo" and last.actor is not None and not drew:
            # the engine drew ahead of the judge (a kong's replacement): not announced yet
            wall[last.actor] += 1
            if last.actor == me:
                concealed = concealed[:-1]
        hand = sorted(KIND[t] for t in concealed)
        return {
            "hand": hand,
            "melds": [[(m.type, () if m.type == "ankan" and s != me
                        else tuple(sorted(KIND[t] for t in m.tiles)))
                       for m in rnd.melds[s]] for s in range(4)],
            "rivers": [list(zip((KIND[t] for t in rnd.rivers[s]), rnd.river_called[s],
                                strict=True)) for s in range(4)],
            "wall": wall,
        }

    def wall_left(self) -> tuple[int, ...]:
        assert self._wall is not None
        return tuple(self._wall.left)

    # ------------------------------------------------------------------ requests
    def apply(self, req: Request, my_last: Sequence[int] = ()) -> None:
        """Advance by one request.  ``my_last`` is the tile of this seat's previous answer
        (the concealed kong ``GANG t`` the judge's echo ``3 me GANG`` leaves out)."""
        self.requests += 1
        self.last_request = req
        try:
            self._apply(req, my_last)
        except (IllegalActionError, WallError, AssertionError) as exc:
            raise StateError(f"request {req.text()!r} does not fit the match: {exc}") from None

    def _apply(self, req: Request, my_last: Sequence[int]) -> None:
        if req.kind == 0:
            if self.me is not None:
                raise StateError("a second '0 id quan' request")
            self.me, self.quan = req.player, req.quan
            return
        if self.me is None:
            raise StateError(f"request {req.text()!r} before '0 id quan'")
        if req.kind == 1:
            self._deal(req)
            return
        rnd = self._rnd()
        if rnd.done:
            raise StateError(f"request {req.text()!r} after the hand ended")
        if req.kind == 2:
            self._draw(self.me, req.tiles[0])
            return
        p = req.player
        assert p is not None
        verb = req.verb
        if verb == "DRAW":
            if p == self.me:
                raise StateError("'3 id DRAW' names this bot (its own draw is '2 tile')")
            self._draw(p, None)
        elif verb == "PLAY":
            self._play(p, req.tiles[0])
        elif verb in ("PENG", "CHI"):
            self._claim(p, verb, req.tiles)
        elif verb == "GANG":
            self._gang(p, my_last)
        elif verb == "BUGANG":
            self._bugang(p, req.tiles[0])
        else:
            raise StateError("BUHUA: flowers are not played by Botzone's current judge")

    def _deal(self, req: Request) -> None:
        if self.round is not None:
            raise StateError("a second deal")
        if any(req.flowers):
            raise StateError("the deal has flowers; Botzone's current judge plays without them")
        me = self.me
        assert me is not None and self.quan is not None
        hand = list(req.tiles)
        for t in hand:
            if self.unseen[t] <= 0:
                raise StateError(f"the deal holds a fifth {T.to_botzone(t)}")
            self.unseen[t] -= 1
        hands = [hand if s == me else [self.take_unseen() for _ in range(HAND)]
                 for s in range(4)]
        self._wall = _FedWall(hands, self)
        self.round = _ShadowRound(me, self._wall, self.quan)

    # -- draws
    def _drawn_standin(self, seat: int) -> bool:
        rnd = self._rnd()
        last = rnd.events[-1]
        return (rnd.phase == "act" and rnd.turn == seat and last.type == "tsumo"
                and last.actor == seat)

    def _draw(self, seat: int, tile: int | None) -> None:
        rnd = self._rnd()
        wall = self._wall
        assert wall is not None
        if self._drawn_standin(seat):  # the engine drew already (no claim was possible)
            if seat == self.me:
                if not wall.standin.get(seat):
                    raise StateError("a second draw without a discard in between")
                assert tile is not None
                self._fix_own_draw(tile)
            return
        if rnd.phase not in ("claim", "rob"):
            raise StateError(f"seat {seat} draws, but it is seat {rnd.turn}'s turn "
                             f"({rnd.phase})")
        if tile is not None:
            wall.known[seat] = tile
        rnd.step({})
        wall.known.pop(seat, None)
        if not self._drawn_standin(seat):
            raise StateError(f"seat {seat} draws, but the next draw is seat {rnd.turn}'s")

    def _fix_own_draw(self, tile: int) -> None:
        rnd = self._rnd()
        me = self.me
        assert me is not None and self._wall is not None
        old = rnd.hands[me][-1]
        self.unseen[old] += 1
        self.take_from_unseen(tile)
        self._wall.standin[me] = False
        rnd.name_drawn(me, tile)

    # -- own turn
    def _my_turn(self, seat: int, what: str) -> None:
        rnd = self._rnd()
        if rnd.phase not in ("act", "discard") or rnd.turn != seat:
            raise StateError(f"{what} by seat {seat}, but it is seat {rnd.turn}'s turn "
                             f"({rnd.phase})")
        if seat == self.me and self._wall is not None and self._wall.standin.get(seat) \
                and rnd.phase == "act":
            raise StateError(f"{what} by this bot before its draw was announced")

    def _play(self, seat: int, tile: int) -> None:
        self._my_turn(seat, "a discard")
        rnd = self._rnd()
        if seat == self.me:
            self._step_own(Event("dahai", actor=seat, pai=tile, tsumogiri=rnd.drawn == tile))
            return
        self._hold(seat, [tile])
        rnd.apply_observed(Event("dahai", actor=seat, pai=tile, tsumogiri=False))

    def _step_own(self, action: Event) -> None:
        """Apply this seat's own move through the engine's legality check."""
        rnd = self._rnd()
        mine = self.my_decision()
        if mine is None:
            raise StateError(f"this bot's {action.type} when the engine asks it nothing")
        legal = mine[1]
        match = [e for e in legal if _same(e, action)]
        if not match:
            raise StateError(f"this bot's {action.type} {_names(action)} is not legal here")
        exact = [e for e in match if e.type != "dahai" or e.tsumogiri == action.tsumogiri]
        rnd.step({self.me: (exact or match)[0]} if self.me is not None else {})

    # -- claims
    def _claim(self, seat: int, verb: str, tiles: Sequence[int]) -> None:
        rnd = self._rnd()
        if rnd.phase != "claim" or rnd.last_discard is None:
            raise StateError(f"{verb} by seat {seat} follows no discard")
        discarder, d = rnd.last_discard
        if discarder == seat:
            raise StateError(f"{verb} by seat {seat} of its own discard")
        if verb == "PENG":
            consumed: tuple[int, ...] = (d, d)
            call: Literal["pon", "chi"] = "pon"
            discard = tiles[0]
        else:
            mid = tiles[0]
            discard = tiles[1]
            k = KIND[mid]
            if seat != (discarder + 1) % 4:
                raise StateError(f"CHI by seat {seat}, who is not after seat {discarder}")
            if k >= 27 or k % 9 in (0, 8) or KIND[d] not in (k - 1, k, k + 1):
                raise StateError(f"CHI around {T.to_botzone(mid)} cannot use "
                                 f"{T.to_botzone(d)}")
            consumed = tuple(t for t in (mid - 1, mid, mid + 1) if t != d)
            call = "chi"
        action = Event(call, actor=seat, target=discarder, pai=d, consumed=consumed)
        if seat == self.me:
            self._step_own(action)
            self._step_own(Event("dahai", actor=seat, pai=discard, tsumogiri=False))
            return
        self._hold(seat, consumed)
        rnd.apply_observed(action)
        self._hold(seat, [discard])
        rnd.apply_observed(Event("dahai", actor=seat, pai=discard, tsumogiri=False))

    def _gang(self, seat: int, my_last: Sequence[int]) -> None:
        rnd = self._rnd()
        if rnd.phase == "claim" and rnd.last_discard is not None:
            discarder, d = rnd.last_discard
            if discarder == seat:
                raise StateError(f"GANG by seat {seat} of its own discard")
            action = Event("daiminkan", actor=seat, target=discarder, pai=d,
                           consumed=(d, d, d))
            if seat == self.me:
                self._step_own(action)
                return
            self._hold(seat, [d, d, d])
            rnd.apply_observed(action)
            return
        self._my_turn(seat, "a concealed GANG")
        if rnd.phase != "act":
            raise StateError(f"a concealed GANG by seat {seat} right after a claim")
        if seat == self.me:
            counts = rnd.counts[seat]
            fours = [k for k in range(34) if counts[k] == 4]
            if my_last:
                fours = [k for k in fours if k == KIND[my_last[0]]]
            if len(fours) != 1:
                raise StateError("this bot's concealed GANG: its tile is not known "
                                 "(no single four of a kind, no 'GANG t' answer)")
            self._step_own(Event("ankan", actor=seat, consumed=(fours[0],) * 4))
            return
        tile = self._hidden_kong_tile(seat)
        self._hold(seat, [tile] * 4)
        rnd.apply_observed(Event("ankan", actor=seat, consumed=(tile,) * 4))

    def _hidden_kong_tile(self, seat: int, exclude: int | None = None) -> int:
        """Some kind all four copies of which this seat has not seen (the kong is face down;
        honours first, as the kind least likely to be shown by a later move)."""
        rnd = self._rnd()
        hand = rnd.hands[seat]
        for t in sorted(set(hand), reverse=True):
            if hand.count(t) == 4 and t != exclude:
                return t
        held = Counter(self.unseen)
        for s in self._others():
            held.update(rnd.hands[s])
        for t in sorted(held, reverse=True):
            if held[t] >= 4 and t != exclude:
                return t
        raise StateError(f"a concealed GANG by seat {seat}, but no kind is wholly unseen")

    def _bugang(self, seat: int, tile: int) -> None:
        self._my_turn(seat, "a BUGANG")
        rnd = self._rnd()
        meld = next((m for m in rnd.melds[seat]
                     if m.type == "pon" and KIND[m.tiles[0]] == KIND[tile]), None)
        if meld is None:
            raise StateError(f"BUGANG {T.to_botzone(tile)} by seat {seat} without that pong")
        action = Event("kakan", actor=seat, pai=tile, consumed=meld.tiles)
        if seat == self.me:
            self._step_own(action)
            return
        self._hold(seat, [tile])
        rnd.apply_observed(action)

    # ------------------------------------------------------------------ what-ifs
    def after_call(self, action: Event) -> tuple[MCRObservation, tuple[Event, ...]]:
        """The discard decision after this seat's own pong or chow, on a copy of the state
        (Botzone wants the claim and its discard in one answer; the claim may still lose)."""
        twin = copy.deepcopy(self)
        rnd = twin._rnd()
        rnd.step({twin.me: action} if twin.me is not None else {})
        mine = twin.my_decision()
        if mine is None or rnd.phase != "discard":
            raise StateError("no discard decision after the call")
        return mine


def _same(a: Event, b: Event) -> bool:
    if a.type != b.type:
        return False
    if a.type in ("dahai", "kakan"):
        return a.pai == b.pai
    if a.type == "hora":
        return True
    return sorted(KIND[t] for t in a.consumed) == sorted(KIND[t] for t in b.consumed) and (
        a.pai is None or b.pai is None or KIND[a.pai] == KIND[b.pai]
    )


def _names(e: Event) -> str:
    tiles = [*e.consumed, *((e.pai,) if e.pai is not None else ())]
    return " ".join(T.to_botzone(t) for t in tiles)


"""A client's view of the game, rebuilt from Tenhou's messages alone.

Tenhou numbers seats from the receiver, so the view keeps everything in those relative seats:
the client is seat 0 of its own :class:`~tenpai.serve.mjai.tracker.SeatTracker`, and the dealer,
scores and every actor are as the messages give them.  Each tag becomes the project's event
(``<T>`` a ``tsumo``, ``<E>`` a ``dahai`` by seat 1, ``<N>`` a decoded call, ``REACH`` step 1/2
``reach``/``reach_accepted`` …), so the mjai tracker, its legal-action derivation and its
observation serve our agents here too.  The view also keeps the client's own tiles as physical
ids, to answer with the copy it really holds.  An ``AGARI`` becomes a ``hora`` whose deltas are
the message's ``sc`` and whose ``pao`` is its ``paoWho`` (the view re-scores no win).

The server's ``t`` flags say what it offers; the derived legal actions are filtered by them (a
win, riichi, a call the server does not offer is not proposed), and a claim is answered only
when flags came with the discard.  ``REINIT`` (after a reconnection) rebuilds the tracker from
the hand, melds and rivers it lists.

Three players (``GO type`` bit 0x10): the wire keeps four relative positions, one of them the empty
fourth seat (absolute seat 3), while the tracker counts three seats in playing order.  The view
works out its own absolute seat from each ``INIT`` (the round's dealer is absolute seat ``kyoku``,
and ``oya`` says where that is from us), maps every wire position to a tracker seat (us 0, the
next to play 1, the one after 2) and refuses any message from the empty position.  A North set
aside comes as ``<N>`` with a nukidora meld code; ``t`` flag 128 on our draw offers it, and
``<N type="10"/>`` takes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar
from urllib.parse import unquote

from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.records.mjlog_meld import decode_meld
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA, RiichiRules
from tenpai.serve.mjai.legal import NONE, decision_due, derive_legal
from tenpai.serve.mjai.tracker import SeatTracker, TrackerError, live_wall_after_deal
from tenpai.serve.tenhou import messages as M
from tenpai.serve.tenhou.tiles136 import TileIdError, code_of
from tenpai.serve.tenhou.wire import Tag, WireError, format_tag

__all__ = ["Offer", "TenhouView", "ViewError"]

_V = TypeVar("_V")
_DISCARD_LETTERS = "DEFG"
_DRAW_LETTERS = "TUVW"


class ViewError(ValueError):
    """A message the view cannot follow (it contradicts what the client knows)."""


@dataclass(slots=True)
class Offer:
    """A decision the server asked for: what kind (``turn``, ``claim``, ``rob``, ``riichi``,
    ``call``) and the flags it came with."""

    kind: str
    flags: int = 0


@dataclass(slots=True)
class TenhouView:
    rules: RiichiRules = TENHOU
    red: bool = True
    tracker: SeatTracker = field(default_factory=lambda: SeatTracker(0))
    ids: list[int] = field(default_factory=list)
    drawn_id: int | None = None
    names: list[str] = field(default_factory=list)
    game_over: bool = False
    offer: Offer | None = None
    in_hand: bool = False
    #: Seats at the table (3 when ``GO`` has the three-player bit).
    players: int = 4
    #: Our absolute seat (three players only: the wire's empty position is absolute seat 3).
    me: int = 0

    # ------------------------------------------------------------------ setup
    def set_game_type(self, game_type: int) -> None:
        self.red = not game_type & 0x02
        self.players = 3 if game_type & 0x10 else 4
        base = TENHOU_SANMA if self.players == 3 else TENHOU
        self.rules = base.with_(
            red_fives=(base.red_fives if self.red else 0),
            open_tanyao=not game_type & 0x04,
            length="hanchan" if game_type & 0x08 else "tonpuu",
        )
        self.tracker = SeatTracker(0, self.rules)

    # ------------------------------------------------------------------ seats
    def seat(self, rel: int) -> int:
        """The tracker seat of wire position ``rel`` (0 = us)."""
        if not 0 <= rel < 4:
            raise ViewError(f"seat {rel} is not 0-3")
        if self.players == 4:
            return rel
        absolute = (self.me + rel) % 4
        if absolute == 3:
            raise ViewError(f"position {rel} is the empty seat of a three-player table")
        return (absolute - self.me) % 3

    def rel(self, seat: int) -> int:
        """The wire position of tracker seat ``seat``."""
        if self.players == 4:
            return seat
        return ((self.me + seat) % 3 - self.me) % 4

    def per_seat(self, values: Sequence[_V]) -> tuple[_V, ...]:
        """Four per-position values of the wire as one per tracker seat (the empty position's
        value dropped)."""
        if len(values) != 4:
            raise ViewError(f"{len(values)} per-seat values, not 4")
        return tuple(values[self.rel(s)] for s in range(self.players))

    def _locate(self, tag: Tag, seed: list[int]) -> int:
        """Our absolute seat from an INIT/REINIT: the dealer sits at absolute seat ``kyoku``
        and ``oya`` is where that is from us (three players; always 0 with four)."""
        oya = tag.int_attr("oya")
        if self.players == 4:
            return oya
        me = (seed[0] % 4 - oya) % 4
        if me == 3 or seed[0] % 4 > 2:
            raise ViewError(f"<{tag.name}> puts us or the dealer on the empty seat")
        self.me = me
        return self.seat(oya)

    def code(self, tile_id: int) -> int:
        try:
            return code_of(tile_id, self.red)
        except TileIdError as exc:
            raise ViewError(str(exc)) from None

    # ------------------------------------------------------------------ messages in
    def apply(self, tag: Tag) -> None:
        """Follow one server message; sets :attr:`offer` when it asks for a decision."""
        self.offer = None
        try:
            self._apply(tag)
        except (TrackerError, WireError, TileIdError) as exc:
            raise ViewError(f"<{tag.name}>: {exc}") from None

    def _feed(self, e: Event) -> None:
        self.tracker.apply(e)

    def _apply(self, tag: Tag) -> None:
        name = tag.name
        if name == "GO":
            self.set_game_type(tag.int_attr("type"))
        elif name == "UN" and "dan" in tag.attrs:
            # The full UN opens a game; one with a single n{i} (no dan) only says that
            # player came back, as <BYE who/> said it left: neither changes the hand.
            names = [unquote(tag.get(f"n{i}", "") or "") for i in range(4)]
            # Three players: the blank name is the empty seat; the others in wire order are
            # already in playing order from us.
            self.names = [n for n in names if n] if self.players == 3 else names
            self._feed(Event("start_game", names=tuple(self.names)))
        elif name == "INIT":
            self._init(tag)
        elif name == "REINIT":
            self._reinit(tag)
        elif name in _DRAW_LETTERS and self.in_hand:
            self._draw(tag)
        elif name.upper() in _DISCARD_LETTERS and tag.number is not None and self.in_hand:
            self._discard(tag)
        elif name == "N" and "who" in tag.attrs:
            self._meld(tag)
        elif name == "REACH":
            self._reach(tag)
        elif name == "DORA":
            self._feed(Event("dora", dora_marker=self.code(tag.int_attr("hai"))))
        elif name in ("AGARI", "RYUUKYOKU"):
            self._result(tag)

    def _init(self, tag: Tag) -> None:
        seed = tag.int_list("seed")
        if len(seed) != 6:
            raise ViewError(f"INIT seed {tag.get('seed')!r} is not six numbers")
        ten = [x * 100 for x in tag.int_list("ten")]
        self.ids = tag.int_list("hai")
        if len(self.ids) != 13 or len(ten) != 4:
            raise ViewError("INIT needs 13 tiles and four scores")
        oya = self._locate(tag, seed)
        self.drawn_id = None
        self.in_hand = True
        hidden: tuple[None, ...] = (None,) * (self.players - 1)
        self._feed(Event(
            "start_kyoku", bakaze=seed[0] // 4, kyoku=seed[0] % 4, honba=seed[1],
            kyotaku=seed[2], oya=oya, scores=self.per_seat(ten),
            dora_marker=self.code(seed[5]),
            tehais=(tuple(self.code(i) for i in self.ids), *hidden),
        ))

    def _draw(self, tag: Tag) -> None:
        actor = self.seat(_DRAW_LETTERS.index(tag.name))
        if actor == 0:
            if tag.number is None:
                raise ViewError("own draw without its tile")
            self.ids.append(tag.number)
            self.drawn_id = tag.number
            self._feed(Event("tsumo", actor=0, pai=self.code(tag.number)))
            self.offer = Offer("turn", int(tag.get("t", "0") or 0))
        else:
            self._feed(Event("tsumo", actor=actor))

    def _discard(self, tag: Tag) -> None:
        actor = self.seat(_DISCARD_LETTERS.index(tag.name.upper()))
        tid = tag.number
        assert tid is not None
        if actor == 0:
            if tid not in self.ids:
                raise ViewError(f"own discard of id {tid} that the client does not hold")
            self.ids.remove(tid)
            self.drawn_id = None
        self._feed(Event("dahai", actor=actor, pai=self.code(tid),
                         tsumogiri=tag.name.islower()))
        flags = int(tag.get("t", "0") or 0)
        if actor != 0 and flags:
            self.offer = Offer("claim", flags)

    def _meld(self, tag: Tag) -> None:
        wire_who = tag.int_attr("who")
        who = self.seat(wire_who)
        try:
            m = decode_meld(tag.int_attr("m"))
        except ValueError as exc:
            raise ViewError(str(exc)) from None
        codes = [self.code(i) for i in m.tiles]
        if m.kind in ("chi", "pon", "daiminkan"):
            assert m.called is not None
            rest = [i for i in m.tiles if i != m.called]
            if who == 0:
                self._take(rest)
            e = Event(m.kind, actor=who, target=self.seat((wire_who + m.from_rel) % 4),
                      pai=self.code(m.called), consumed=tuple(self.code(i) for i in rest))
        elif m.kind == "ankan":
            if who == 0:
                self._take(list(m.tiles))
            e = Event("ankan", actor=who, consumed=tuple(codes))
        elif m.kind == "kakan":
            assert m.added is not None
            if who == 0:
                self._take([m.added])
            e = Event("kakan", actor=who, pai=self.code(m.added),
                      consumed=tuple(self.code(i) for i in m.tiles[:3]))
        elif m.kind == "nukidora" and self.players == 3:
            if who == 0:
                self._take(list(m.tiles))
            e = Event("nukidora", actor=who, pai=codes[0])
        else:
            raise ViewError(f"meld kind {m.kind} is not played at this table")
        if who == 0:
            self.drawn_id = None
        self._feed(e)
        if who == 0 and m.kind in ("chi", "pon"):
            self.offer = Offer("call")
        flags = int(tag.get("t", "0") or 0)
        if who != 0 and flags:
            self.offer = Offer("rob", flags)

    def _take(self, ids: list[int]) -> None:
        for i in ids:
            if i not in self.ids:
                raise ViewError(f"own call uses id {i} that the client does not hold")
            self.ids.remove(i)

    def _reach(self, tag: Tag) -> None:
        who = self.seat(tag.int_attr("who"))
        step = tag.int_attr("step")
        if step == 1:
            self._feed(Event("reach", actor=who))
            if who == 0:
                self.offer = Offer("riichi")
        elif step == 2:
            ten = [x * 100 for x in tag.int_list("ten")]
            self._feed(Event("reach_accepted", actor=who,
                             scores=self.per_seat(ten) if len(ten) == 4 else ()))

    def _result(self, tag: Tag) -> None:
        sc = tag.int_list("sc")
        # Tenhou's chip games append chip pairs after the four score pairs.
        deltas = self.per_seat([sc[2 * i + 1] * 100 for i in range(4)]) if len(sc) >= 8 else ()
        if self.in_hand:
            if tag.name == "AGARI":
                # The points come from ``sc`` (the view scores nothing); the liable seat
                # (``paoWho``) rides on the event as the mjlog reader puts it there.
                who = self.seat(tag.int_attr("who"))
                pao = self.seat(tag.int_attr("paoWho")) if "paoWho" in tag.attrs else None
                self._feed(Event("hora", actor=who, target=self.seat(tag.int_attr("fromWho")),
                                 deltas=deltas, pao=pao))
            else:
                self._feed(Event("ryukyoku", deltas=deltas))
        if "owari" in tag.attrs:
            self.game_over = True
        if self.in_hand:
            # A double ron sends two AGARI tags: the hand ends with the first, the second
            # changes nothing the next INIT does not restate.
            self._feed(Event("end_kyoku"))
            self.in_hand = False

    def _reinit(self, tag: Tag) -> None:
        """Rebuild the hand from a ``REINIT`` (the client came back mid-hand)."""
        self._init_from_reinit(tag)
        st = self.tracker
        norths = kans = 0
        for r in range(4):
            if self.players == 3 and (self.me + r) % 4 == 3:
                if tag.get(f"m{r}") or tag.get(f"kawa{r}"):
                    raise ViewError("REINIT lists melds or a river for the empty seat")
                continue
            seat = self.seat(r)
            for code in tag.int_list(f"m{r}"):
                m = decode_meld(code)
                kind = m.kind
                tiles = tuple(self.code(i) for i in m.tiles)
                if kind == "nukidora":  # it stood, so it counts as a call (ippatsu, 1st turn)
                    st.nukidora[seat].append(tiles[0])
                    norths += 1
                    st.any_call = True
                    continue
                if kind == "ankan":
                    st.melds[seat].append(Meld("ankan", tiles))
                elif m.called is not None:
                    called = self.code(m.called)
                    target = self.seat((r + m.from_rel) % 4)
                    typ = "pon" if kind == "kakan" else kind
                    meld = Meld(typ, tuple(sorted(tiles[:3] if kind == "kakan" else tiles)),
                                called, target)
                    if kind == "kakan" and m.added is not None:
                        meld = Meld("kakan", (*meld.tiles, self.code(m.added)), called, target,
                                    self.code(m.added))
                    st.melds[seat].append(meld)
                    st.rivers[target].append(called)
                    st.river_called[target].append(True)
                    st.discards_made[target] += 1
                if kind in ("ankan", "kakan", "daiminkan"):
                    st.kans += 1
                    kans += 1
                st.any_call = True
            riichi_next = False
            for tid in tag.int_list(f"kawa{r}"):
                if tid == 255:
                    riichi_next = True
                    continue
                st.rivers[seat].append(self.code(tid))
                st.river_called[seat].append(False)
                st.discards_made[seat] += 1
                if riichi_next:
                    st.riichi[seat] = True
                    riichi_next = False
        for tid in tag.int_list("dora")[1:]:
            st.dora_markers.append(self.code(tid))
        st.replacements = kans + norths
        draws = (sum(st.discards_made) + st.kans + norths
                 + (1 if len(self.ids) % 3 == 2 else 0))
        st.wall_remaining = max(live_wall_after_deal(self.players) - draws, 0)
        st.turn_unknown = True  # the next turn event is taken as it comes

    def _init_from_reinit(self, tag: Tag) -> None:
        seed = tag.int_list("seed")
        ten = [x * 100 for x in tag.int_list("ten")]
        self.ids = tag.int_list("hai")
        if len(seed) != 6 or len(ten) != 4:
            raise ViewError("REINIT needs a six-number seed and four scores")
        oya = self._locate(tag, seed)
        self.in_hand = True
        self.drawn_id = None
        st = SeatTracker(0, self.rules)
        st.apply(Event("start_game", names=tuple(self.names)))
        hand = tuple(self.code(i) for i in self.ids)
        st.apply(Event(
            "start_kyoku", bakaze=seed[0] // 4, kyoku=seed[0] % 4, honba=seed[1],
            kyotaku=seed[2], oya=oya, scores=self.per_seat(ten),
            dora_marker=self.code(seed[5]), tehais=(hand, *(None,) * (self.players - 1)),
        ))
        self.tracker = st

    # ------------------------------------------------------------------ decisions
    def legal(self) -> list[Event]:
        """The actions the pending offer allows: derived from the tracker, filtered by the
        server's flags (empty when nothing is asked)."""
        offer = self.offer
        if offer is None:
            return []
        due = decision_due(self.tracker)
        derived = derive_legal(self.tracker) if due is not None else []
        if offer.kind == "turn":
            f = offer.flags
            keep = [e for e in derived if not (
                (e.type == "hora" and not f & M.DRAW_TSUMO)
                or (e.type == "reach" and not f & M.DRAW_RIICHI)
                or (e.type == "ryukyoku" and not f & M.DRAW_NINE)
                or (e.type == "nukidora" and not f & M.DRAW_KITA))]
            return keep
        if offer.kind in ("claim", "rob"):
            f = offer.flags
            allowed = {"none"}
            if f & M.CLAIM_PON:
                allowed.add("pon")
            if f & M.CLAIM_KAN:
                allowed.add("daiminkan")
            if f & M.CLAIM_CHI:
                allowed.add("chi")
            if f & M.CLAIM_RON:
                allowed.add("hora")
            keep = [e for e in derived if e.type in allowed]
            return keep if any(e.type != "none" for e in keep) else [NONE]
        return derived

    def ids_of(self, code: int, count: int, *, avoid: int | None = None) -> list[int]:
        """``count`` of the client's own ids showing tile ``code`` (not ``avoid`` if possible)."""
        same = [i for i in self.ids if self.code(i) == code]
        same.sort(key=lambda i: i == avoid)
        if len(same) < count:
            raise ViewError(f"the client holds {len(same)} of tile code {code}, needs {count}")
        return same[:count]

    def reply(self, action: Event) -> list[str]:
        """The tags that carry ``action`` to the server."""
        t = action.type
        if t == "dahai":
            assert action.pai is not None
            if action.tsumogiri and self.drawn_id is not None:
                tid = self.drawn_id
            else:
                tid = self.ids_of(action.pai, 1, avoid=self.drawn_id)[0]
            return [format_tag("D", {"p": tid})]
        if t == "none":
            return ["<N/>"]
        if t == "hora":
            return [format_tag("N", {"type": 7 if action.target == 0 else 6})]
        if t in ("pon", "chi"):
            ids: list[int] = []
            for code in action.consumed:
                got = [i for i in self.ids if self.code(i) == code and i not in ids]
                if not got:
                    raise ViewError(f"{t} needs a tile the client does not hold")
                ids.append(got[0])
            return [format_tag("N", {"type": 1 if t == "pon" else 3,
                                     "hai0": ids[0], "hai1": ids[1]})]
        if t == "daiminkan":
            return [format_tag("N", {"type": 2})]
        if t == "ankan":
            return [format_tag("N", {"type": 4, "hai": self.ids_of(action.consumed[0], 1)[0]})]
        if t == "kakan":
            assert action.pai is not None
            return [format_tag("N", {"type": 5, "hai": self.ids_of(action.pai, 1)[0]})]
        if t == "ryukyoku":
            return [format_tag("N", {"type": 9})]
        if t == "nukidora":
            return [format_tag("N", {"type": 10})]
        raise ViewError(f"no Tenhou reply for {t}")

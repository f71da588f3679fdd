"""One game at the Tenhou-protocol table: the project's Riichi engine is the referee.

:class:`TenhouTable` plays a :class:`~tenpai.rules.riichi.game.RiichiGame` with four seats
(three under a three-player preset such as ``tenhou_sanma``: the wire's fourth position stays
empty, see :mod:`.messages`), each either a connected client or a built-in agent.  After every
engine step the new events go out to every client as that seat sees them (:mod:`.messages`);
the tag that asks a client to decide carries Tenhou's ``t`` offer flags, and its reply is
matched against the engine's legal actions (:mod:`.replies`).  Between hands the table waits
for ``NEXTREADY`` from the connected clients.

Robustness, as Tenhou does it: a seat whose client is gone plays on automatically — the drawn
tile discarded, every call passed — and the client may come back (``HELO`` with the same name)
and receives ``REINIT``.  A client that sends something malformed, illegal or out of turn, or
does not answer within the timeout, is dropped (its connection closed, the error counted) and
its seat plays on the same way.  Nothing a client does can stop the table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.riichi.end_points import tenhou_end_points
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules
from tenpai.serve import seat_report
from tenpai.serve.mjai.external import safe_default
from tenpai.serve.tenhou import messages as M
from tenpai.serve.tenhou.connection import CLOSED, Connection
from tenpai.serve.tenhou.replies import DECISION_TAGS, IllegalReply, Matched, is_pass, match_reply
from tenpai.serve.tenhou.tiles136 import PhysicalRound
from tenpai.serve.tenhou.wire import Tag, WireError, format_tag

__all__ = ["ERROR_KINDS", "SeatReport", "TableConfig", "TableResult", "TenhouTable", "game_type"]

#: Protocol error kinds, in the order reports list them.
ERROR_KINDS = (
    "garbage",
    "illegal",
    "out_of_turn",
    "timeout",
    "disconnected",
    "stray_pass",
    "second_answer",
    "defaulted",
)
_IGNORED = frozenset({"Z", "NEXTREADY", "GOK", "PXR", "AUTH", "JOIN", "HELO"})
#: Tenhou's lobby rules, one East round (the table's default).
TENHOU_TONPUU = TENHOU.with_(length="tonpuu")


def game_type(rules: RiichiRules) -> int:
    """Tenhou's ``GO type`` bits for the rules: 0x01 with humans, 0x02 no red fives, 0x04 no
    open tanyao, 0x08 hanchan, 0x10 three players."""
    t = 0x01
    t |= 0 if rules.red_fives else 0x02
    t |= 0 if rules.open_tanyao else 0x04
    t |= 0x08 if rules.length == "hanchan" else 0
    t |= 0x10 if rules.players == 3 else 0
    return t


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How the table plays: the rules, time limits (seconds) and an optional late start.

    ``start``/``scores`` begin the game mid-way (round wind, kyoku, honba, deposits), e.g. at
    the last hand, so a test with slow clients plays one hand instead of a whole game."""

    rules: RiichiRules = TENHOU_TONPUU
    timeout: float = 60.0
    ready_timeout: float = 30.0
    keepalive: float = 10.0
    start: tuple[int, int, int, int] | None = None
    scores: tuple[int, ...] | None = None
    lobby: int = 0


@dataclass(slots=True)
class SeatReport(seat_report.SeatReport):
    """One seat's protocol record in one game: the one the mjai and Botzone seats fill (its
    ``agent`` is the seat's name, a client's ``HELO`` name or the agent's), plus whether a
    connected client or a built-in agent sat there (``kind``) and how often the client came
    back.  :meth:`to_json` is the ``protocol`` row of ``results.jsonl`` that
    :mod:`.measure` reads, so its keys stay as they were."""

    kind: str = "client"
    reconnects: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.agent,
            "kind": self.kind,
            "decisions": self.decisions,
            "errors": {k: self.errors[k] for k in ERROR_KINDS if self.errors[k]},
            "examples": dict(self.examples),
            "reconnects": self.reconnects,
        }


@dataclass(slots=True)
class TableResult:
    """What a finished game leaves behind."""

    game: RiichiGame
    names: tuple[str, ...]
    reports: list[SeatReport]
    seconds: float


class _Seat:
    def __init__(self, index: int, name: str, agent: Agent | None, conn: Connection | None
                 ) -> None:
        self.index = index
        self.name = name
        self.agent = agent
        self.conn = conn
        self.report = SeatReport(index, name, kind="agent" if agent is not None else "client")
        self.returning: Connection | None = None
        #: Extra ``<N>`` tolerated after answering a claim offer (see ``_tolerated``).
        self.extra = 0

    @property
    def remote(self) -> bool:
        return self.agent is None

    @property
    def connected(self) -> bool:
        return self.conn is not None and not self.conn.closed and not self.conn.gone


class TenhouTable:
    """One game with clients and built-in agents (see the module docstring)."""

    def __init__(
        self,
        seats: Sequence[Connection | Agent],
        names: Sequence[str],
        *,
        seed: int,
        config: TableConfig | None = None,
        log_id: str = "",
    ) -> None:
        self.config = config or TableConfig()
        n = self.players = self.config.rules.players
        if len(seats) != n or len(names) != n:
            raise ValueError(f"a table of these rules needs {n} seats and {n} names")
        self.seed = seed
        self.names = tuple(names)
        self.log_id = log_id
        self.seats = [
            _Seat(i, n, None if isinstance(s, Connection) else s,
                  s if isinstance(s, Connection) else None)
            for i, (s, n) in enumerate(zip(seats, names, strict=True))
        ]
        rules = self.config.rules
        self.red = rules.red_fives > 0
        self.type = game_type(rules)
        kw: dict[str, Any] = {}
        if self.config.start is not None:
            kw["start"] = self.config.start
        if self.config.scores is not None:
            kw["scores"] = self.config.scores
        self.game = RiichiGame(rules, seed=seed, names=self.names, **kw)
        self.phys: PhysicalRound | None = None
        self.start_event: Event | None = None
        self.scores = list(self.config.scores or (rules.starting_points,) * n)
        self.deposits = 0
        self.hints: dict[int, tuple[int, ...]] = {}
        self._out: dict[int, list[str]] = {}
        self.finished = False

    # ------------------------------------------------------------------ public
    def away_seat(self, name: str) -> int | None:
        """A seat of this name whose client is gone (a reconnection target), if any."""
        if self.finished:
            return None
        for s in self.seats:
            if s.remote and s.name == name and not s.connected and s.returning is None:
                return s.index
        return None

    def welcome_back(self, seat: int) -> list[str]:
        """What a returning client receives at once: GO and UN, in one packet, and no
        TAIKYOKU (tenhou-python-bot reads the packet after its HELO as GO then UN, and takes
        any later tag that contains "<T" — TAIKYOKU too — for a draw)."""
        return [M.go(self.type, self.config.lobby), M.un(self.names, seat)]

    def reattach(self, seat: int, conn: Connection) -> None:
        """Give the seat back to a returning client; it is seated at the next step."""
        self.seats[seat].returning = conn

    async def run(self) -> TableResult:
        began = time.monotonic()
        keepalive = asyncio.create_task(self._keepalive())
        cancelled = False
        try:
            for s in self.seats:
                self._queue(s.index, [*self.welcome_back(s.index), self._taikyoku(s.index)])
            self._flush()
            await self._wait_ready()
            await self._play()
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            keepalive.cancel()
            self.finished = True
            await self._goodbye(wait=not cancelled)
        return TableResult(self.game, self.names, [s.report for s in self.seats],
                           time.monotonic() - began)

    # ------------------------------------------------------------------ the game
    async def _play(self) -> None:
        game = self.game
        fed = 0
        while True:
            new = game.events[fed:]
            fed = len(game.events)
            pending = [] if game.done else list(game.pending())
            await self._publish(new, pending)
            if game.done:
                return
            await asyncio.sleep(0)  # let readers queue whatever already arrived
            await self._seat_returning(pending)
            reach_seat = new[-1].actor if new and new[-1].type == "reach" else None
            await self._police(exempt=reach_seat)
            answers = await self._answers(pending)
            self.hints = {s: m.hints for s, m in answers.items() if m.hints}
            game.step({s: m.event for s, m in answers.items()})

    async def _answers(self, pending: Sequence[Decision]) -> dict[int, Matched]:
        out: dict[int, Matched] = {}
        remote = [d for d in pending if self.seats[d.seat].remote]
        results = await asyncio.gather(*(self._remote_answer(d) for d in remote))
        for d, m in zip(remote, results, strict=True):
            out[d.seat] = m
        for d in pending:
            seat = self.seats[d.seat]
            if seat.agent is not None:
                seat.report.decisions += 1
                action = await asyncio.to_thread(seat.agent.act, d.observation, list(d.legal))
                if action not in d.legal:
                    seat.report.charge("illegal", f"agent chose {action.to_mjai()}")
                    action = safe_default(d.legal)
                out[d.seat] = Matched(action)
        return out

    async def _remote_answer(self, d: Decision) -> Matched:
        seat = self.seats[d.seat]
        seat.report.decisions += 1
        seat.extra = 0
        default = Matched(safe_default(d.legal))
        if not seat.connected:
            await self._let_go(seat)
            seat.report.charge("defaulted", "decision while the client was away")
            return default
        conn = seat.conn
        assert conn is not None
        passing = any(e.type == "none" for e in d.legal)
        deadline = time.monotonic() + self.config.timeout
        while True:
            try:
                item = await conn.next(max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                await self._drop(seat, "timeout", f"no answer within {self.config.timeout:g} s")
                return default
            if item is CLOSED:
                await self._drop(seat, "disconnected", "the client went away mid-hand")
                return default
            if isinstance(item, WireError):
                await self._drop(seat, "garbage", str(item))
                return default
            assert isinstance(item, Tag)
            if item.name == "BYE":
                await self._drop(seat, "disconnected", "the client said BYE mid-game")
                return default
            if item.name not in DECISION_TAGS:
                if item.name in _IGNORED:
                    continue
                await self._drop(seat, "out_of_turn", f"<{item.name}> while a decision was due")
                return default
            if is_pass(item) and not passing:
                seat.report.charge("stray_pass", "a pass where the seat must act")
                continue
            assert self.phys is not None
            try:
                matched = match_reply(item, d.seat, d.legal, self.phys)
                seat.extra = 1 if passing else 0
                return matched
            except IllegalReply as exc:
                await self._drop(seat, "illegal", str(exc))
                return default

    async def _police(self, exempt: int | None) -> None:
        """Messages that arrived before anything asked for them: a bare pass is tolerated
        (tenhou-python-bot sends a second one after a ron offer), anything else that answers a
        decision is out of turn and drops the client."""
        for seat in self.seats:
            if not seat.connected:
                await self._let_go(seat)
                continue
            if seat.index == exempt:
                continue
            conn = seat.conn
            assert conn is not None
            keep: list[Any] = []
            for item in conn.pending():
                if item is CLOSED:
                    await self._drop(seat, "disconnected", "the client went away")
                    break
                if isinstance(item, WireError):
                    await self._drop(seat, "garbage", str(item))
                    break
                assert isinstance(item, Tag)
                if item.name == "BYE":
                    await self._drop(seat, "disconnected", "the client said BYE mid-game")
                    break
                if item.name in DECISION_TAGS:
                    if self._tolerated(seat, item, "nobody asked for"):
                        continue
                    await self._drop(seat, "out_of_turn", f"<{item.name}> nobody asked for")
                    break
                if item.name not in _IGNORED:
                    await self._drop(seat, "out_of_turn", f"<{item.name}> during the game")
                    break
                keep.append(item)

    @staticmethod
    def _tolerated(seat: _Seat, item: Tag, when: str) -> bool:
        """Unasked decision messages that are not dropped: a bare pass (counted as
        ``stray_pass``), and one ``<N>`` right after the seat answered a claim offer
        (``second_answer``) — offered a ron together with a call, tenhou-python-bot answers
        both parts, e.g. ``<N type="6"/>`` then ``<N type="1" …/>``; the first answer counts."""
        if is_pass(item):
            seat.report.charge("stray_pass", f"a pass {when}")
            return True
        if item.name == "N" and seat.extra > 0:
            seat.extra -= 1
            seat.report.charge("second_answer", f"<N type={item.get('type')}> {when}")
            return True
        return False

    async def _let_go(self, seat: _Seat) -> None:
        """A client whose side ended while the table was busy elsewhere: count it now."""
        conn = seat.conn
        if conn is not None and (conn.gone or conn.closed):
            why = next((str(i) for i in conn.pending() if isinstance(i, WireError)), None)
            if why is not None:
                await self._drop(seat, "garbage", why)
            else:
                await self._drop(seat, "disconnected", "the client went away")

    async def _drop(self, seat: _Seat, kind: str, detail: str) -> None:
        seat.report.charge(kind, detail)
        conn, seat.conn = seat.conn, None
        if conn is not None:
            await conn.close()
            # Tenhou tells the others that a player left (and, with a bare UN, came back).
            self._each(lambda v: format_tag("BYE", {"who": M.rel(seat.index, v)}))
            self._flush()

    async def _seat_returning(self, pending: Sequence[Decision]) -> None:
        """Seat returning clients once no decision of theirs is open, with a REINIT."""
        busy = {d.seat for d in pending}
        for seat in self.seats:
            conn = seat.returning
            if conn is None or seat.index in busy:
                continue
            seat.returning = None
            await self._let_go(seat)  # the old connection, if the table had not noticed
            if conn.closed or conn.gone:
                continue
            seat.conn = conn
            seat.report.reconnects += 1
            self._queue(seat.index, [self._reinit(seat.index)])
            for other in self.seats:
                if other is not seat:
                    rel = M.rel(seat.index, other.index)
                    self._queue(other.index,
                                [format_tag("UN", {f"n{rel}": quote(seat.name)})])
        self._flush()

    # ------------------------------------------------------------------ between hands
    async def _wait_ready(self) -> None:
        await asyncio.gather(*(self._ready(s) for s in self.seats if s.connected))

    async def _ready(self, seat: _Seat) -> None:
        conn = seat.conn
        assert conn is not None
        deadline = time.monotonic() + self.config.ready_timeout
        while True:
            try:
                item = await conn.next(max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                return  # Tenhou starts the next hand anyway
            if item is CLOSED:
                await self._drop(seat, "disconnected", "the client went away between hands")
                return
            if isinstance(item, WireError):
                await self._drop(seat, "garbage", str(item))
                return
            assert isinstance(item, Tag)
            if item.name == "NEXTREADY":
                return
            if item.name == "BYE":
                await self._drop(seat, "disconnected", "the client said BYE mid-game")
                return
            if item.name in DECISION_TAGS and self._tolerated(seat, item, "between hands"):
                continue
            if item.name in DECISION_TAGS or item.name not in _IGNORED:
                await self._drop(seat, "out_of_turn", f"<{item.name}> between hands")
                return

    async def _keepalive(self) -> None:
        while True:
            await asyncio.sleep(self.config.keepalive)
            for s in self.seats:
                if s.connected:
                    assert s.conn is not None
                    s.conn.send(["<Z/>"])

    async def _goodbye(self, *, wait: bool = True) -> None:
        """PROF to everyone still here, a moment for their BYE (none when the table was
        cancelled), then close."""
        for s in self.seats:
            if s.connected:
                assert s.conn is not None
                s.conn.send([format_tag("PROF", {"lobby": self.config.lobby, "type": self.type,
                                                 "add": "0,0,0,0,0,0,0,0,0,0,0"})])
        if wait:
            await asyncio.gather(*(self._await_bye(s) for s in self.seats if s.connected))
        for s in self.seats:
            if s.conn is not None:
                await s.conn.close()
            if s.returning is not None:
                await s.returning.close()

    async def _await_bye(self, seat: _Seat) -> None:
        assert seat.conn is not None
        # tenhou-python-bot sleeps 3-5 s after the last result before its BYE.
        deadline = time.monotonic() + max(self.config.ready_timeout, 10.0)
        while True:
            try:
                item = await seat.conn.next(max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                return
            if item is CLOSED or isinstance(item, WireError):
                return
            if isinstance(item, Tag) and item.name == "BYE":
                return

    # ------------------------------------------------------------------ messages out
    def _queue(self, seat: int, msgs: list[str]) -> None:
        if self.seats[seat].connected:
            self._out.setdefault(seat, []).extend(msgs)

    def _each(self, build: Any) -> None:
        for s in self.seats:
            if s.connected:
                self._out.setdefault(s.index, []).append(build(s.index))

    def _flush(self) -> None:
        out, self._out = self._out, {}
        for seat, msgs in out.items():
            conn = self.seats[seat].conn
            if conn is not None:
                conn.send(msgs)

    def _taikyoku(self, viewer: int) -> str:
        return format_tag("TAIKYOKU", {"oya": M.rel(0, viewer), "log": self.log_id})

    async def _publish(self, events: Sequence[Event], pending: Sequence[Decision]) -> None:
        flags = _offer_flags(events[-1] if events else None, pending)
        ends = any(e.type == "end_game" for e in events)
        for i, e in enumerate(events):
            last = i == len(events) - 1
            self._event(e, flags if last else {}, ends)
            if e.type == "end_kyoku" and not last and any(
                x.type == "start_kyoku" for x in events[i + 1:]
            ):
                self._flush()
                await self._wait_ready()
        self._flush()

    def _event(self, e: Event, flags: dict[int, int], game_ends: bool) -> None:
        t = e.type
        if t == "start_kyoku":
            self._start(e)
            return
        phys = self.phys
        if phys is None or t in ("none", "end_kyoku", "end_game", "start_game"):
            return
        hints = self.hints.pop(e.actor, ()) if e.actor is not None else ()
        applied = phys.apply(e, hints)
        actor = e.actor
        if t == "tsumo":
            assert actor is not None and applied.tile_id is not None
            tid = applied.tile_id
            self._each(lambda v: M.draw(actor, tid, v, flags.get(v, 0)))
        elif t == "dahai":
            assert actor is not None and applied.tile_id is not None
            tid = applied.tile_id
            self._each(lambda v: M.discard(actor, tid, bool(e.tsumogiri), v, flags.get(v, 0)))
        elif t in ("chi", "pon", "daiminkan", "ankan", "kakan", "nukidora"):
            assert actor is not None and applied.meld is not None
            code = applied.meld
            self._each(lambda v: M.meld(actor, code, v, flags.get(v, 0)))
        elif t == "reach":
            assert actor is not None
            self._each(lambda v: M.reach(actor, v, 1))
        elif t == "reach_accepted":
            assert actor is not None
            self.scores = list(e.scores) if len(e.scores) == self.players else self.scores
            self.deposits += 1
            self._each(lambda v: M.reach(actor, v, 2, self.scores))
        elif t == "dora":
            marker = applied.tile_id
            self._each(lambda v: format_tag("DORA", {"hai": marker}))
        elif t == "hora":
            self._hora(e, applied.hands[0], applied.tile_id, applied.markers, game_ends)
        elif t == "ryukyoku":
            self._ryukyoku(e, game_ends)

    def _start(self, e: Event) -> None:
        self.phys = PhysicalRound(self.red)
        self.start_event = e
        applied = self.phys.apply(e)
        self.scores = list(e.scores) if len(e.scores) == self.players else self.scores
        self.deposits = e.kyotaku or 0
        n = len(self.game.results)
        dice = ((self.seed + 7 * n) % 6, (self.seed // 6 + 5 * n) % 6)
        dora = applied.markers[0]
        self._each(lambda v: M.init(e, applied.hands[v], dora, dice, self.scores, v))

    def _owari(self, game_ends: bool) -> Any:
        if not game_ends:
            return lambda v: None
        final = list(self.game.final_scores)
        points = tenhou_end_points(final, self.config.rules.target_points)
        return lambda v: M.owari(final, points, v)

    def _hora(self, e: Event, hand: list[int], win: int | None, ura: list[int], ends: bool
              ) -> None:
        assert self.phys is not None and self.start_event is not None and e.actor is not None
        before = list(self.scores)
        melds = list(self.phys.melds[e.actor])
        dora = list(self.phys.dora_ids)
        owari = self._owari(ends and self._last_result(e))
        start = self.start_event
        deposits = self.deposits
        self._each(lambda v: M.agari(e, start, hand, melds, win or 0, dora, ura, before,
                                     deposits, v, owari(v)))
        if len(e.deltas) == self.players:
            self.scores = [s + d for s, d in zip(self.scores, e.deltas, strict=True)]
        self.deposits = 0

    def _last_result(self, e: Event) -> bool:
        results = [x for x in self.game.events if x.type in ("hora", "ryukyoku")]
        return bool(results) and results[-1] is e

    def _ryukyoku(self, e: Event, ends: bool) -> None:
        assert self.phys is not None and self.start_event is not None
        before = list(self.scores)
        shown = {s: self.phys.shown_hand(s) for s, h in enumerate(e.tehais) if h is not None}
        if e.kind == "nine_terminals" and e.actor is not None and not shown:
            shown = {e.actor: self.phys.shown_hand(e.actor)}
        owari = self._owari(ends)
        start = self.start_event
        deposits = self.deposits
        self._each(lambda v: M.ryuukyoku(e, start, shown, before, deposits, v, owari(v)))
        if len(e.deltas) == self.players:
            self.scores = [s + d for s, d in zip(self.scores, e.deltas, strict=True)]

    def _reinit(self, viewer: int) -> str:
        """``REINIT``: the hand so far as ``viewer`` sees it (INIT's attributes plus every
        seat's melds ``m0``-``m3`` — Norths set aside included — and river ``kawa0``-``kawa3``,
        255 before a riichi discard, called tiles left out) and all dora indicators in
        ``dora``."""
        phys, e = self.phys, self.start_event
        assert phys is not None and e is not None
        now = e.with_(kyotaku=self.deposits)  # deposits and scores as they stand now
        init = M.init(now, phys.hands[viewer], phys.dora_ids[0], (0, 0), self.scores, viewer)
        attrs = [init[len("<INIT"):-2]]
        for s in range(self.players):
            r = M.rel(s, viewer)
            if phys.melds[s]:
                attrs.append(f' m{r}="{",".join(str(m) for m in phys.melds[s])}"')
            river: list[int] = []
            for t in phys.rivers[s]:
                if t.riichi:
                    river.append(255)
                if not t.called:
                    river.append(t.tile_id)
            if river:
                attrs.append(f' kawa{r}="{",".join(str(x) for x in river)}"')
        attrs.append(f' dora="{",".join(str(d) for d in phys.dora_ids)}"')
        return "<REINIT" + "".join(attrs) + "/>"


def _offer_flags(last: Event | None, pending: Sequence[Decision]) -> dict[int, int]:
    """The ``t`` flags of the message that asks each pending seat to decide."""
    out: dict[int, int] = {}
    if last is None:
        return out
    for d in pending:
        types = {e.type for e in d.legal}
        f = 0
        if last.type == "tsumo" and last.actor == d.seat:
            f |= M.DRAW_TSUMO if "hora" in types else 0
            f |= M.DRAW_RIICHI if "reach" in types else 0
            f |= M.DRAW_NINE if "ryukyoku" in types else 0
            f |= M.DRAW_KITA if "nukidora" in types else 0
        elif last.actor != d.seat and last.type in ("dahai", "kakan", "ankan", "nukidora"):
            f |= M.CLAIM_PON if "pon" in types else 0
            f |= M.CLAIM_KAN if "daiminkan" in types else 0
            f |= M.CLAIM_CHI if "chi" in types else 0
            f |= M.CLAIM_RON if "hora" in types else 0
        if f:
            out[d.seat] = f
    return out

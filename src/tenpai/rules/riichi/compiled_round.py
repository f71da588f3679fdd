"""One Riichi hand on the compiled table (``_table.c``), behind RiichiRound's interface.

:class:`RiichiGame` drives a round through ``pending()``, ``step()``, ``done``, ``result``,
``scores``, ``kyotaku``, ``oya`` and the events it emits; :class:`CompiledRound` offers exactly
that, with the hand's state and rules in C.  The C side answers with compact integer codes (a
legal action, an action taken, a draw, a dora indicator) and a few tuples (wins, draws, the
riichi deposit); this module turns them into the same :class:`Event` objects the Python engine
makes, one shared object per code, so a step costs a few dictionary look-ups rather than the
engine's Python.  Wins are valued again by the Python scorer (the one ``RiichiRound`` calls) for
the ``hora`` event's han, fu and yaku, and the compiled deltas must agree with it (a
disagreement raises, never a silently different game).  Observations are
:class:`RiichiObservation` views over this object, read lazily: the table's state is copied out
of C only when an agent asks for it, once per step.

The Python round (:class:`~tenpai.rules.riichi.flow.round.RiichiRound`) stays the
specification; ``tests/engine/test_compiled_round.py`` plays seeded games of random and
rule agents on both and compares every event (``test_compiled_sanma.py`` for three players).
:func:`covers` says which rules the compiled table is proven for (the hand rules of
``tenhou``, ``mahjong_soul`` and ``tenhou_sanma``, with any game length, start and target);
other rules keep the Python round.  ``TENPAI_PURE_PYTHON=1`` or a
missing build make :func:`available` False.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, Final, cast

from tenpai import native
from tenpai import tiles as T
from tenpai.engine.flow import Decision, IllegalActionError
from tenpai.engine.meld import Meld
from tenpai.engine.table import KIND, NONE
from tenpai.events import Event
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.flow.round import RiichiRound, RoundResult, Scorer, start_kyoku
from tenpai.rules.riichi.flow.types import WinRequest
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.ruleset import MAHJONG_SOUL, TENHOU, TENHOU_SANMA, RiichiRules

__all__ = [
    "CompiledRound",
    "CompiledTableError",
    "CompiledTableMismatch",
    "available",
    "covers",
    "deal_state",
    "decode",
    "open_table",
    "python_table",
    "reference_round",
    "reference_rounds_built",
]

#: The extension's ``ABI`` this side is written for (``_table.c``'s TABLE_ABI).
ABI: Final = 2

# Action and event codes (``_table.c``'s X_* and E_* enums).
_DAHAI, _TSUMOGIRI, _HORA, _REACH, _ANKAN, _KAKAN, _PON, _CHI, _DAIMINKAN = range(9)
_NINE, _NONE, _NUKI, _TSUMO, _DORA, _END_KYOKU = range(9, 15)
#: The abort and settlement codes of the core (``_rollout.c``'s A_* enum).
_ENDINGS: Final = ("exhaustive", "four_riichi", "four_winds", "four_kans", "triple_ron",
                   "nine_terminals", "nagashi_mangan")
_KINDS: Final = ("hora", "exhaustive", "abortive")
#: Events the round keeps track of besides emitting them (melds, Norths, dora, the end).
_TRACKED: Final = frozenset({"pon", "chi", "daiminkan", "ankan", "kakan", "nukidora", "dora",
                             "end_kyoku"})
#: Game-level fields: they never reach a hand, so any value is covered.
_GAME_FIELDS: Final = frozenset({
    "name", "length", "starting_points", "target_points", "west_extension", "bust_below_zero",
    "agari_yame", "tenpai_yame", "extension_rounds"})


class CompiledTableError(ValueError):
    """Bad input to the compiled table: a state that cannot occur, an answer not legal there."""


class CompiledTableMismatch(RuntimeError):
    """The compiled table and the Python scorer valued a win differently (a bug to report)."""


def _load() -> Any | None:
    if native.pure_python():
        return None  # without importing the rollout module (numpy) for nothing
    from tenpai.hand.accel import table_buffers
    from tenpai.rules.riichi import rollout
    from tenpai.rules.riichi.compiled import yaku_table

    if not rollout.available():
        return None  # the same shanten tables and scorer core, checked there
    module = native.load("tenpai.rules.riichi._table", ABI)
    if (module is None or getattr(module, "ROLLOUT_ABI", None) != rollout.ABI
            or tuple(module.yaku_ids()) != yaku_table()):
        return None
    module.configure(*table_buffers())
    module.set_error(CompiledTableError)
    module.set_events(_EVENTS, _remember)
    return module


_state: list[Any] = []  # [the module or None], filled at first use (no import-time cost)


def _get() -> Any | None:
    if not _state:
        _state.append(_load())
    return _state[0]


def available() -> bool:
    """True when the compiled table is built and in use."""
    return _get() is not None


def _round_fields(rules: RiichiRules) -> tuple[Any, ...]:
    return tuple(getattr(rules, f.name) for f in fields(rules) if f.name not in _GAME_FIELDS)


_COVERED: Final = frozenset({_round_fields(TENHOU), _round_fields(MAHJONG_SOUL),
                            _round_fields(TENHOU_SANMA)})


def covers(rules: RiichiRules) -> bool:
    """Whether the compiled table is proven for these rules (their hand-level flags are those
    of a covered preset), so that :class:`RiichiGame` may use it."""
    return _round_fields(rules) in _COVERED


# ---------------------------------------------------------------------- codes to events


def decode(code: int) -> Event:
    """The Event an action or event code stands for (see ``_table.c``'s header)."""
    typ = code & 15
    pai = code >> 4 & 63
    t0, t1, t2 = code >> 10 & 63, code >> 16 & 63, code >> 22 & 63
    actor = code >> 28 & 3
    target = code >> 30 & 3
    if typ in (_DAHAI, _TSUMOGIRI):
        return Event("dahai", actor=actor, pai=pai, tsumogiri=typ == _TSUMOGIRI)
    if typ == _HORA:
        return Event("hora", actor=actor, target=target, pai=pai)
    if typ == _REACH:
        return Event("reach", actor=actor)
    if typ == _ANKAN:
        return Event("ankan", actor=actor, consumed=(pai, t0, t1, t2))
    if typ == _KAKAN:
        return Event("kakan", actor=actor, pai=pai, consumed=(t0, t1, t2))
    if typ in (_PON, _CHI):
        return Event("pon" if typ == _PON else "chi", actor=actor, target=target, pai=pai,
                     consumed=(t0, t1))
    if typ == _DAIMINKAN:
        return Event("daiminkan", actor=actor, target=target, pai=pai, consumed=(t0, t1, t2))
    if typ == _NINE:
        return Event("ryukyoku", actor=actor, kind="nine_terminals")
    if typ == _NONE:
        return NONE
    if typ == _NUKI:
        return Event("nukidora", actor=actor, pai=pai)
    if typ == _TSUMO:
        return Event("tsumo", actor=actor, pai=pai)
    if typ == _DORA:
        return Event("dora", dora_marker=pai)
    if typ == _END_KYOKU:
        return Event("end_kyoku")
    raise CompiledTableError(f"compiled table: unknown code {code}")


class _Events(dict[int, Event]):
    """Code -> Event, each made once and shared (as the engine shares its discard events)."""

    def __missing__(self, code: int) -> Event:
        e = _remember(code)
        self[code] = e
        return e


_EVENTS: Final = _Events()
#: id(Event) -> its code, for the shared Events (they live as long as the cache, so an id
#: found here is that object): an answer is mapped back to its code without comparing Events.
#: The shared pass (NONE) is -1, what the table takes for a pass.
_CODE_OF: Final[dict[int, int]] = {id(NONE): -1}


def _remember(code: int) -> Event:
    """The decoder the C table calls for a code it has not seen: decode and remember."""
    e = decode(code)
    if e is not NONE:
        _CODE_OF[id(e)] = code
    return e


def _code(typ: int, pai: int, actor: int) -> int:
    return typ | pai << 4 | 63 << 10 | 63 << 16 | 63 << 22 | actor << 28


# ---------------------------------------------------------------------- the round


def deal_state(
    wall: RoundWall, *, bakaze: int, oya: int, honba: int, kyotaku: int, scores: Sequence[int]
) -> tuple[Any, ...]:
    """The state a hand starts from, as the core reads it (``rollout.export_state``'s
    fields): the dealer has drawn the first tile (last in its hand), nothing else happened."""
    n = len(wall.hands)
    live = wall.live[wall._next:wall._end]
    if not live:
        raise CompiledTableError("compiled table: the live wall is empty at the deal")
    hands = [list(h) for h in wall.hands]
    first = live[0]
    hands[oya].append(first)
    z = (0,) * n
    return (
        n, bakaze, oya, honba, kyotaku, tuple(scores), tuple(live[1:]),
        tuple(wall.dora), tuple(wall.ura), 1, 0, tuple(tuple(h) for h in hands), first,
        oya, 0, 0, ((),) * n, z, ((),) * n, ((),) * n, z, 0, z, z, z, z, z, (-1,) * n,
        -1, (), tuple(wall.rinshan[wall._kans:]), wall.replacements_left, (),
    )


def open_table(state: tuple[Any, ...], rules: RiichiRules) -> Any:
    """The bare C table at ``state`` (phase ``act``): ``pending()`` -> ((seat, codes, events),
    ...),
    ``step(codes)`` (one per pending decision, -1 passes a claim), ``events()``, ``view()``,
    ``result()``.  Bad input raises :class:`CompiledTableError`."""
    module = _get()
    if module is None:
        raise RuntimeError("the compiled table (tenpai.rules.riichi._table) is not in use")
    from tenpai.rules.riichi.rollout import rules_tuple

    return module.Table(state, rules_tuple(rules))


class _WallView:
    """What observations read of the wall: the live tiles left."""

    __slots__ = ("_round",)

    def __init__(self, rnd: CompiledRound) -> None:
        self._round = rnd

    @property
    def remaining(self) -> int:
        return cast(int, self._round._view()[5])


class CompiledRound:
    """A hand on the compiled table, with the interface :class:`RiichiGame` uses of
    :class:`~tenpai.rules.riichi.flow.round.RiichiRound` and the attributes its observations
    read (:class:`~tenpai.rules.riichi.flow.observation.ObservedRiichiRound`): four seats, or
    three (``tenhou_sanma``: Norths set aside, no chi)."""

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
        self.rules = rules
        self.players = n
        self.hand_index = hand_index
        self.bakaze = bakaze
        self.kyoku = kyoku
        self.oya = kyoku % n
        self.honba = honba
        self.scorer = scorer
        self.source_wall = wall
        self.wall = _WallView(self)
        self.events: list[Event] = []
        self._emit_hook = emit
        # emit=some_list.append (RiichiGame's): new events are added to that list in one go
        owner = getattr(emit, "__self__", None)
        self._sink: list[Event] | None = (
            owner if isinstance(owner, list) and getattr(emit, "__name__", "") == "append"
            else None)
        self._observations = tuple(RiichiObservation(self, s) for s in range(n))
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.nukidora: list[list[int]] = [[] for _ in range(n)]
        self.dora_markers: list[int] = [wall.dora[0]]
        self.result: RoundResult | None = None
        self._winners: list[int] = []
        self._view_cache: tuple[Any, ...] | None = None
        #: The answers applied, one entry per step, for the Python round built on demand.
        self._answers: list[Any] = []
        self._reference: _Reference | None = None
        state = deal_state(wall, bakaze=bakaze, oya=self.oya, honba=honba, kyotaku=kyotaku,
                           scores=scores)
        first = state[12]
        self._t = open_table(state, rules)
        self._emit(start_kyoku(wall, bakaze=bakaze, kyoku=kyoku, honba=honba, kyotaku=kyotaku,
                               oya=self.oya, scores=scores))
        self._emit(_EVENTS[_code(_TSUMO, first, self.oya)])
        self._raw: tuple[Any, ...] = ()
        self._seats: tuple[int, ...] = ()
        self._pending: list[Decision] = []
        self._claiming = False
        self._refresh(self._t.pending())

    # ------------------------------------------------------------------ the round's interface
    def _emit(self, e: Event) -> None:
        self.events.append(e)
        if self._emit_hook is not None:
            self._emit_hook(e)

    @property
    def done(self) -> bool:
        return self.result is not None

    def pending(self) -> list[Decision]:
        return self._pending

    def _where(self) -> str:
        return f"{'ESWN'[self.bakaze]}{self.kyoku + 1}-{self.honba}, event {len(self.events)}"

    def step(self, answers: Mapping[int, Event]) -> None:
        """Apply the pending seats' answers (a missing answer in a claim window is a pass);
        an illegal answer raises :class:`IllegalActionError` and changes nothing."""
        if self.result is not None:
            raise RuntimeError("the hand is over")
        seats = self._seats
        out = None
        if len(seats) == 1 and len(answers) == 1 and seats[0] in answers:
            # the usual step: the one seat asked answers with an offered Event, which the
            # table finds by identity
            a = answers[seats[0]]
            out = self._t.advance_one(a)
            if out is not None:
                # kept for reference_round: an offered action names its seat (the pass does
                # not need one)
                self._answers.append(a)
        if out is None:
            # the offered Events map to their codes by identity (a pass to -1); the table
            # checks that each is legal for its seat
            get = answers.get
            code_of = _CODE_OF.get
            picked = [code_of(id(get(s, NONE))) for s in seats]
            if None in picked or not answers.keys() <= set(seats):
                chosen = self._codes_of(answers)
            else:
                chosen = cast(list[int], picked)
            try:
                out = self._t.advance(chosen)
            except CompiledTableError:
                self._codes_of(answers, strict=True)  # names the illegal answer
                raise
            self._answers.append(dict(answers))  # a copy: callers may reuse their mapping
        events, pend, special = out
        self._view_cache = None
        if special:
            self._drain(events)
        else:  # draws and discards only: nothing to keep track of
            self.events += events
            sink = self._sink
            if sink is not None:
                sink += events
            elif self._emit_hook is not None:
                for e in events:
                    self._emit_hook(e)
        self._refresh(pend)
        if self._reference is not None:
            # someone holds the Python round: it moves with the table, as the Python
            # engine's own round would
            reference_round(self)

    def _codes_of(self, answers: Mapping[int, Event], strict: bool = False) -> list[int]:
        """The codes of the answers, as ``TableRound.step`` checks them: a missing answer or
        ``none`` passes a claim window, an Event equal to an offered one is that one, anything
        else is an :class:`IllegalActionError`."""
        chosen: list[int] = []
        claiming = self._claiming
        for d, (_, codes, _events) in zip(self._pending, self._raw):
            a = answers.get(d.seat, NONE)
            if claiming and a.type == "none":
                chosen.append(-1)
                continue
            if a not in d.legal:
                raise IllegalActionError(d.seat, a, d.legal, self._where())
            c = _CODE_OF.get(id(a))
            chosen.append(c if c is not None and c in codes else codes[d.legal.index(a)])
        for s in answers:
            if s not in self._seats:
                raise IllegalActionError(
                    s, answers[s], (), f"{self._where()} (not this seat's turn)"
                )
        if strict:
            raise RuntimeError(f"{self._where()}: the compiled table refused legal answers")
        return chosen

    def _refresh(self, pend: tuple[Any, ...]) -> None:
        self._raw = pend
        # an observation is a live view of the round, so one per seat serves every decision
        obs = self._observations
        if len(pend) == 1:
            seat, _, legal = pend[0]
            self._seats = (seat,)
            self._pending = [Decision(seat, legal, obs[seat])]
            self._claiming = legal[-1] is NONE
            return
        self._seats = tuple([p[0] for p in pend])
        self._pending = [Decision(seat, legal, obs[seat]) for seat, _, legal in pend]
        self._claiming = bool(pend) and pend[0][2][-1] is NONE

    def _drain(self, new: list[Any]) -> None:
        events = self.events
        hook = self._emit_hook
        for e in new:
            if type(e) is tuple:
                e = self._special(e)
            elif e.type in _TRACKED:
                self._track(e)
            events.append(e)
            if hook is not None:
                hook(e)

    def _track(self, e: Event) -> None:
        if e.type == "dora":
            assert e.dora_marker is not None
            self.dora_markers.append(e.dora_marker)
        elif e.type == "end_kyoku":
            self._finish()
        elif e.type == "nukidora":
            assert e.actor is not None and e.pai is not None
            self.nukidora[e.actor].append(e.pai)
        else:
            self._meld(e)

    def _meld(self, e: Event) -> None:
        """The melds as the engine keeps them (observations and the scorer read them)."""
        seat = e.actor
        assert seat is not None
        ms = self.melds[seat]
        if e.type == "ankan":
            ms.append(Meld("ankan", tuple(e.consumed)))
        elif e.type == "kakan":
            assert e.pai is not None
            k = KIND[e.pai]
            i = next(i for i, m in enumerate(ms) if m.type == "pon" and KIND[m.tiles[0]] == k)
            old = ms[i]
            ms[i] = Meld("kakan", (*old.tiles, e.pai), old.called, old.target, e.pai)
        else:
            assert e.pai is not None
            tiles = tuple(sorted((*e.consumed, e.pai), key=lambda t: KIND[t]))
            ms.append(Meld(e.type, tiles, e.pai, e.target))  # type: ignore[arg-type]

    def _special(self, x: tuple[Any, ...]) -> Event:
        if x[0] == "hora":
            return self._hora(x)
        if x[0] == "reach_accepted":
            return Event("reach_accepted", actor=x[1], scores=x[2])
        actor = None if x[1] < 0 else x[1]
        if len(x) == 4:
            return Event("ryukyoku", actor=actor, kind=_ENDINGS[x[2]], deltas=x[3])
        return Event("ryukyoku", kind=_ENDINGS[x[2]], deltas=x[3], tehais=x[4])

    def _hora(self, x: tuple[Any, ...]) -> Event:
        (_, s, target, tile, tsumo, riichi, double, ippatsu, haitei, houtei, rinshan, chankan,
         tenhou, chiihou, n_dora, honba, kyotaku, pao, deltas, hand) = x
        markers = tuple(self.dora_markers[:n_dora])
        ura = tuple(self.source_wall.ura[:n_dora]) if riichi else ()
        req = WinRequest(
            seat=s,
            target=target,
            hand=hand if tsumo else (*hand, tile),
            melds=tuple(self.melds[s]),
            win_tile=tile,
            tsumo=bool(tsumo),
            seat_wind=self.seat_wind(s),
            round_wind=27 + self.bakaze,
            dealer=self.oya,
            riichi=bool(riichi),
            double_riichi=bool(double),
            ippatsu=bool(ippatsu),
            haitei=bool(haitei),
            houtei=bool(houtei),
            rinshan=bool(rinshan),
            chankan=bool(chankan),
            tenhou=bool(tenhou),
            chiihou=bool(chiihou),
            dora_markers=markers,
            ura_markers=ura,
            honba=honba,
            kyotaku=kyotaku,
            pao=None if pao < 0 else pao,
            nukidora=len(self.nukidora[s]),
        )
        out = self.scorer(req, self.rules)
        if out is None or tuple(out.deltas) != deltas:
            raise CompiledTableMismatch(
                f"{self._where()}: the compiled table scores seat {s}'s win {deltas}, the "
                f"scorer {None if out is None else out.deltas}")
        self._winners.append(s)
        return Event("hora", actor=s, target=target, pai=tile, deltas=out.deltas,
                     ura_markers=ura, hora_tehais=hand, han=out.han, fu=out.fu, yaku=out.yaku,
                     pao=out.pao)

    def _finish(self) -> None:
        res = self._t.result()
        assert res is not None
        kind, deltas, _winners, tenpai, code = res
        n = self.players
        if _KINDS[kind] == "hora":
            self.result = RoundResult("hora", list(deltas), winners=list(self._winners),
                                      tenpai=[False] * n)
        elif _KINDS[kind] == "exhaustive":
            self.result = RoundResult("exhaustive", list(deltas),
                                      tenpai=[bool(tenpai >> s & 1) for s in range(n)])
        else:
            self.result = RoundResult("abortive", [0] * n, abort=_ENDINGS[code],
                                      tenpai=[False] * n)
        self._view_cache = None

    # ------------------------------------------------------------------ what observations read
    def _view(self) -> tuple[Any, ...]:
        v = self._view_cache
        if v is None:
            v = self._view_cache = self._t.view()
        return v

    @property
    def hands(self) -> list[list[int]]:
        return [list(h) for h in self._view()[0]]

    @property
    def counts(self) -> list[list[int]]:
        return [T.counts34(h) for h in self._view()[0]]

    @property
    def rivers(self) -> list[list[int]]:
        return [list(r) for r in self._view()[1]]

    @property
    def river_called(self) -> list[list[bool]]:
        return [list(r) for r in self._view()[2]]

    @property
    def riichi(self) -> list[bool]:
        return list(self._view()[3])

    @property
    def scores(self) -> list[int]:
        return list(self._view()[4])

    @property
    def drawn(self) -> int | None:
        d = self._view()[6]
        return None if d < 0 else cast(int, d)

    @property
    def turn(self) -> int:
        return cast(int, self._view()[7])

    @property
    def kyotaku(self) -> int:
        return cast(int, self._view()[8])

    def seat_wind(self, seat: int) -> int:
        return 27 + (seat - self.oya) % self.players

    # ------------------------------------------------------------------ the Python round
    @property
    def phase(self) -> str:
        """The Python round's phase at this point (``act``, ``discard``, ``claim``, ``rob``,
        ``ended``), read from the last event: the record replay tells a player's own turn
        from a window by it."""
        if self.result is not None:
            return "ended"
        last = self.events[-1].type
        if self._claiming:
            return "rob" if last in ("kakan", "ankan", "nukidora") else "claim"
        return "discard" if last in ("reach", "pon", "chi") else "act"

    def python_round(self) -> RiichiRound:
        """This hand as a Python :class:`RiichiRound` at the same point (see
        :func:`reference_round`)."""
        return reference_round(self)

    def __snapshot__(
        self, memo: dict[int, Any], copy: Callable[[Any, dict[int, Any]], Any]
    ) -> CompiledRound:
        """The copy :func:`tenpai.engine.snapshot.clone` makes (a snapshot of a game on the
        compiled table): every field copied, and the C table, which cannot be copied,
        rebuilt by replaying the answers applied into a new one."""
        out = object.__new__(CompiledRound)
        memo[id(self)] = out
        for k, x in self.__dict__.items():
            if k != "_t":
                out.__dict__[k] = copy(x, memo)
        out._t = _replayed_table(self)
        return out


# ---------------------------------------------------------------------- the round on demand


class _Reference:
    """The Python round that follows a compiled one: how many of its answers it has taken,
    and how many events it had then (a reader that stepped it is noticed)."""

    __slots__ = ("applied", "events", "round")

    def __init__(self, rnd: RiichiRound) -> None:
        self.round = rnd
        self.applied = 0
        self.events = len(rnd.events)


_BUILT: list[int] = [0]


def reference_rounds_built() -> int:
    """How many Python rounds :func:`reference_round` has built in this process (tests check
    that a game nobody reads builds none)."""
    return _BUILT[0]


def _copy_wall(w: RoundWall) -> RoundWall:
    return RoundWall(hands=[list(h) for h in w.hands], live=list(w.live), dora=list(w.dora),
                     ura=list(w.ura), rinshan=list(w.rinshan), _next=w._next, _end=w._end,
                     _kans=w._kans, max_replacements=w.max_replacements)


def _fresh(rnd: CompiledRound) -> RiichiRound:
    """The Python round at the deal of ``rnd``'s hand: same rules, wall, winds and scores."""
    start = rnd.events[0]
    assert start.scores is not None and start.kyotaku is not None
    _BUILT[0] += 1
    return RiichiRound(rnd.rules, _copy_wall(rnd.source_wall), bakaze=rnd.bakaze,
                       kyoku=rnd.kyoku, honba=rnd.honba, kyotaku=start.kyotaku,
                       scores=start.scores, scorer=rnd.scorer, hand_index=rnd.hand_index)


def reference_round(rnd: CompiledRound) -> RiichiRound:
    """The Python round of ``rnd``'s hand, brought to the same point.

    Built on the first request from the same wall and replayed through the answers the table
    applied, then kept and moved on with every later step of the table (a reader that holds it
    sees it live, as the Python engine's own round): a reader pays the Python engine once for
    the hand from its first request on, a game nobody reads pays nothing but the answer log.
    The reader reads it and never steps it (one that did is noticed: the round is built
    again).  A Python round that does not reach the table's events is a bug of one of them,
    raised as :class:`CompiledTableMismatch`."""
    ref = rnd._reference
    if ref is None or len(ref.round.events) != ref.events:
        ref = rnd._reference = _Reference(_fresh(rnd))
    py = ref.round
    log = rnd._answers
    for i in range(ref.applied, len(log)):
        a = log[i]
        if type(a) is Event:  # the usual step's answer alone
            a = {} if a.actor is None else {a.actor: a}
        try:
            py.step(a)
        except IllegalActionError as exc:
            raise CompiledTableMismatch(
                f"{rnd._where()}: the Python round refuses answer {i + 1} of the compiled "
                f"table's hand: {exc}") from exc
    ref.applied = len(log)
    ref.events = len(py.events)
    if ref.events != len(rnd.events) or py.events[-1] != rnd.events[-1]:
        raise CompiledTableMismatch(
            f"{rnd._where()}: the Python round replayed to event {ref.events} "
            f"({py.events[-1]}), the compiled table is at {len(rnd.events)} "
            f"({rnd.events[-1]})")
    return py


def _replayed_table(rnd: CompiledRound) -> Any:
    """A new C table at ``rnd``'s point: the deal, then the answers it applied."""
    start = rnd.events[0]
    assert start.scores is not None and start.kyotaku is not None
    twin = CompiledRound(rnd.rules, rnd.source_wall, bakaze=rnd.bakaze, kyoku=rnd.kyoku,
                         honba=rnd.honba, kyotaku=start.kyotaku, scores=start.scores,
                         scorer=rnd.scorer, hand_index=rnd.hand_index)
    for a in rnd._answers:
        twin.step(({} if a.actor is None else {a.actor: a}) if type(a) is Event else a)
    if len(twin.events) != len(rnd.events):
        raise CompiledTableMismatch(f"{rnd._where()}: a copy of the table replayed to event "
                                    f"{len(twin.events)}")
    return twin._t


def python_table(table: Any) -> Any:
    """What tools that read the engine's state (search worlds, the MCTS features, calibration)
    take from an observation's table: a :class:`CompiledRound` gives its Python round (built
    on demand), anything else is returned as it is."""
    return table.python_round() if isinstance(table, CompiledRound) else table

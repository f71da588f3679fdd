"""Re-interleave a round given as per-seat draw and discard lists (tenhou.net/6 and its kin).

tenhou.net/6 — and the Mahjong Soul exports shaped like it — list each seat's draws and discards
separately; the order of play has to be rebuilt by playing the turns: draw, discard, then look
whether some seat's next "draw" is a call on that discard.  The lists say which tile a call took
(and, in tenhou.net/6, from which seat) but not *which* discard of that tile, so this module
treats each discard that a pending call could take as a choice point and searches the readings
depth-first until one plays through (:func:`read_round`).

Dora indicators beyond the first are placed where Tenhou reveals them: right after a closed kan,
and for an open or added kan at the next discard or kan (after the replacement draw).

Format readers build a :class:`RoundData` from their arrays; the items of the lists are tile
codes, :class:`Call` and :class:`Discard` objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.tenhou6_text import (
    ALL_TENPAI,
    DRAW_KIND_OF_NAME,
    parse_point_label,
    parse_yaku_label,
)

__all__ = ["Call", "Discard", "RoundData", "read_round"]

#: How many readings of one round the search tries before giving up.
MAX_READINGS = 4096


@dataclass(frozen=True, slots=True)
class Call:
    """A call as a list item.

    ``letter``: ``c`` chi, ``p`` pon, ``m`` open kan (in draw lists); ``k`` added kan, ``a``
    closed kan, ``f`` North set aside (in discard lists).  ``tile`` is the claimed or added tile
    and ``tiles`` all tiles of the meld; for an added kan ``tiles`` may hold only the added tile
    (the pon is then looked up).  ``rel`` is the discarder's seat relative to the caller
    (3 = the seat before), ``None`` when the record does not say; ``tile`` is ``None`` when
    the record does not say which tile was claimed (it is the discard the call takes).
    """

    letter: str
    tile: int | None
    tiles: tuple[int, ...]
    rel: int | None
    text: str

    def consumed_for(self, pai: int) -> tuple[int, ...]:
        """The caller's own tiles when the call takes ``pai``."""
        rest = list(self.tiles)
        rest.remove(pai)
        return canonical(rest)

    def takes(self, pai: int) -> bool:
        return pai == self.tile if self.tile is not None else pai in self.tiles


@dataclass(frozen=True, slots=True)
class Discard:
    """A discard: ``tile`` ``None`` for "the tile just drawn"; ``tsumogiri`` ``None`` when the
    record does not say whether the drawn copy was discarded."""

    tile: int | None
    reach: bool = False
    tsumogiri: bool | None = None


Item = Any  # int | Call | Discard


@dataclass(slots=True)
class RoundData:
    """One round as per-seat lists.

    ``result`` is tenhou.net/6's result array (``["和了", deltas, info, …]`` or
    ``["流局", deltas]``); ``kan_placeholder``: an open kan is followed by a ``0`` in the
    caller's discard list (tenhou.net/6) or not (Mahjong Soul exports).
    """

    rnd: int
    honba: int
    kyotaku: int
    scores: list[int]
    dora: list[int]
    ura: list[int]
    hands: list[list[int]]
    draws: list[list[Item]]
    discards: list[list[Item]]
    result: Any
    kan_placeholder: bool = True


class _RoundReader:
    """One reading of a round, following ``plan`` at the places where several readings fit.

    A *choice point* is a discard that some seat's next call could take: the options are the
    fitting callers (pons and kans before chis, nearer seats first) and, last, "nobody calls
    here" (the call then takes a later copy of the tile).  ``plan[i]`` picks the option of the
    i-th choice point met (0 beyond the plan); ``options`` records how many options each point
    had, so that :func:`read_round` can enumerate the readings depth-first.
    """

    def __init__(self, data: RoundData, plan: list[int] | None = None) -> None:
        self.d = data
        self.plan = plan or []
        self.options: list[int] = []
        self.n = sum(1 for h in data.hands if h)
        if self.n not in (3, 4) or any(len(h) != 13 for h in data.hands[: self.n]):
            raise ValueError("hands must hold 13 tiles for 3 or 4 seats")
        if not data.dora:
            raise ValueError("no dora indicator")
        self.events: list[Event] = []
        self.held = [list(h) for h in data.hands]
        self.di = [0] * 4
        self.dj = [0] * 4
        self.dora_next = 1
        self.open_kan_waiting = 0
        self.reached: set[int] = set()

    # -- bookkeeping --------------------------------------------------------
    def emit(self, e: Event) -> None:
        self.events.append(e)
        a = e.actor
        if e.type == "tsumo":
            assert a is not None and e.pai is not None
            self.held[a].append(e.pai)
        elif e.type in ("dahai", "kakan", "nukidora"):
            assert a is not None and e.pai is not None
            self._take(a, [e.pai])
        elif e.type in ("chi", "pon", "daiminkan", "ankan"):
            assert a is not None
            self._take(a, list(e.consumed))

    def _take(self, seat: int, tiles: list[int]) -> None:
        for t in tiles:
            if t not in self.held[seat]:
                raise ValueError(f"seat {seat} does not hold {T.to_mjai(t)}")
            self.held[seat].remove(t)

    def reveal(self) -> None:
        if self.dora_next < len(self.d.dora):
            self.emit(Event("dora", dora_marker=self.d.dora[self.dora_next]))
            self.dora_next += 1

    def flush_open_kan(self) -> None:
        while self.open_kan_waiting:
            self.open_kan_waiting -= 1
            self.reveal()

    def remaining(self) -> bool:
        return any(
            self.di[s] < len(self.d.draws[s]) or self.dj[s] < len(self.d.discards[s])
            for s in range(4)
        )

    def pon_of(self, seat: int, kind: int) -> tuple[int, ...]:
        """The three tiles of the seat's pon of ``kind`` (for an added kan listed by its tile),
        or ``()`` when it has none."""
        for e in reversed(self.events):
            if e.type == "pon" and e.actor == seat and e.pai is not None and (
                T.kind_of(e.pai) == kind
            ):
                return canonical([e.pai, *e.consumed])
        return ()

    # -- the turn loop ------------------------------------------------------
    def read(self) -> list[Event]:
        d = self.d
        oya = d.rnd % 4
        self.emit(
            Event(
                "start_kyoku",
                bakaze=d.rnd // 4 % 4,
                kyoku=d.rnd % 4,
                honba=d.honba,
                kyotaku=d.kyotaku,
                oya=oya,
                scores=tuple(d.scores[: self.n]),
                tehais=tuple(canonical(h) for h in d.hands[: self.n]),
                dora_marker=d.dora[0],
            )
        )
        actor = oya
        need_draw = True
        drawn: int | None = None
        last_pai: int | None = None
        last_actor = actor
        steps = 0
        while True:
            steps += 1
            if steps > 2000:
                raise ValueError("round does not terminate")
            if need_draw:
                if self.di[actor] >= len(d.draws[actor]):
                    break
                x = d.draws[actor][self.di[actor]]
                self.di[actor] += 1
                if isinstance(x, Call):
                    raise ValueError(f"seat {actor} calls {x.text!r} where a draw was expected")
                drawn = x
                self.emit(Event("tsumo", actor=actor, pai=drawn))
                last_pai, last_actor = drawn, actor
            if self.dj[actor] >= len(d.discards[actor]):
                break
            y = d.discards[actor][self.dj[actor]]
            self.dj[actor] += 1
            if isinstance(y, Call):
                if self.self_call(actor, y):
                    last_pai, last_actor = y.tile, actor  # a chankan or a ron on the North
                    if not self.remaining():
                        break
                need_draw = True
                continue
            if not isinstance(y, Discard):
                raise ValueError(f"unexpected item {y!r} in seat {actor}'s discards")
            tsumogiri: bool | None
            if y.tile is None:
                if drawn is None:
                    raise ValueError(f"seat {actor} discards the drawn tile without a draw")
                pai, tsumogiri = drawn, True
            else:
                pai, tsumogiri = y.tile, y.tsumogiri
                if tsumogiri and pai != drawn:
                    raise ValueError(f"seat {actor} discards {T.to_mjai(pai)} as the drawn tile")
                if tsumogiri is None and pai != drawn:
                    tsumogiri = False
            self.flush_open_kan()
            if y.reach:
                self.emit(Event("reach", actor=actor))
            self.emit(Event("dahai", actor=actor, pai=pai, tsumogiri=tsumogiri))
            last_pai, last_actor = pai, actor
            drawn = None
            caller = self.find_caller(actor, pai)
            if caller is None and not self.remaining() and self.is_ron_on(actor):
                break
            if y.reach:
                self.emit(Event("reach_accepted", actor=actor))
                self.reached.add(actor)
            if caller is None:
                actor = (actor + 1) % self.n
                need_draw = True
                continue
            actor = self.claim(caller, actor, pai)
            need_draw = self.events[-1].type == "daiminkan"
        self.finish(actor, drawn, last_pai, last_actor)
        return self.events

    def self_call(self, actor: int, y: Call) -> bool:
        """Play a closed kan, added kan or North; True when others may win on its tile."""
        if y.letter == "a":
            self.emit(Event("ankan", actor=actor, consumed=canonical(y.tiles)))
            self.flush_open_kan()
            self.reveal()
            return False
        if y.letter == "k":
            assert y.tile is not None
            if len(y.tiles) == 1:
                kind = T.kind_of(y.tile)
                pon = self.pon_of(actor, kind)
                if not pon:  # a kan "of this tile" without a pon is a closed kan
                    own = [t for t in self.held[actor] if T.kind_of(t) == kind]
                    if len(own) != 4:
                        raise ValueError(f"seat {actor} has no pon or four tiles for {y.text!r}")
                    return self.self_call(actor, Call("a", None, tuple(own), None, y.text))
            else:
                pon = y.consumed_for(y.tile)
            self.emit(Event("kakan", actor=actor, pai=y.tile, consumed=canonical(pon)))
            self.flush_open_kan()
            self.open_kan_waiting += 1
            return True
        if y.letter == "f":
            assert y.tile is not None
            self.emit(Event("nukidora", actor=actor, pai=y.tile))
            self.flush_open_kan()
            return True
        raise ValueError(f"call {y.text!r} in a discard list")

    def is_ron_on(self, actor: int) -> bool:
        res = self.d.result
        return bool(res) and res[0] == "和了" and any(
            isinstance(info, list) and len(info) >= 2 and info[1] == actor and info[0] != actor
            for info in res[2::2]
        )

    def find_caller(self, actor: int, pai: int) -> int | None:
        """The seat that calls this discard under the current plan, or None."""
        callers = self.candidate_callers(actor, pai)
        if not callers:
            return None
        i = len(self.options)
        self.options.append(len(callers) + 1)
        pick = self.plan[i] if i < len(self.plan) else 0
        return callers[pick] if pick < len(callers) else None

    def candidate_callers(self, actor: int, pai: int) -> list[int]:
        found: list[tuple[int, int]] = []
        for s in range(self.n):
            if s == actor or self.di[s] >= len(self.d.draws[s]):
                continue
            x = self.d.draws[s][self.di[s]]
            if not isinstance(x, Call) or not x.takes(pai):
                continue
            if x.letter not in ("c", "p", "m"):
                raise ValueError(f"call {x.text!r} in a draw list")
            if x.letter == "c" and (x.rel or 3) != 3:
                raise ValueError(f"chi {x.text!r} not from the seat before")
            dist = (actor - s) % 4  # the discarder relative to the caller
            if x.letter == "c" and dist != 3:
                continue
            if x.rel is not None and x.rel != dist:
                continue
            found.append((0 if x.letter != "c" else 1, (s - actor) % 4))
        return [(actor + d) % 4 for _, d in sorted(found)]

    def claim(self, caller: int, target: int, pai: int) -> int:
        x = self.d.draws[caller][self.di[caller]]
        assert isinstance(x, Call)
        self.di[caller] += 1
        kind = {"c": "chi", "p": "pon", "m": "daiminkan"}[x.letter]
        self.emit(
            Event(kind, actor=caller, target=target, pai=pai, consumed=x.consumed_for(pai))  # type: ignore[arg-type]
        )
        if kind == "daiminkan":
            self.flush_open_kan()
            if self.d.kan_placeholder:
                if self.dj[caller] < len(self.d.discards[caller]) and self.d.discards[caller][
                    self.dj[caller]
                ] == 0:
                    self.dj[caller] += 1
                else:
                    raise ValueError(f"open kan {x.text!r} is not followed by the 0 placeholder")
            self.open_kan_waiting += 1
        return caller

    def finish(
        self, actor: int, drawn: int | None, last_pai: int | None, last_actor: int
    ) -> None:
        res = self.d.result
        if not isinstance(res, list) or not res or not isinstance(res[0], str):
            raise ValueError("round result missing")
        if self.remaining():
            raise ValueError("the round ends while calls or discards remain unplayed")
        if res[0] == "和了":
            for i in range(1, len(res) - 1, 2):
                deltas = [int(d) for d in res[i]][: self.n]
                info = res[i + 1]
                who, frm = int(info[0]), int(info[1])
                pao = int(info[2]) if len(info) > 2 and int(info[2]) != who else None
                for name, seat in (("winner", who), ("payer", frm), ("pao", pao)):
                    if seat is not None and not 0 <= seat < self.n:
                        raise ValueError(f"win {i // 2 + 1}: {name} seat {seat} is not 0-"
                                         f"{self.n - 1}")
                fu: int | None = None
                han_label: int | None = None
                if len(info) > 3:
                    fu, han_label = parse_point_label(str(info[3]))
                yaku = tuple(parse_yaku_label(str(y)) for y in info[4:])
                han = sum(h for _, h in yaku) if yaku else han_label
                pai = last_pai if who != frm else drawn
                if who != frm and frm != last_actor:
                    raise ValueError(f"ron by seat {who} from seat {frm}, who did not discard last")
                if who == frm and (drawn is None or who != actor):
                    raise ValueError(f"tsumo by seat {who} without a draw")
                self.emit(
                    Event(
                        "hora",
                        actor=who,
                        target=frm,
                        pai=pai,
                        deltas=tuple(deltas),
                        ura_markers=tuple(self.d.ura) if who in self.reached else (),
                        han=han,
                        fu=fu,
                        yaku=yaku,
                        pao=pao,
                    )
                )
        else:
            kind = DRAW_KIND_OF_NAME.get(res[0])
            if kind is None:
                raise ValueError(f"unknown result {res[0]!r}")
            draw_deltas = tuple(int(d) for d in res[1])[: self.n] if len(res) > 1 else (0,) * self.n
            shown: list[tuple[int, ...] | None] = [None] * self.n
            act = None
            if kind == "exhaustive":
                for s in range(self.n):
                    if res[0] == ALL_TENPAI or draw_deltas[s] > 0:
                        shown[s] = canonical(self.held[s])
            elif kind == "nine_terminals":
                act = actor
                shown[actor] = canonical(self.held[actor])
            elif kind == "four_riichi":
                shown = [canonical(h) for h in self.held[: self.n]]
            tehais = tuple(shown) if any(h is not None for h in shown) else ()
            self.emit(Event("ryukyoku", actor=act, deltas=draw_deltas, kind=kind, tehais=tehais))
        self.emit(Event("end_kyoku"))


def read_round(data: RoundData) -> list[Event]:
    """The events of the first reading of the round (depth-first) that plays through.

    A wrong guess about which discard a call took shows up a few turns later (the caller is
    due to draw while its list holds the call, or a seat lacks the tiles it discards), so the
    search backs up to the latest choice point that still has an untried option.  When no
    reading fits, the error of the first (greedy) reading is raised.
    """
    plan: list[int] = []
    first_exc: ValueError | None = None
    for _ in range(MAX_READINGS):
        reader = _RoundReader(data, plan)
        try:
            return reader.read()
        except ValueError as exc:
            if first_exc is None:
                first_exc = exc
            opts = reader.options
            i = len(opts) - 1
            while i >= 0 and (plan[i] if i < len(plan) else 0) + 1 >= opts[i]:
                i -= 1
            if i < 0:
                raise first_exc from None
            plan = [plan[j] if j < len(plan) else 0 for j in range(i + 1)]
            plan[i] += 1
    assert first_exc is not None
    raise ValueError(f"{first_exc} (no reading of the calls found in {MAX_READINGS} tries)")

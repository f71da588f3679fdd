"""The replay loop every rule set shares: walls from the record, the engine driven by its actions.

Split the record into hands, rebuild each hand's wall from the tiles drawn in it, start the
engine's game on those walls; per hand check its start, answer each decision the engine asks
for with the recorded action (which must be legal) and compare each event it emits with the
record's; at the end a complete game must be over, with the same final scores.  Claim windows
a player let pass come out as ``none`` events with ``choices`` (datasets learn when not to
call).  What differs per rule set is a :class:`HandDriver` subclass and a :class:`GameAdapter`
(``tenpai.replay.riichi``, ``tenpai.replay.mcr``), so one fix to the loop reaches them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from tenpai.engine.flow import Decision, GameFlow, IllegalActionError
from tenpai.engine.table import TableRound
from tenpai.events import Event

__all__ = ["Divergence", "GameAdapter", "HandDriver", "LiveHand", "ReplayResult", "replay_game",
           "split_rounds"]


class Divergence(Exception):
    """The engine and the record disagree; ``where`` names the round and event index."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class _RecordEnded(Exception):
    """A partial record has no more hands; the engine's game simply stops there."""


@dataclass(slots=True)
class ReplayResult:
    """What a replay found: the engine's events (with implicit passes) and any divergence."""

    ok: bool
    rounds: int
    events: list[Event] = field(default_factory=list)
    divergence: Divergence | None = None


def split_rounds(events: Sequence[Event]) -> list[list[Event]]:
    """The events of each round, from ``start_kyoku`` to ``end_kyoku`` inclusive."""
    rounds: list[list[Event]] = []
    cur: list[Event] | None = None
    for e in events:
        if e.type == "start_kyoku":
            cur = [e]
            rounds.append(cur)
        elif cur is not None:
            cur.append(e)
            if e.type == "end_kyoku":
                cur = None
    return rounds


class LiveHand(Protocol):
    """What the replay reads of the engine's hand in play: its events, whether it is over,
    its pending decisions and its phase (a :class:`TableRound`, or a compiled hand that
    answers the same)."""

    @property
    def events(self) -> list[Event]: ...

    @property
    def done(self) -> bool: ...

    @property
    def phase(self) -> str: ...

    def pending(self) -> Sequence[Decision]: ...


class HandGame(GameFlow, Protocol):
    """A rule set's game as the replay drives it: one engine hand (``round``) after another."""

    @property
    def round(self) -> TableRound | None: ...


G = TypeVar("G", bound=HandGame)
W = TypeVar("W")
#: Sees each engine decision with the recorded answer (``HandDriver.observe``).
Observer = Callable[[Decision, Event], None]


class HandDriver(Generic[G]):
    """Feeds one recorded hand to the engine and matches what it emits against the record.

    Two cursors move together: the engine's new events are compared one by one with the
    record's from ``i`` on; the actions answering the engine's next decision are read ahead
    (without moving ``i``), since the engine emits them only once every seat has answered.
    """

    #: what one deal is called in messages ("round" in Riichi, "hand" in MCR)
    unit: ClassVar[str] = "hand"
    #: what a place at the table is called in messages
    seat_word: ClassVar[str] = "seat"
    #: the recorded event types that are a player's own decisions
    actions: ClassVar[frozenset[str]] = frozenset()
    #: events the engine produces by itself: look past them for the next recorded decision
    passive: ClassVar[frozenset[str]] = frozenset()
    #: called with every engine decision and the recorded answer to it, before the engine
    #: steps (the table is live: an observer reads it, never changes it)
    observe: Observer | None = None

    def __init__(self, game: G, rnd: Sequence[Event], where: str, out: list[Event]) -> None:
        self.game = game
        self.rec = [e for e in rnd[1:] if e.type not in ("end_kyoku", "none")]
        self.where = where
        self.out = out
        self.i = 0
        self._passes: list[Event] = []

    # rule-specific hooks
    def _same_action(self, a: Event, b: Event) -> bool:
        """Does the engine's legal action ``a`` match the recorded action ``b``?"""
        raise NotImplementedError

    def _same_tiles(self, a: Event, b: Event) -> bool:
        """What every rule set compares of two actions of one type and seat: the tile, a
        meld's tiles and whom it claims from, tsumogiri where both say."""
        if a.pai != b.pai:
            return False
        if a.type in ("chi", "pon", "daiminkan", "kakan", "ankan"):
            return sorted(a.consumed) == sorted(b.consumed) and (
                a.type in ("kakan", "ankan") or a.target == b.target
            )
        if a.type == "dahai":
            return a.tsumogiri is None or b.tsumogiri is None or a.tsumogiri == b.tsumogiri
        return True

    def _claims(self, pending: Sequence[Decision], start: int) -> dict[int, Event]:
        """Answers to a claim window from the record at ``start`` on; seats left out pass."""
        raise NotImplementedError

    def _compare_outcome(self, e: Event, rec: Event) -> None:
        """Check an engine event that is no decision (a draw, a win) against the record's."""
        raise NotImplementedError

    def _own_action(self, seat: int, nxt: Event) -> Event | None:
        """The recorded event that answers ``seat``'s own turn, or None when ``nxt`` is not."""
        return nxt if nxt.type in self.actions and nxt.actor == seat else None

    def _player(self, seat: int) -> int:
        """The engine's player at table position ``seat`` (the same unless seats change)."""
        return seat

    def _live(self) -> LiveHand | None:
        """The engine's hand in play, as cheap to read as the engine allows (a rule set
        whose game steps hands on a compiled table gives that one, not a Python copy)."""
        return self.game.round

    # the shared loop
    def fail(self, msg: str) -> Divergence:
        return Divergence(f"{self.where}, event {self.i + 1}", msg)

    def run(self) -> None:
        eng = self._live()
        assert eng is not None
        seen = 1  # start_kyoku was checked by the caller
        while True:
            seen = self._check_new(eng, seen)
            if eng.done:
                break
            answers, passes = self._answers(eng)
            if self.observe is not None:
                for d in eng.pending():
                    self.observe(d, answers[d.seat])
            try:
                self.game.step({self._player(s): a for s, a in answers.items()})
            except IllegalActionError as exc:
                raise self.fail(str(exc)) from exc
            except _RecordEnded:
                # The hand ended and the engine asked for the next wall, which a partial
                # record does not have: its ending (the win, the draw, the payments) must
                # still be compared before the replay stops.
                self._passes = passes
                self._check_new(eng, seen)
                self._check_all_used()
                raise
            self._passes = passes
        self._check_all_used()

    def _check_all_used(self) -> None:
        if self.i < len(self.rec):
            raise self.fail(
                f"the engine ended the {self.unit} but the record goes on with "
                f"{self.rec[self.i].to_mjai()}"
            )

    def _answers(self, eng: LiveHand) -> tuple[dict[int, Event], list[Event]]:
        """One answer per pending seat, and the ``none`` events of those who passed a claim."""
        pending = eng.pending()
        start = self.i
        while start < len(self.rec) and self.rec[start].type in self.passive:
            start += 1
        if start >= len(self.rec):
            raise self.fail(
                f"the record ends but the engine expects a decision from {self.seat_word}(s) "
                f"{[d.seat for d in pending]}"
            )
        if eng.phase in ("act", "discard"):
            (d,) = pending
            own = self._own_action(d.seat, self.rec[start])
            if own is None:
                raise self.fail(
                    f"the engine waits for {self.seat_word} {d.seat} to act; the record has "
                    f"{self.rec[start].to_mjai()}"
                )
            return {d.seat: self._match(d.seat, d.legal, own)}, []
        answers = self._claims(pending, start)
        passes = []
        for d in pending:
            if d.seat not in answers:
                answers[d.seat] = Event("none")
                passes.append(Event(
                    "none", actor=d.seat,
                    choices=tuple(sorted({e.type for e in d.legal if e.type != "none"})),
                ))
        return answers, passes

    def _match(self, seat: int, legal: Sequence[Event], rec: Event) -> Event:
        for e in legal:
            if self._same_action(e, rec):
                return e
        shown = ", ".join(str(x.to_mjai()) for x in legal[:10])
        raise self.fail(
            f"recorded action {rec.to_mjai()} is not legal for {self.seat_word} {seat}; "
            f"legal: {shown}"
        )

    def _check_new(self, eng: LiveHand, seen: int) -> int:
        """Compare the engine's new events with the record; returns the new ``seen``."""
        self.out.extend(self._passes)
        self._passes = []
        for e in eng.events[seen:]:
            if e.type == "end_kyoku":
                self.out.append(e)
                continue
            if self.i >= len(self.rec):
                raise self.fail(
                    f"engine emitted {e.to_mjai()} after the record's {self.unit} ended"
                )
            self._compare(e, self.rec[self.i])
            self.out.append(e)
            self.i += 1
        return len(eng.events)

    def _compare(self, e: Event, rec: Event) -> None:
        """Actions must be the recorded ones; the rest (a win too) is the engine's outcome."""
        action = e.type in self.actions and e.type != "hora"
        if e.type != rec.type or (action and not self._same_action(e, rec)):
            raise self.fail(f"engine: {e.to_mjai()}; record: {rec.to_mjai()}")
        if e.type == "ryukyoku" and rec.kind and e.kind != rec.kind:
            raise self.fail(f"draw kind differs: engine {e.kind}, record {rec.kind}")
        if not action:
            self._compare_outcome(e, rec)


@dataclass(frozen=True, slots=True)
class GameAdapter(Generic[G, W]):
    """What :func:`replay_game` needs of a rule set besides its :class:`HandDriver`."""

    driver: type[HandDriver[G]]
    #: one recorded hand's wall; raises ``wall_error`` when no wall holds what the record shows
    wall: Callable[[Sequence[Event]], W]
    wall_error: type[Exception]
    #: the engine's game, drawing its walls from the source and starting as the record's start
    new_game: Callable[[Callable[[int, Any], W], Event], G]
    #: how the engine's new hand differs from the recorded ``start_kyoku`` (None: it does not)
    start_differs: Callable[[G, Event], str | None]
    #: is the record a whole game unless told (by default: its final scores are known), and why
    #: can it not be replayed at all (None: it can)?
    opening: Callable[[Sequence[Sequence[Event]], Sequence[int] | None],
                      tuple[bool, str | None]] = lambda rounds, scores: (scores is not None, None)
    #: added to a hand's place in messages (Riichi names the round: `` (E1-0)``)
    label: Callable[[Event], str] = lambda start: ""
    #: added to "the record ends but the engine's game goes on"
    goes_on: Callable[[G], str] = lambda game: ""
    #: the engine's hand in play (``HandDriver._live``'s choice for this rule set)
    live: Callable[[G], LiveHand | None] = lambda game: game.round


def replay_game(rounds: Sequence[Sequence[Event]], adapter: GameAdapter[G, W], *, name: str,
                final_scores: Sequence[int] | None, complete: bool | None,
                observe: Observer | None = None) -> ReplayResult:
    """Replay one game split into ``rounds`` under ``adapter``'s rule set; the result names
    the first divergence, if any.

    ``complete`` says whether the record holds a whole game (the engine must then end it, with
    ``final_scores`` if given) or only some hands; None leaves it to ``adapter.opening``.
    """
    unit = adapter.driver.unit
    out: list[Event] = []
    if not rounds:
        return ReplayResult(False, 0, out, Divergence(name, f"no {unit}s in the record"))
    whole, problem = adapter.opening(rounds, final_scores)
    if problem is not None:
        return ReplayResult(False, 0, out, Divergence(f"{name}, {unit} 1", problem))
    if complete is None:
        complete = whole
    walls: list[W] = []
    for i, rnd in enumerate(rounds):
        try:
            walls.append(adapter.wall(rnd))
        except adapter.wall_error as exc:
            return ReplayResult(False, i, out, Divergence(f"{name}, {unit} {i + 1}", str(exc)))

    def source(index: int, key: Any) -> W:
        if index >= len(walls):
            if not complete:
                raise _RecordEnded
            raise Divergence(f"{name}, {unit} {index + 1}",
                             f"the engine starts another hand {key} but the record has ended")
        return walls[index]

    try:
        game = adapter.new_game(source, rounds[0][0])
        out.append(game.events[0])
        for i, rnd in enumerate(rounds):
            start = rnd[0]
            eng = adapter.live(game)
            where = f"{name}, {unit} {i + 1}{adapter.label(start)}"
            if eng is None:
                raise Divergence(where, "the engine ended the game but the record goes on")
            differs = adapter.start_differs(game, start)
            if differs is not None:
                raise Divergence(where, differs)
            out.append(eng.events[0])
            driver = adapter.driver(game, rnd, where, out)
            driver.observe = observe
            driver.run()
        if complete and not game.done:
            raise Divergence(f"{name}, end", "the record ends but the engine's game goes on"
                             + adapter.goes_on(game))
        if game.done:
            out.append(game.events[-1])
        if complete and final_scores is not None and tuple(final_scores) != game.final_scores:
            raise Divergence(f"{name}, end", f"final scores differ: engine "
                             f"{list(game.final_scores)}, record {list(final_scores)}")
    except _RecordEnded:
        pass
    except Divergence as d:
        return ReplayResult(False, len(rounds), out, d)
    return ReplayResult(True, len(rounds), out)

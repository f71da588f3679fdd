"""Re-drive the MCR engine with the actions of a real game and report the first divergence.

For each hand the walls are rebuilt from the record: with per-seat walls (Botzone) each seat's
wall is the tiles that seat drew, in order, replacement draws included; with one shared wall
the ordinary draws fill the front and the replacement draws (after a kong or a flower) the
back.  The engine then draws exactly what the players drew, so any divergence is a rules
difference.  Every recorded action is checked against the engine's legal actions at that
moment, and every outcome the engine computes itself — draws, flowers, wins with their fan
total, fans and payments, exhaustive draws, penalties, the final scores — is compared with the
record.  Claim windows in which a player could have claimed but did not come out as ``none``
events (``choices`` lists what was possible), as in the Riichi replay.

A record that ends in a penalty (Botzone's −30/+10 for a false win or an illegal action; the
judge log does not say which) replays with the false-win declaration allowed, and the
offender's decision at that point is answered with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tenpai.engine.flow import IllegalActionError
from tenpai.events import Event
from tenpai.replay.riichi import Divergence, ReplayResult, split_rounds
from tenpai.rules.mcr.flow.round import FALSE_WIN, MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCRRules
from tenpai.rules.mcr.flow.wall import MCRWall, SeatWalls, SharedWall, WallError
from tenpai.rules.mcr.game import HandKey, MCRGame, tileset_for

__all__ = ["replay_mcr"]

_ACTIONS = frozenset({"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "hora"})
_CLAIMS = frozenset({"hora", "chi", "pon", "daiminkan"})
_KANS = frozenset({"daiminkan", "kakan", "ankan"})


class _RecordEnded(Exception):
    """A partial record has no more hands; the engine's game simply stops there."""


def _is_penalty(e: Event) -> bool:
    return e.type == "ryukyoku" and e.kind == "penalty"


def _hand_wall(rules: MCRRules, tileset: Sequence[int], rnd: Sequence[Event]) -> MCRWall:
    start = rnd[0]
    hands = [list(h or ()) for h in start.tehais]
    if rules.per_seat_walls:
        draws: list[list[int]] = [[], [], [], []]
        for e in rnd[1:]:
            if e.type == "tsumo":
                if e.actor is None or e.pai is None or not 0 <= e.actor < 4:
                    raise WallError(f"a draw without a valid seat and tile: {e.to_mjai()}")
                draws[e.actor].append(e.pai)
        return SeatWalls.from_record(tileset, hands, draws)
    front: list[int] = []
    back: list[int] = []
    replacement = False
    for e in rnd[1:]:
        if e.type == "tsumo":
            if e.pai is None:
                raise WallError("a draw without its tile")
            (back if replacement else front).append(e.pai)
            replacement = False
        elif e.type in _KANS or e.type == "flower":
            replacement = True
        elif e.type in _ACTIONS:
            replacement = False
    return SharedWall.from_record(tileset, hands, front, back)


def _same_action(a: Event, b: Event) -> bool:
    """Does the engine's legal action ``a`` match the recorded action ``b``?"""
    if a.type != b.type or a.actor != b.actor:
        return False
    if a.type == "ryukyoku":
        return a.kind == FALSE_WIN and _is_penalty(b)
    if a.type == "hora":
        return a.target == b.target and (a.pai == b.pai or a.target == a.actor)
    if a.type == "ankan":
        return sorted(a.consumed) == sorted(b.consumed)
    if a.pai != b.pai:
        return False
    if a.type in ("chi", "pon", "daiminkan", "kakan"):
        return sorted(a.consumed) == sorted(b.consumed) and (
            a.type == "kakan" or a.target == b.target
        )
    if a.type == "dahai":
        return a.tsumogiri is None or b.tsumogiri is None or a.tsumogiri == b.tsumogiri
    return True


class _HandDriver:
    """Feeds one recorded hand to the engine and matches what it emits against the record."""

    def __init__(self, game: MCRGame, rnd: Sequence[Event], where: str, out: list[Event]):
        self.game = game
        self.rec = [e for e in rnd[1:] if e.type not in ("end_kyoku", "none")]
        self.where = where
        self.out = out
        self.i = 0
        self._passes: list[Event] = []

    def fail(self, msg: str) -> Divergence:
        return Divergence(f"{self.where}, event {self.i + 1}", msg)

    def run(self) -> None:
        eng = self.game.round
        assert eng is not None
        seen = 1  # start_kyoku was checked by the caller
        while True:
            seen = self._check_new(eng, seen)
            if eng.done:
                break
            answers, passes = self._answers(eng)
            try:
                self.game.step({self.game.player_at(s): a for s, a in answers.items()})
            except IllegalActionError as exc:
                raise self.fail(str(exc)) from exc
            self._passes = passes
        if self.i < len(self.rec):
            raise self.fail(
                "the engine ended the hand but the record goes on with "
                f"{self.rec[self.i].to_mjai()}"
            )

    def _next(self, eng: MCRRound) -> Event:
        if self.i >= len(self.rec):
            raise self.fail(
                "the record ends but the engine expects a decision from position(s) "
                f"{[d.seat for d in eng.pending()]}"
            )
        return self.rec[self.i]

    def _answers(self, eng: MCRRound) -> tuple[dict[int, Event], list[Event]]:
        pending = eng.pending()
        nxt = self._next(eng)
        if eng.phase in ("act", "discard"):
            (d,) = pending
            if not (nxt.type in _ACTIONS or _is_penalty(nxt)) or nxt.actor != d.seat:
                raise self.fail(
                    f"the engine waits for position {d.seat} to act; the record has "
                    f"{nxt.to_mjai()}"
                )
            return {d.seat: self._match(d.seat, d.legal, nxt)}, []
        by_seat = {d.seat: d for d in pending}
        answers: dict[int, Event] = {}
        if nxt.type in _CLAIMS or _is_penalty(nxt):
            if nxt.actor not in by_seat:
                if nxt.type == "hora" or _is_penalty(nxt):
                    what = "win" if nxt.type == "hora" else "penalty"
                    raise self.fail(
                        f"record: {what} of position {nxt.actor} ({nxt.to_mjai()}), but the "
                        "engine offers that position nothing here"
                    )
            else:
                assert nxt.actor is not None
                answers[nxt.actor] = self._match(nxt.actor, by_seat[nxt.actor].legal, nxt)
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
            if _same_action(e, rec):
                return e
        shown = ", ".join(str(x.to_mjai()) for x in legal[:10])
        raise self.fail(
            f"recorded action {rec.to_mjai()} is not legal for position {seat}; legal: {shown}"
        )

    def _check_new(self, eng: MCRRound, seen: int) -> int:
        """Compare the engine's new events with the record; returns the new ``seen``."""
        self.out.extend(self._passes)
        self._passes = []
        for e in eng.events[seen:]:
            if e.type == "end_kyoku":
                self.out.append(e)
                continue
            if self.i >= len(self.rec):
                raise self.fail(f"engine emitted {e.to_mjai()} after the record's hand ended")
            self._compare(e, self.rec[self.i])
            self.out.append(e)
            self.i += 1
        return len(eng.events)

    def _compare(self, e: Event, rec: Event) -> None:
        if e.type != rec.type:
            raise self.fail(f"engine: {e.to_mjai()}; record: {rec.to_mjai()}")
        t = e.type
        if t in _ACTIONS and t != "hora":
            if not _same_action(e, rec):
                raise self.fail(f"engine: {e.to_mjai()}; record: {rec.to_mjai()}")
        elif t in ("tsumo", "flower"):
            if (e.actor, e.pai) != (rec.actor, rec.pai):
                raise self.fail(f"engine {t} {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "hora":
            self._compare_win(e, rec)
        elif t == "ryukyoku":
            if rec.kind and e.kind != rec.kind:
                raise self.fail(f"draw kind differs: engine {e.kind}, record {rec.kind}")
            if rec.kind == "penalty" and e.actor != rec.actor:
                raise self.fail(f"penalty on position {e.actor}, the record has {rec.actor}")
            if rec.deltas and tuple(rec.deltas) != tuple(e.deltas):
                raise self.fail(
                    f"{e.kind} deltas differ: engine {list(e.deltas)}, record {list(rec.deltas)}"
                )

    def _compare_win(self, e: Event, rec: Event) -> None:
        if (e.actor, e.target) != (rec.actor, rec.target) or (
            e.pai != rec.pai and e.actor != e.target
        ):
            raise self.fail(f"engine {e.to_mjai()}; record {rec.to_mjai()}")
        fans = f"(engine {e.han} fan {list(e.yaku)}; record {rec.han} fan {list(rec.yaku)})"
        if rec.han is not None and rec.han != e.han:
            raise self.fail(f"fan totals differ {fans}")
        if rec.yaku and sorted(rec.yaku) != sorted(e.yaku):
            raise self.fail(f"fans differ {fans}")
        if rec.deltas and tuple(rec.deltas) != tuple(e.deltas):
            raise self.fail(
                f"win deltas differ: engine {list(e.deltas)}, record {list(rec.deltas)} {fans}"
            )


def replay_mcr(
    events: Iterable[Event],
    *,
    rules: MCRRules = BOTZONE,
    final_scores: Sequence[int] | None = None,
    name: str = "game",
    complete: bool | None = None,
) -> ReplayResult:
    """Replay one MCR game; the result names the first divergence, if any.

    ``complete`` says whether the record holds a whole game (the engine must then end it, with
    ``final_scores`` if given); by default a record is complete when its final scores are known.
    """
    if complete is None:
        complete = final_scores is not None
    rounds = split_rounds(list(events))
    out: list[Event] = []
    if not rounds:
        return ReplayResult(False, 0, out, Divergence(name, "no hands in the record"))
    if any(_is_penalty(e) for rnd in rounds for e in rnd):
        rules = rules.with_(allow_false_win=True)
    tileset = tileset_for(rules)
    walls: list[MCRWall] = []
    for i, rnd in enumerate(rounds):
        try:
            walls.append(_hand_wall(rules, tileset, rnd))
        except WallError as exc:
            return ReplayResult(False, i, out, Divergence(f"{name}, hand {i + 1}", str(exc)))

    def source(index: int, key: HandKey) -> MCRWall:
        if index >= len(walls):
            if not complete:
                raise _RecordEnded
            raise Divergence(f"{name}, hand {index + 1}",
                             f"the engine starts another hand {key} but the record has ended")
        return walls[index]

    first = rounds[0][0]
    try:
        game = MCRGame(rules, wall_source=source,
                       prevalent_wind=None if rules.full_game else first.bakaze or 0)
        out.append(game.events[0])
        for i, rnd in enumerate(rounds):
            start = rnd[0]
            eng = game.round
            where = f"{name}, hand {i + 1}"
            if eng is None:
                raise Divergence(where, "the engine ended the game but the record goes on")
            key = (eng.prevalent_wind, eng.hand_number, eng.dealer, _hands(eng.events[0]))
            want = (start.bakaze, start.kyoku, start.oya, _hands(start))
            if key != want:
                raise Divergence(where, f"hand start differs: engine {key[:3]}, record {want[:3]}"
                                 + ("" if key[3] == want[3] else " (deals differ)"))
            out.append(eng.events[0])
            _HandDriver(game, rnd, where, out).run()
        if complete and not game.done:
            raise Divergence(f"{name}, end", "the record ends but the engine's game goes on")
        if game.done:
            out.append(game.events[-1])
        if complete and final_scores is not None and tuple(final_scores) != game.final_scores:
            raise Divergence(
                f"{name}, end",
                f"final scores differ: engine {list(game.final_scores)}, "
                f"record {list(final_scores)}",
            )
    except _RecordEnded:
        pass
    except Divergence as d:
        return ReplayResult(False, len(rounds), out, d)
    return ReplayResult(True, len(rounds), out)


def _hands(start: Event) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(h or ())) for h in start.tehais)

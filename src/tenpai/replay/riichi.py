"""Re-drive the Riichi engine with the actions of a real game and report the first divergence.

For each round the wall is rebuilt from the record (its deal, its draws, its dora and ura
indicators and its replacement tiles), so the engine draws exactly what the players drew.  Then
every recorded action is checked against the engine's legal actions at that moment, and every
outcome the engine computes itself — draws, new dora, wins with their points, draws with their
payments, the final scores — is compared with the record.  Claim windows in which a player could
have called but did not are added to the output as ``none`` events (``choices`` lists what was
possible), so datasets can learn when not to call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tenpai.engine.flow import IllegalActionError
from tenpai.events import Event
from tenpai.records.yaku_names import ENGINE_YAKU_NAMES, YAKU_NAMES, tenhou_yaku_name
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.wall import RoundWall, WallError
from tenpai.rules.riichi.game import RiichiGame, RoundKey
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules

__all__ = ["Divergence", "ReplayResult", "replay_riichi", "split_rounds"]

_ACTIONS = frozenset(
    {"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora", "nukidora"}
)
#: actions followed by a replacement draw (a North set aside draws one too)
_KANS = frozenset({"daiminkan", "kakan", "ankan", "nukidora"})
#: yaku names the value check can read: Tenhou's and the engine's ids
_KNOWN_YAKU = frozenset(YAKU_NAMES) | frozenset(ENGINE_YAKU_NAMES) | {
    "yakuhai_seat_wind", "yakuhai_round_wind"}
#: Events the engine produces by itself; look past them for the next recorded decision.
_PASSIVE = frozenset({"dora", "reach_accepted"})


class Divergence(Exception):
    """The engine and the record disagree; ``where`` names the round and event index."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class _RecordEnded(Exception):
    """A partial record has no more rounds; the engine's game simply stops there."""


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


def _round_wall(tileset: Sequence[int], rnd: Sequence[Event], players: int = 4) -> RoundWall:
    start = rnd[0]
    hands = [list(h or ()) for h in start.tehais]
    if len(hands) != players or any(len(h) != 13 for h in hands):
        raise WallError(f"the round does not start with {players} 13-tile hands")
    live: list[int] = []
    rinshan: list[int] = []
    if start.dora_marker is None:
        raise WallError("the round starts without a dora indicator")
    dora = [start.dora_marker]
    ura: list[int] = []
    last_action = ""
    for e in rnd[1:]:
        if e.type == "tsumo":
            if e.pai is None or e.actor is None or not 0 <= e.actor < players:
                raise WallError(f"a draw without a valid seat and tile: {e.to_mjai()}")
            (rinshan if last_action in _KANS else live).append(e.pai)
            last_action = "tsumo"
        elif e.type == "dora":
            if e.dora_marker is None:
                raise WallError("a dora event without its indicator")
            dora.append(e.dora_marker)
        elif e.type == "hora" and e.ura_markers and not ura:
            ura = list(e.ura_markers)
        elif e.type in _ACTIONS:
            last_action = e.type
    return RoundWall.from_record(tileset, hands, live, dora, ura, rinshan)


def _same_action(a: Event, b: Event) -> bool:
    if a.type != b.type or a.actor != b.actor:
        return False
    if a.type == "reach":
        return True
    if a.type == "nukidora":
        return a.pai is None or b.pai is None or a.pai == b.pai
    if a.pai != b.pai:
        return False
    if a.type in ("chi", "pon", "daiminkan", "kakan", "ankan"):
        return sorted(a.consumed) == sorted(b.consumed) and (
            a.type in ("kakan", "ankan") or a.target == b.target
        )
    if a.type == "dahai":
        return a.tsumogiri is None or b.tsumogiri is None or a.tsumogiri == b.tsumogiri
    if a.type == "hora":
        return a.target == b.target
    return True


class _RoundDriver:
    """Feeds one recorded round to the engine and matches what it emits against the record.

    Two cursors move together: the engine's new events are compared one by one with the
    record's events from ``i`` on; actions are then read ahead from the record (without moving
    ``i``) to answer the engine's next decision.
    """

    def __init__(self, game: RiichiGame, rnd: Sequence[Event], where: str, out: list[Event]):
        self.game = game
        self.rec = [e for e in rnd[1:] if e.type not in ("end_kyoku", "none")]
        self.where = where
        self.out = out
        self.i = 0
        self._pending_passes: list[Event] = []
        # the round's winds, for the wind yaku's names (the game moves on when the round ends)
        eng = game.round
        self.oya = eng.oya if eng is not None else 0
        self.bakaze = eng.bakaze if eng is not None else 0

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
                self.game.step(answers)
            except IllegalActionError as exc:
                raise self.fail(str(exc)) from exc
            self._pending_passes = passes
        if self.i < len(self.rec):
            raise self.fail(
                "the engine ended the round but the record goes on with "
                f"{self.rec[self.i].to_mjai()}"
            )

    def _answers(self, eng: RiichiRound) -> tuple[dict[int, Event], list[Event]]:
        pending = eng.pending()
        if self.i >= len(self.rec):
            raise self.fail(
                "the record ends but the engine expects a decision from seat(s) "
                f"{[d.seat for d in pending]}"
            )
        start = self.i
        while start < len(self.rec) and self.rec[start].type in _PASSIVE:
            start += 1
        if start >= len(self.rec):
            raise self.fail(
                "the record ends but the engine expects a decision from seat(s) "
                f"{[d.seat for d in pending]}"
            )
        nxt = self.rec[start]
        if eng.phase in ("act", "discard"):
            (d,) = pending
            if nxt.type == "ryukyoku" and nxt.kind == "nine_terminals":
                nxt = nxt.with_(actor=d.seat, deltas=())
            elif nxt.type not in _ACTIONS or nxt.actor != d.seat:
                raise self.fail(
                    f"the engine waits for seat {d.seat} to act; the record has {nxt.to_mjai()}"
                )
            return {d.seat: self._match(d.seat, d.legal, nxt)}, []
        by_seat = {d.seat: d for d in pending}
        answers: dict[int, Event] = {}
        if nxt.type == "ryukyoku" and nxt.kind == "triple_ron":
            # The record shows only the abort; the three players must each have declared ron.
            for d in pending:
                ron = next((e for e in d.legal if e.type == "hora"), None)
                answers[d.seat] = ron if ron is not None else Event("none")
            return answers, []
        j = start
        while j < len(self.rec) and self.rec[j].type in ("hora", "chi", "pon", "daiminkan"):
            c = self.rec[j]
            if c.actor not in by_seat:
                if c.type == "hora":
                    raise self.fail(
                        f"record: seat {c.actor} wins with {c.to_mjai()}, but the "
                        "engine does not allow that win here"
                    )
                break
            assert c.actor is not None
            answers[c.actor] = self._match(c.actor, by_seat[c.actor].legal, c)
            j += 1
            if c.type != "hora":
                break
        if (
            j < len(self.rec)
            and self.rec[j].type == "hora"
            and not any(a.type == "hora" for a in answers.values())
        ):
            c = self.rec[j]
            raise self.fail(
                f"record: seat {c.actor} wins with {c.to_mjai()}, but the engine "
                "does not allow that win here"
            )
        passes = []
        for d in pending:
            if d.seat not in answers:
                answers[d.seat] = Event("none")
                passes.append(
                    Event(
                        "none",
                        actor=d.seat,
                        choices=tuple(sorted({e.type for e in d.legal if e.type != "none"})),
                    )
                )
        return answers, passes

    def _match(self, seat: int, legal: Sequence[Event], rec: Event) -> Event:
        for e in legal:
            if _same_action(e, rec):
                return e
        shown = ", ".join(str(x.to_mjai()) for x in legal[:10])
        raise self.fail(
            f"recorded action {rec.to_mjai()} is not legal for seat {seat}; legal: {shown}"
        )

    def _check_new(self, eng: RiichiRound, seen: int) -> int:
        """Compare the engine's new events with the record; returns the new ``seen``."""
        self.out.extend(self._pending_passes)
        self._pending_passes = []
        for e in eng.events[seen:]:
            if e.type == "end_kyoku":
                self.out.append(e)
                continue
            if self.i >= len(self.rec):
                raise self.fail(f"engine emitted {e.to_mjai()} after the record's round ended")
            rec = self.rec[self.i]
            if e.type == "ryukyoku" and e.kind == "nine_terminals" and rec.type == "ryukyoku":
                rec = rec.with_(actor=e.actor)
            self._compare(e, rec)
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
        elif t == "tsumo":
            if (e.actor, e.pai) != (rec.actor, rec.pai):
                raise self.fail(f"engine draw {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "dora":
            if e.dora_marker != rec.dora_marker:
                raise self.fail(f"engine dora {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "reach_accepted":
            if e.actor != rec.actor:
                raise self.fail(f"engine {e.to_mjai()}; record {rec.to_mjai()}")
        elif t in ("hora", "ryukyoku"):
            if t == "hora" and (e.actor, e.target, e.pai) != (rec.actor, rec.target, rec.pai):
                raise self.fail(f"engine {e.to_mjai()}; record {rec.to_mjai()}")
            if t == "ryukyoku" and rec.kind and e.kind != rec.kind:
                raise self.fail(f"draw kind differs: engine {e.kind}, record {rec.kind}")
            if rec.deltas and tuple(rec.deltas) != tuple(e.deltas):
                detail = ""
                if t == "hora":
                    detail = (
                        f" (engine {e.han} han {e.fu} fu {list(e.yaku)}; record "
                        f"{rec.han} han {rec.fu} fu {list(rec.yaku)})"
                    )
                raise self.fail(
                    f"{t} deltas differ: engine {list(e.deltas)}, record {list(rec.deltas)}{detail}"
                )
            if t == "hora":
                self._compare_value(e, rec)

    def _compare_value(self, e: Event, rec: Event) -> None:
        """The recorded han, fu and yaku must be the engine's, not only the payments: a record
        claiming tanyao at 13 han 99 fu for 8,000 points pays like a mangan and would pass a
        check of the deltas alone.  Fu is compared below mangan only (above it the fu does not
        change the value and formats disagree on what to print); a yaku list is compared when
        the record has one (mjai logs of some programs and Mahjong Soul exports do not)."""
        shown = (f"(engine {e.han} han {e.fu} fu {list(e.yaku)}; record "
                 f"{rec.han} han {rec.fu} fu {list(rec.yaku)})")
        if rec.han is not None and rec.han != e.han:
            raise self.fail(f"han differ {shown}")
        # some programs' mjai logs print the fu before rounding up (38 for 40); 25 stays 25
        fu = rec.fu if rec.fu is None or rec.fu == 25 else -(-rec.fu // 10) * 10
        if fu is not None and e.fu is not None and e.han is not None and e.han < 5 and fu != e.fu:
            raise self.fail(f"fu differ {shown}")
        # names in another vocabulary (mjai-reviewer's English "Riichi") cannot be compared
        if rec.yaku and all(n in _KNOWN_YAKU for n, _ in rec.yaku) and (
            self._yaku_names(rec) != self._yaku_names(e)
        ):
            raise self.fail(f"yaku differ {shown}")

    def _yaku_names(self, e: Event) -> list[tuple[str, int]]:
        """A win's yaku in Tenhou's names, 0-han entries (Tenhou's ``裏ドラ 0``) left out."""
        seat = ((e.actor or 0) - self.oya) % self.game.players
        return sorted((tenhou_yaku_name(n, seat, self.bakaze), h) for n, h in e.yaku if h)


def replay_riichi(
    events: Iterable[Event],
    *,
    rules: RiichiRules = TENHOU,
    final_scores: Sequence[int] | None = None,
    name: str = "game",
    complete: bool | None = None,
) -> ReplayResult:
    """Replay one game (four players, or three under three-player rules); the result names
    the first divergence, if any.

    ``complete`` says whether the record holds a whole game (the engine must then end it, with
    ``final_scores`` if given) or only some rounds (one-round edge cases, truncated logs); by
    default a record is complete when its final scores are known.
    """
    evs = list(events)
    rounds = split_rounds(evs)
    out: list[Event] = []
    if not rounds:
        return ReplayResult(False, 0, out, Divergence(name, "no rounds in the record"))
    first = rounds[0][0]
    opening_key = (first.bakaze or 0, first.kyoku or 0, first.honba or 0, first.kyotaku or 0)
    # lobbies start elsewhere than 25,000 (30,000, chip tables 1,000): equal scores suffice
    from_start = opening_key == (0, 0, 0, 0) and len(set(first.scores)) <= 1
    if complete is None:
        # A record of several rounds from East 1 with the starting points is a game from its
        # start: the engine must end it where the record ends (last rounds cut off otherwise
        # pass).  One round alone, or rounds from elsewhere, are a fragment.
        complete = final_scores is not None or (from_start and len(rounds) > 1)
    if final_scores is not None and not from_start:
        # A whole game (its final scores known) starts at East 1 with the starting points; a
        # record whose first rounds are missing would otherwise replay from wherever it begins.
        return ReplayResult(False, 0, out, Divergence(
            f"{name}, round 1",
            "a whole game starts at East 1, 0 honba, with equal scores; the "
            f"record starts at {'ESWN'[opening_key[0] % 4]}{opening_key[1] + 1}, "
            f"{opening_key[2]} honba, {opening_key[3]} deposits, scores {list(first.scores)}"))
    if len(first.tehais) != rules.players:
        return ReplayResult(False, 0, out, Divergence(
            f"{name}, round 1",
            f"the record has {len(first.tehais)} players, the rules {rules.players}"))
    tileset = RiichiGame.tileset_for(rules)
    walls: list[RoundWall] = []
    for i, rnd in enumerate(rounds):
        try:
            walls.append(_round_wall(tileset, rnd, rules.players))
        except WallError as exc:
            return ReplayResult(False, i, out, Divergence(f"{name}, round {i + 1}", str(exc)))

    def source(index: int, key: RoundKey) -> RoundWall:
        if index >= len(walls) and not complete:
            raise _RecordEnded
        if index >= len(walls):
            raise Divergence(
                f"{name}, round {index + 1}",
                f"the engine starts another hand {key} but the record has ended",
            )
        return walls[index]

    try:
        opening = (first.bakaze or 0, first.kyoku or 0, first.honba or 0, first.kyotaku or 0)
        game = RiichiGame(rules, wall_source=source, scores=first.scores or None, start=opening)
        out.append(game.events[0])
        for i, rnd in enumerate(rounds):
            start = rnd[0]
            eng = game.round
            where = (
                f"{name}, round {i + 1} ({'ESWN'[start.bakaze or 0]}{(start.kyoku or 0) + 1}"
                f"-{start.honba})"
            )
            if eng is None:
                raise Divergence(where, "the engine ended the game but the record goes on")
            key = (eng.bakaze, eng.kyoku, eng.honba, eng.kyotaku, tuple(eng.scores))
            want = (start.bakaze, start.kyoku, start.honba, start.kyotaku, tuple(start.scores))
            if key != want:
                raise Divergence(where, f"round start differs: engine {key}, record {want}")
            out.append(eng.events[0])
            _RoundDriver(game, rnd, where, out).run()
        if complete and not game.done:
            raise Divergence(
                f"{name}, end",
                "the record ends but the engine's game goes on "
                f"(next hand {game.bakaze},{game.kyoku},{game.honba})",
            )
        if game.done:
            out.append(game.events[-1])
        if complete and final_scores is not None and tuple(final_scores) != game.final_scores:
            raise Divergence(
                f"{name}, end",
                f"final scores differ: engine "
                f"{list(game.final_scores)}, record {list(final_scores)}",
            )
    except _RecordEnded:
        pass
    except Divergence as d:
        return ReplayResult(False, len(rounds), out, d)
    return ReplayResult(True, len(rounds), out)

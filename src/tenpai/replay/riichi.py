"""Re-drive the Riichi engine with the actions of a real game and report the first divergence.

The loop is :mod:`tenpai.replay.driver`'s; this is what is Riichi's own.  Each round's wall is
rebuilt from the record (its deal, its draws, its dora and ura indicators and its replacement
tiles), so the engine draws exactly what the players drew.  What the engine computes itself —
draws, new dora, wins with their points, han, fu and yaku, draws with their payments, the final
scores — is compared with the record.  Nine terminals and triple ron, which a record shows only
as the abortive draw, are answered with the declarations behind them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from tenpai import tiles as T
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.records.yaku_names import (
    ENGINE_YAKU_NAMES,
    ENGLISH_YAKU_IDS,
    YAKU_NAMES,
    english_key,
    tenhou_yaku_name,
)
from tenpai.replay.driver import (
    Divergence,
    GameAdapter,
    HandDriver,
    Observer,
    ReplayResult,
    replay_game,
    split_rounds,
)
from tenpai.rules.riichi.compiled_round import CompiledRound
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.wall import RoundWall, WallError
from tenpai.rules.riichi.game import Engine, RiichiGame
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


class _RoundDriver(HandDriver[RiichiGame]):
    """Riichi's side of the hand loop: passive events, nine terminals, triple ron, the value."""

    unit = "round"
    actions = _ACTIONS
    passive = frozenset({"dora", "reach_accepted"})

    def __init__(self, game: RiichiGame, rnd: Sequence[Event], where: str, out: list[Event]):
        super().__init__(game, rnd, where, out)
        # the round's winds, for the wind yaku's names (the game moves on when the round ends)
        eng = game.current
        self.oya = eng.oya if eng is not None else 0
        self.bakaze = eng.bakaze if eng is not None else 0
        # the engine's scores as the round goes on, for records that state the scores after a
        # win or draw (akochan's mjai: ``hora.scores`` and no deltas)
        self.running = list(eng.scores) if eng is not None else []

    def _live(self) -> CompiledRound | RiichiRound | None:
        return self.game.current

    def _same_action(self, a: Event, b: Event) -> bool:
        if a.type != b.type or a.actor != b.actor:
            return False
        if a.type == "reach":
            return True
        if a.type == "nukidora":
            return a.pai is None or b.pai is None or a.pai == b.pai
        if a.type == "hora":
            return a.pai == b.pai and a.target == b.target
        return self._same_tiles(a, b)

    def _own_action(self, seat: int, nxt: Event) -> Event | None:
        if nxt.type == "ryukyoku" and nxt.kind == "nine_terminals":
            # the record shows the abortive draw; the engine asks for the declaration, which
            # only the seat to move can make (a record naming another declarer is wrong)
            if nxt.actor is not None and nxt.actor != seat:
                return None
            return nxt.with_(actor=seat, deltas=())
        return super()._own_action(seat, nxt)

    def _claims(self, pending: Sequence[Decision], start: int) -> dict[int, Event]:
        by_seat = {d.seat: d for d in pending}
        answers: dict[int, Event] = {}
        if self.rec[start].type == "ryukyoku" and self.rec[start].kind == "triple_ron":
            # The record shows only the abort; the three players must each have declared ron.
            for d in pending:
                ron = next((e for e in d.legal if e.type == "hora"), None)
                answers[d.seat] = ron if ron is not None else Event("none")
            return answers
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
        return answers

    def _compare(self, e: Event, rec: Event) -> None:
        if e.type == "ryukyoku" and e.kind == "nine_terminals" and rec.type == "ryukyoku":
            # some records do not say who declared it (``_own_action`` refused another seat)
            rec = rec.with_(actor=e.actor)
        super()._compare(e, rec)

    def _compare_outcome(self, e: Event, rec: Event) -> None:
        t = e.type
        if t == "tsumo":
            if (e.actor, e.pai) != (rec.actor, rec.pai):
                raise self.fail(f"engine draw {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "dora":
            if e.dora_marker != rec.dora_marker:
                raise self.fail(f"engine dora {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "reach_accepted":
            if e.actor != rec.actor:
                raise self.fail(f"engine {e.to_mjai()}; record {rec.to_mjai()}")
            if e.actor is not None and e.actor < len(self.running):
                self.running[e.actor] -= 1000
        elif t in ("hora", "ryukyoku"):
            if t == "hora" and (e.actor, e.target, e.pai) != (rec.actor, rec.target, rec.pai):
                raise self.fail(f"engine {e.to_mjai()}; record {rec.to_mjai()}")
            # a record naming a liable seat (mjlog paoWho) must name the engine's; one that
            # names none is not read as "no pao" (mjai logs have no such field)
            if t == "hora" and rec.pao is not None and rec.pao != e.pao:
                raise self.fail(f"liable seat (pao) differs: engine {e.pao}, record {rec.pao}")
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
            for seat, d in enumerate(e.deltas[: len(self.running)]):
                self.running[seat] += d
            if len(rec.scores) == len(self.running) and list(rec.scores) != self.running:
                raise self.fail(
                    f"{t} scores differ: engine {self.running}, record {list(rec.scores)}")
            if t == "hora":
                self._compare_value(e, rec)
            else:
                self._compare_shown(e, rec)

    def _compare_shown(self, e: Event, rec: Event) -> None:
        """A hand the record shows at a draw must be the engine's: the payments are the same
        for any tenpai hand, so a record showing nine gates for another hand passed.  Hidden
        hands (``?`` in mjai) are not compared, nor the hands other draws (nine terminals, four
        riichi) lay open, which the engine does not show."""
        if e.kind != "exhaustive":
            return
        for seat, shown in enumerate(rec.tehais):
            if shown is None:
                continue
            held = e.tehais[seat] if seat < len(e.tehais) else None
            if held is None or sorted(held) != sorted(shown):
                engine = "not shown (noten)" if held is None else T.to_compact(held)
                raise self.fail(
                    f"ryukyoku shows seat {seat}'s hand {T.to_compact(shown)}; "
                    f"engine: {engine}"
                )

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
        # names in another vocabulary (mjai-reviewer's English "Riichi") cannot be compared;
        # but one unknown name among known ones is a lie, not a vocabulary: it must not switch
        # the check off for the whole list
        unknown = [n for n, _ in rec.yaku if n not in _KNOWN_YAKU]
        if unknown and len(unknown) < len(rec.yaku):
            raise self.fail(f"unknown yaku {unknown[0]!r} {shown}")
        if unknown and all(english_key(n) in ENGLISH_YAKU_IDS for n in unknown):
            # English names are compared only when every one of them can be read: a name of
            # another spelling must not make a real record fail
            rec = rec.with_(yaku=tuple((ENGLISH_YAKU_IDS[english_key(n)], h) for n, h in rec.yaku))
            unknown = []
        if rec.yaku and not unknown and self._yaku_names(rec) != self._yaku_names(e):
            raise self.fail(f"yaku differ {shown}")

    def _yaku_names(self, e: Event) -> list[tuple[str, int]]:
        """A win's yaku in Tenhou's names, 0-han entries (Tenhou's ``裏ドラ 0``) left out."""
        seat = ((e.actor or 0) - self.oya) % self.game.players
        return sorted((tenhou_yaku_name(n, seat, self.bakaze), h) for n, h in e.yaku if h)


def _opening(
    rules: RiichiRules, rounds: Sequence[Sequence[Event]], final_scores: Sequence[int] | None
) -> tuple[bool, str | None]:
    """Is the record a whole game unless told, and why can it not be replayed at all?"""
    first = rounds[0][0]
    key = _opening_key(first)
    # lobbies start elsewhere than 25,000 (30,000, chip tables 1,000): equal scores suffice
    from_start = key == (0, 0, 0, 0) and len(set(first.scores)) <= 1
    # A record of several rounds from East 1 with the starting points is a game from its
    # start: the engine must end it where the record ends (last rounds cut off otherwise
    # pass).  One round alone, or rounds from elsewhere, are a fragment.
    complete = final_scores is not None or (from_start and len(rounds) > 1)
    if final_scores is not None and not from_start:
        # A whole game (its final scores known) starts at East 1 with the starting points; a
        # record whose first rounds are missing would otherwise replay from wherever it begins.
        return complete, (
            "a whole game starts at East 1, 0 honba, with equal scores; the "
            f"record starts at {'ESWN'[key[0] % 4]}{key[1] + 1}, "
            f"{key[2]} honba, {key[3]} deposits, scores {list(first.scores)}")
    if len(first.tehais) != rules.players:
        return complete, f"the record has {len(first.tehais)} players, the rules {rules.players}"
    return complete, None


def _opening_key(first: Event) -> tuple[int, int, int, int]:
    """Wind, hand, honba and deposits of the record's first round."""
    return (first.bakaze or 0, first.kyoku or 0, first.honba or 0, first.kyotaku or 0)


def _start_differs(game: RiichiGame, start: Event) -> str | None:
    """The engine's new round against the record's: wind, hand, honba, deposits, scores."""
    eng = game.current
    assert eng is not None
    key = (eng.bakaze, eng.kyoku, eng.honba, eng.kyotaku, tuple(eng.scores))
    want = (start.bakaze, start.kyoku, start.honba, start.kyotaku, tuple(start.scores))
    return None if key == want else f"round start differs: engine {key}, record {want}"


def replay_riichi(
    events: Iterable[Event],
    *,
    rules: RiichiRules = TENHOU,
    final_scores: Sequence[int] | None = None,
    name: str = "game",
    complete: bool | None = None,
    observe: Observer | None = None,
    engine: Engine = "auto",
) -> ReplayResult:
    """Replay one game (four players, or three under three-player rules); the result names
    the first divergence, if any.  ``observe`` sees every engine decision with the recorded
    answer (e.g. to ask an agent what it would have done).  ``engine`` is
    :class:`RiichiGame`'s: the compiled table where it covers the rules unless told
    ``python``; an observer that wants the Python round takes
    :func:`~tenpai.rules.riichi.compiled_round.python_table` of the observation's table.

    ``complete`` says whether the record holds a whole game (the engine must then end it, with
    ``final_scores`` if given) or only some rounds (one-round edge cases, truncated logs); by
    default a record is complete when its final scores are known.
    """
    tileset = RiichiGame.tileset_for(rules)
    adapter: GameAdapter[RiichiGame, RoundWall] = GameAdapter(
        _RoundDriver, wall=lambda rnd: _round_wall(tileset, rnd, rules.players),
        wall_error=WallError,
        new_game=lambda source, first: RiichiGame(
            rules, wall_source=source, scores=first.scores or None, start=_opening_key(first),
            engine=engine),
        start_differs=_start_differs, opening=partial(_opening, rules),
        label=lambda start: f" ({'ESWN'[start.bakaze or 0]}{(start.kyoku or 0) + 1}-{start.honba})",
        goes_on=lambda game: f" (next hand {game.bakaze},{game.kyoku},{game.honba})",
        live=lambda game: game.current)
    return replay_game(split_rounds(list(events)), adapter, name=name,
                       final_scores=final_scores, complete=complete, observe=observe)

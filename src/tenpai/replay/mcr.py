"""Re-drive the MCR engine with the actions of a real game and report the first divergence.

For each hand the walls are rebuilt from the record: with per-seat walls (Botzone) each seat's
wall is the tiles that seat drew, in order, replacement draws included; with one shared wall
the ordinary draws fill the front and the replacement draws (after a kong or a flower) the
back.  The engine then draws exactly what the players drew, so any divergence is a rules
difference.  The loop, with its ``none`` events for claims let pass, is the Riichi replay's
(:mod:`tenpai.replay.driver`); what the engine computes itself — draws, flowers, wins with
their fan total, fans and payments, exhaustive draws, penalties, the final scores — is compared
with the record.

A record that ends in a penalty (Botzone's −30/+10 for a false win or an illegal action; the
judge log does not say which) replays with the false-win declaration allowed, and the
offender's decision at that point is answered with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.replay.driver import (
    GameAdapter,
    HandDriver,
    Observer,
    ReplayResult,
    replay_game,
    split_rounds,
)
from tenpai.rules.mcr.flow.round import FALSE_WIN
from tenpai.rules.mcr.flow.rules import BOTZONE, MCRRules
from tenpai.rules.mcr.flow.wall import MCRWall, SeatWalls, SharedWall, WallError
from tenpai.rules.mcr.game import MCRGame, tileset_for

__all__ = ["replay_mcr"]

_ACTIONS = frozenset({"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "hora"})
_CLAIMS = frozenset({"hora", "chi", "pon", "daiminkan"})
_KANS = frozenset({"daiminkan", "kakan", "ankan"})


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


class _HandDriver(HandDriver[MCRGame]):
    """MCR's side of the hand loop: flowers, penalties, one claim at a time, seats that move."""

    seat_word = "position"
    actions = _ACTIONS

    def _same_action(self, a: Event, b: Event) -> bool:
        """Does the engine's legal action ``a`` match the recorded action ``b``?"""
        if a.type != b.type or a.actor != b.actor:
            return False
        if a.type == "ryukyoku":
            return a.kind == FALSE_WIN and _is_penalty(b)
        if a.type == "hora":
            return a.target == b.target and (a.pai == b.pai or a.target == a.actor)
        if a.type == "ankan":
            return sorted(a.consumed) == sorted(b.consumed)
        return self._same_tiles(a, b)

    def _own_action(self, seat: int, nxt: Event) -> Event | None:
        return nxt if (nxt.type in _ACTIONS or _is_penalty(nxt)) and nxt.actor == seat else None

    def _player(self, seat: int) -> int:
        return self.game.player_at(seat)

    def _claims(self, pending: Sequence[Decision], start: int) -> dict[int, Event]:
        by_seat = {d.seat: d for d in pending}
        answers: dict[int, Event] = {}
        nxt = self.rec[start]
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
        return answers

    def _compare_outcome(self, e: Event, rec: Event) -> None:
        t = e.type
        if t in ("tsumo", "flower"):
            if (e.actor, e.pai) != (rec.actor, rec.pai):
                raise self.fail(f"engine {t} {e.to_mjai()}; record {rec.to_mjai()}")
        elif t == "hora":
            self._compare_win(e, rec)
        elif t == "ryukyoku":
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


def _start_differs(game: MCRGame, start: Event) -> str | None:
    """The engine's new hand against the record's: wind, number, dealer and deal."""
    eng = game.round
    assert eng is not None
    key = (eng.prevalent_wind, eng.hand_number, eng.dealer, _hands(eng.events[0]))
    want = (start.bakaze, start.kyoku, start.oya, _hands(start))
    if key == want:
        return None
    return (f"hand start differs: engine {key[:3]}, record {want[:3]}"
            + ("" if key[3] == want[3] else " (deals differ)"))


def replay_mcr(
    events: Iterable[Event],
    *,
    rules: MCRRules = BOTZONE,
    final_scores: Sequence[int] | None = None,
    name: str = "game",
    complete: bool | None = None,
    observe: Observer | None = None,
) -> ReplayResult:
    """Replay one MCR game; the result names the first divergence, if any.

    ``complete`` says whether the record holds a whole game (the engine must then end it, with
    ``final_scores`` if given); by default a record is complete when its final scores are known.
    ``observe`` sees every engine decision with the recorded answer, the table live (a tool
    that measures a reading against the hidden tiles reads them there).
    """
    rounds = split_rounds(list(events))
    if any(_is_penalty(e) for rnd in rounds for e in rnd):
        rules = rules.with_(allow_false_win=True)
    tileset = tileset_for(rules)
    adapter: GameAdapter[MCRGame, MCRWall] = GameAdapter(
        _HandDriver, wall=lambda rnd: _hand_wall(rules, tileset, rnd), wall_error=WallError,
        new_game=lambda source, first: MCRGame(
            rules, wall_source=source,
            prevalent_wind=None if rules.full_game else first.bakaze or 0),
        start_differs=_start_differs)
    return replay_game(rounds, adapter, name=name, final_scores=final_scores, complete=complete,
                       observe=observe)


def _hands(start: Event) -> tuple[tuple[int, ...], ...]:
    """The deal, each hand sorted: the order a record lists a hand in means nothing."""
    return tuple(tuple(sorted(h or ())) for h in start.tehais)

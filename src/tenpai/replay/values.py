"""Fill the win and draw values a Riichi record leaves out, from the engine's replay of it.

Some producers (akochan, RiichiEnv) write ``hora`` without han, fu, yaku or point changes.
mjai readers do not need them, but Tenhou's formats do: written as they are, such a game's
mjlog or tenhou.net/6 file scores every win at zero.  The engine knows the values once it has
replayed the record exactly, so ``tenpai convert`` takes them from there — never from a guess:
a record the engine cannot replay keeps its gaps and the writer decides.
"""

from __future__ import annotations

from dataclasses import replace

from tenpai.events import Event
from tenpai.records.game import Game
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import riichi_rules_for

__all__ = ["fill_missing_values", "lacks_values"]

_RESULTS = ("hora", "ryukyoku")


def lacks_values(game: Game) -> bool:
    """Whether a win lacks its han, yaku or point changes, or a draw its point changes (the
    Tenhou writers need them all)."""
    return any(
        (e.type == "hora" and (e.han is None or not e.yaku or not e.deltas))
        or (e.type == "ryukyoku" and not e.deltas and e.kind in (None, "exhaustive"))
        for rnd in game.rounds for e in rnd
    )


def fill_missing_values(game: Game, preset: str = "tenhou") -> Game:
    """A copy of a Riichi ``game`` whose results carry the engine's values where the record
    has none; the game itself when nothing is missing or the replay does not pass."""
    if game.rules.variant != "riichi" or not lacks_values(game):
        return game
    result = replay_riichi(
        game.events(), rules=riichi_rules_for(game, preset),
        final_scores=None if game.truncated else game.final_scores,
        name=game.source, complete=False if game.truncated else None,
    )
    if not result.ok:
        return game
    engine = iter([e for e in result.events if e.type in _RESULTS])
    rounds: list[list[Event]] = []
    for rnd in game.rounds:
        out: list[Event] = []
        for e in rnd:
            if e.type in _RESULTS:
                mine = next(engine, None)
                if mine is None or mine.type != e.type or mine.actor != e.actor:
                    return game  # the results do not line up: leave the record as it is
                e = _filled(e, mine)
            out.append(e)
        rounds.append(out)
    copy = replace(game)
    copy.rounds = rounds
    return copy


def _filled(rec: Event, eng: Event) -> Event:
    changes: dict[str, object] = {}
    if not rec.deltas:
        changes["deltas"] = eng.deltas
    if rec.type == "hora":
        if rec.han is None:
            changes.update(han=eng.han, fu=eng.fu)
        if not rec.yaku:
            changes["yaku"] = eng.yaku
        if not rec.ura_markers and eng.ura_markers:
            changes["ura_markers"] = eng.ura_markers
    return rec.with_(**changes) if changes else rec

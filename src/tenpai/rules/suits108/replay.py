"""Re-drive a 108-tile game from its own event log.

The walls are rebuilt from the log alone (starting hands, ordinary draws, and the draws that
follow a kong, which come from the back of the wall), then each logged decision is fed back to a
fresh game.  The re-driven game must emit the very same events; the first difference is
reported with its index, which is how the tests prove the event stream is complete.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.engine.flow import IllegalActionError
from tenpai.events import Event
from tenpai.rules.suits108.game import Suits108Game
from tenpai.rules.suits108.ruleset import PAPER, Suits108Rules
from tenpai.rules.suits108.wall import Suits108Wall

__all__ = ["ReplayError", "redrive", "walls_from_events"]

_KONGS = frozenset({"ankan", "kakan", "daiminkan"})
_RESOLUTION = frozenset({"reach_accepted"})
_DECISIONS = frozenset({"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "hora", "reach"})


class ReplayError(ValueError):
    """The log cannot be replayed, or the replay diverged; names the event index."""


def walls_from_events(events: Sequence[Event]) -> list[Suits108Wall]:
    """One wall per ``start_kyoku`` in the log, reproducing every draw it shows."""
    walls: list[Suits108Wall] = []
    hands: list[list[int]] | None = None
    draws: list[int] = []
    replacements: list[int] = []
    prev: Event | None = None
    for i, e in enumerate(events):
        if e.type == "start_kyoku":
            if any(h is None for h in e.tehais) or len(e.tehais) != 4:
                raise ReplayError(f"event {i}: start_kyoku without all four hands")
            hands = [list(h) for h in e.tehais if h is not None]
            draws, replacements = [], []
        elif e.type == "tsumo":
            if hands is None or e.pai is None:
                raise ReplayError(f"event {i}: a draw outside a hand, or a hidden draw")
            if prev is not None and prev.type in _KONGS:
                replacements.append(e.pai)
            else:
                draws.append(e.pai)
        elif e.type == "end_kyoku":
            if hands is None:
                raise ReplayError(f"event {i}: end_kyoku without start_kyoku")
            walls.append(Suits108Wall.from_draws(hands, draws, replacements))
            hands = None
        prev = e
    return walls


def _matches(logged: Event, legal: Event) -> bool:
    return (
        logged.type == legal.type
        and logged.actor == legal.actor
        and logged.target == legal.target
        and logged.pai == legal.pai
        and logged.consumed == legal.consumed
        and (legal.tsumogiri is None or logged.tsumogiri == legal.tsumogiri)
    )


def redrive(events: Sequence[Event], rules: Suits108Rules = PAPER) -> Suits108Game:
    """A fresh game fed the decisions of ``events``; raises ReplayError on any divergence."""
    if not events or events[0].type != "start_game":
        raise ReplayError("event 0: the log must begin with start_game")
    walls = walls_from_events(events)

    def source(index: int) -> Suits108Wall:
        if index >= len(walls):
            raise ReplayError(f"the log has {len(walls)} hands; the game wants hand {index + 1}")
        return walls[index]

    game = Suits108Game(rules, names=events[0].names, wall_source=source)
    checked = 0
    while not game.done:
        at = len(game.events)
        _check_range(events, game.events, checked, at)
        checked = at
        if at >= len(events):
            raise ReplayError(f"event {at}: the log ends while the game goes on")
        pending = {d.seat: d for d in game.pending()}
        answers: dict[int, Event] = {}
        j = at
        # Events the engine emits while resolving the answers come before the next decision.
        while j < len(events) and events[j].type in _RESOLUTION:
            j += 1
        while j < len(events) and events[j].type in _DECISIONS and events[j].actor in pending:
            seat = events[j].actor
            assert seat is not None
            if seat in answers:
                break
            choice = next((e for e in pending[seat].legal if _matches(events[j], e)), None)
            if choice is None:
                raise ReplayError(f"event {j}: {events[j].to_mjai()} is not legal in the replay")
            answers[seat] = choice
            if events[j].type != "hora":
                break
            j += 1
        for seat in pending:
            answers.setdefault(seat, Event("none"))
        try:
            game.step(answers)
        except IllegalActionError as err:
            raise ReplayError(f"event {at}: the log shows no legal decision here ({err})") from err
    _check_range(events, game.events, checked, len(game.events))
    if len(game.events) != len(events):
        raise ReplayError(f"event {len(game.events)}: the log goes on after the game ended")
    return game


def _check_range(logged: Sequence[Event], replayed: Sequence[Event], start: int, upto: int) -> None:
    for i in range(start, min(upto, len(logged))):
        if logged[i] != replayed[i]:
            raise ReplayError(
                f"event {i}: the replay gives {replayed[i].to_mjai()}, the log "
                f"{logged[i].to_mjai()}"
            )
    if upto > len(logged):
        raise ReplayError(f"event {len(logged)}: the replay goes on after the log ended")

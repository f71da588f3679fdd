"""Snapshot / restore of a game in progress (seed 000's simulator-based search needs it)."""

from __future__ import annotations

import types
from typing import Any

import pytest

from tenpai.arena.games import make_game
from tenpai.engine.agent import RandomAgent
from tenpai.engine.flow import GameFlow
from tenpai.engine.snapshot import Snapshot, clone
from tenpai.events import Event


def _signature(obj: Any, seen: set[int] | None = None) -> Any:
    """Everything reachable from ``obj`` as nested plain values (functions and the identity of
    shared objects left out), to see whether a game's state changed at all."""
    seen = set() if seen is None else seen
    if isinstance(obj, (int, float, str, bool, type(None), Event)):
        return obj
    if isinstance(obj, (types.FunctionType, types.MethodType, type)):
        return "<fn>"
    if id(obj) in seen:
        return "<seen>"
    seen.add(id(obj))
    if isinstance(obj, (list, tuple)):
        return tuple(_signature(x, seen) for x in obj)
    if isinstance(obj, dict):
        return tuple((k, _signature(v, seen)) for k, v in obj.items())
    if isinstance(obj, (set, frozenset)):
        return tuple(sorted(map(repr, obj)))
    d = dict(getattr(obj, "__dict__", {}))
    for k in type(obj).__mro__:
        for name in k.__dict__.get("__slots__", ()):
            if hasattr(obj, name):
                d[name] = getattr(obj, name)
    return (type(obj).__name__, tuple((k, _signature(v, seen)) for k, v in sorted(d.items())))


def _play(game: GameFlow, agents: list[RandomAgent], steps: int) -> list[dict[int, Event]]:
    """Step ``game`` up to ``steps`` times with the agents; the answers given, in order."""
    out: list[dict[int, Event]] = []
    for _ in range(steps):
        if game.done:
            break
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
        out.append(answers)
    return out


def _replay(game: GameFlow, answers: list[dict[int, Event]]) -> None:
    for a in answers:
        game.step(a)


@pytest.mark.parametrize(
    ("rules", "options"), [("suits108", {"preset": "paper"}), ("riichi", {"length": "tonpuu"})]
)
@pytest.mark.parametrize("seed", [3, 11])
def test_round_trip_and_independence(rules: str, options: dict[str, str], seed: int) -> None:
    from tenpai.arena.games import rules_entry

    opts = rules_entry(rules).options(options)
    game = make_game(rules, seed, ("a", "b", "c", "d"), opts)
    agents = [RandomAgent(seed * 10 + i) for i in range(4)]
    checked = 0
    while not game.done:
        _play(game, agents, 37)
        if game.done:
            break
        snap = Snapshot.take(game)
        before = _signature(game)
        # A copy played to the end never touches the original.
        other = snap.restore()
        _play(other, [RandomAgent(999 + i) for i in range(4)], 10_000)
        assert other.done
        assert _signature(game) == before
        # The original goes on; a restored copy given the same answers emits the same events.
        n = len(game.events)
        answers = _play(game, agents, 25)
        again = snap.restore()
        assert again.events[:n] == game.events[:n]
        _replay(again, answers)
        assert again.events == game.events
        assert [d.seat for d in again.pending()] == [d.seat for d in game.pending()]
        assert [d.legal for d in again.pending()] == [d.legal for d in game.pending()]
        # Observations of the copy read the copy's table.
        for d0, d1 in zip(game.pending(), again.pending()):
            assert d0.observation.hand == d1.observation.hand
            assert d1.observation._table is not d0.observation._table
        checked += 1
    assert checked >= 3
    assert game.final_scores


def test_clones_of_a_suits108_table_are_independent() -> None:
    """Search makes many copies; each must own its table (its speed is a benchmark's matter:
    tenpai.bench.search, never a timed test)."""
    game = make_game("suits108", 5, ("a", "b", "c", "d"), {"preset": "paper"})
    _play(game, [RandomAgent(i) for i in range(4)], 60)
    copies = [clone(game) for _ in range(3)]
    for c in copies:
        assert c.events == game.events and c is not game
        assert c.pending()[0].observation._table is not game.pending()[0].observation._table

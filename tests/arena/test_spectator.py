"""The demo's spectator view against the engine, and the demo's first game against the match."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from rich.console import Console

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.arena.record import play_scheduled
from tenpai.arena.schedule import GameKey
from tenpai.arena.spectator import Spectator
from tenpai.arena.watch import watch_game
from tenpai.engine.flow import GameFlow
from tenpai.engine.runner import play


def _kinds(tiles: list[int]) -> Counter[int]:
    return Counter(T.kind_of(t) for t in tiles)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_view_rebuilt_from_events_matches_the_engine_after_every_step(seed: int) -> None:
    names = ["efficiency", "random", "defensive", "random"]
    game = make_game("riichi", seed, names, {"length": "tonpuu"})
    agents = [make_agent(n, seed * 10 + s) for s, n in enumerate(names)]
    view = Spectator(names)
    seen = 0
    checked = 0

    def after_step(flow: GameFlow) -> None:
        nonlocal seen, checked
        for e in flow.events[seen:]:
            view.apply(e)
        seen = len(flow.events)
        # the hand in play on whichever round steps it (the compiled table by default)
        rnd = flow.current  # type: ignore[attr-defined]
        if rnd is None:
            return
        for s in range(4):
            seat = view.seats[s]
            held = seat.hand + ([seat.drawn] if seat.drawn is not None else [])
            assert _kinds(held) == _kinds(rnd.hands[s]), (seed, s, len(flow.events))
            assert len(seat.melds) == len(rnd.melds[s])
            assert [r.tile for r in seat.river] == list(rnd.rivers[s])
            assert [r.called for r in seat.river] == list(rnd.river_called[s])
        assert view.dora_markers == list(rnd.dora_markers)
        assert view.scores == list(rnd.scores)
        assert view.wall_left == rnd.wall.remaining
        checked += 1

    play(game, agents, check=after_step)
    assert view.game_over and checked > 100
    assert tuple(view.scores) == tuple(game.final_scores)


def test_the_shown_game_is_the_first_game_of_the_match_and_prints_each_hand() -> None:
    lineup = ["efficiency", "random", "efficiency", "random"]
    buf = io.StringIO()
    console = Console(file=buf, width=120, force_terminal=False)
    view = watch_game(lineup, seed=5, options={"length": "tonpuu"}, console=console, delay=0)
    first = play_scheduled("riichi", {"length": "tonpuu"}, lineup, 5, GameKey(0, 0))
    assert tuple(view.scores) == tuple(s.score for s in first.seats)
    text = buf.getvalue()
    assert text.count("river") == 4 * len(first.hands)  # one picture per hand
    assert "East 1" in text and "hand" in text


def test_demo_shows_the_first_game_unless_fast() -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    runner = CliRunner()
    shown = runner.invoke(app, ["demo", "--games", "4", "--seed", "2", "--delay", "0"])
    assert shown.exit_code == 0, shown.output
    assert "The first game of the match" in shown.output and "Final scores" in shown.output
    fast = runner.invoke(app, ["demo", "--games", "4", "--seed", "2", "--fast"])
    assert fast.exit_code == 0, fast.output
    assert "The first game" not in fast.output and "river" not in fast.output
    assert "efficiency" in fast.output  # the result table
    bad = runner.invoke(app, ["demo", "--agents", "efficiency,nobody,random,random"])
    assert bad.exit_code == 2 and "nobody" in bad.output

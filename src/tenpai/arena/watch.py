"""Show one arena game as it is played: the first game of a run, drawn after every step.

The game is the run's game (deal 0, first seating), built exactly as the arena builds it
(:func:`tenpai.arena.record.play_scheduled`), so what the demo shows is the first row of the
table that follows, not a different game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.live import Live

from tenpai.agents.registry import make_agent
from tenpai.arena.games import make_game
from tenpai.arena.schedule import GameKey, agent_seed, deal_seed, seating
from tenpai.arena.spectator import Spectator
from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.engine.runner import play
from tenpai.events import Event

__all__ = ["watch_game"]

#: pause after a hand ends, in multiples of the per-discard delay (time to read the result)
_HAND_END_PAUSE = 30
#: events after which the live table is redrawn (a draw alone changes too little to show)
_REDRAW = frozenset({"dahai", "hora", "ryukyoku"})


def watch_game(
    lineup: Sequence[str],
    *,
    seed: int,
    options: Mapping[str, str],
    console: Console,
    delay: float = 0.05,
    rules: str = "riichi",
) -> Spectator:
    """Play and draw the run's first game; returns the final view.

    On a terminal the table is redrawn in place after each discard and paced by ``delay``
    seconds; elsewhere (a pipe, a log) the table is printed once at the end of each hand and
    nothing waits.
    """
    key = GameKey(0, 0)
    names = seating(lineup, key.rotation)
    game = make_game(rules, deal_seed(seed, key.deal), names, options)
    agents = [make_agent(n, agent_seed(seed, key, s)) for s, n in enumerate(names)]
    view = Spectator(names)
    if console.is_terminal:
        with Live(view.render(), console=console, auto_refresh=False) as live:

            def redraw(e: Event) -> None:
                if e.type in _REDRAW:
                    live.update(view.render(), refresh=True)
                    pause = delay * (1 if e.type == "dahai" else _HAND_END_PAUSE)
                    if pause > 0:
                        time.sleep(pause)

            _play_drawn(game, agents, view, redraw)
    else:

        def print_hand(e: Event) -> None:
            if e.type == "end_kyoku":
                console.print(view.render())
                console.print()

        _play_drawn(game, agents, view, print_hand)
    return view


def _play_drawn(
    game: GameFlow, agents: Sequence[Agent], view: Spectator, draw: Callable[[Event], None]
) -> None:
    """Play the game to its end, giving every new event to the view and then to ``draw``."""
    seen = 0

    def after_step(flow: GameFlow) -> None:
        nonlocal seen
        fresh = flow.events[seen:]
        seen = len(flow.events)
        for e in fresh:
            view.apply(e)
            draw(e)

    play(game, agents, check=after_step)

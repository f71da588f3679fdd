"""Drive a game flow with agents until it ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tenpai.engine.agent import Agent
from tenpai.engine.flow import GameFlow
from tenpai.events import Event

__all__ = ["play"]


def play(
    game: GameFlow,
    agents: Sequence[Agent],
    *,
    check: Callable[[GameFlow], None] | None = None,
    max_steps: int = 1_000_000,
) -> GameFlow:
    """Ask each pending seat's agent for an action until the game is over.

    ``check`` runs after every step (tests pass the invariant checker).  ``max_steps`` guards
    against a flow bug turning into an endless loop.
    """
    steps = 0
    while not game.done:
        pending = game.pending()
        answers: dict[int, Event] = {}
        for d in pending:
            answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        game.step(answers)
        if check is not None:
            check(game)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not end within {max_steps} steps")
    return game

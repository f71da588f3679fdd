"""The agent protocol every player implements, and the uniformly random baseline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tenpai.engine.wall import SplitMix64
from tenpai.events import Event

__all__ = ["Agent", "RandomAgent", "shares_tables"]


@runtime_checkable
class Agent(Protocol):
    """Chooses one of the legal actions.

    ``act_batch`` exists so a neural agent can serve many tables with one network call; the
    default loop in simple agents is enough for rule-based players.
    """

    name: str

    def act(self, observation: Any, legal: Sequence[Event]) -> Event: ...

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]: ...


def shares_tables(agent: object) -> bool:
    """Whether one object of ``agent``'s class may answer for every seat of every table of a
    batched run (one network call per step instead of one per decision).

    That is safe only when an answer depends on the observation and the legal actions alone:
    no seeded draws (a shared stream would make a game's choices depend on which games ran
    beside it) and no memory except caches keyed by the observation's own table.  Agents opt
    in with the class attribute ``shares_tables = True``; without it the answer is no, which is
    always safe (each game then gets its own seeded agent).
    """
    return getattr(agent, "shares_tables", False) is True


class RandomAgent:
    """Uniform over the legal actions, with its own seeded generator (reproducible games)."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self._rng = SplitMix64(seed ^ 0x5EED)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return legal[self._rng.below(len(legal))]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

"""N tables stepped together in one process, every pending decision answered in batches.

Each step the runner collects the pending decisions of all live tables, groups them by agent
object and asks each group once — ``act_batch_with_info`` when the agent offers it, else
``act_batch`` — so a network agent shared by every seat of every table runs one forward per
head per step.  A table whose game ends is recorded and dealt the next seed of its queue.

Why results do not depend on the number of tables: per-game agents are made from the game seed
alone, shared agents must answer each request from its own observation (see
:mod:`tenpai.selfplay.spec`), and every table is a separate game flow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai.arena.games import make_game
from tenpai.arena.record import final_ranks
from tenpai.engine.agent import Agent
from tenpai.engine.batch import AnswerHook, ask_agent, step_flows
from tenpai.engine.flow import Decision, GameFlow
from tenpai.events import Event
from tenpai.selfplay.spec import SelfPlaySpec, per_game_agent, resolve_shared
from tenpai.selfplay.trajectory import PlayedGame, Step

__all__ = ["AnswerHook", "GameCallback", "VectorRunner", "ask_agent", "check_tables",
           "step_flows"]

GameCallback = Callable[[PlayedGame], None]
Checker = Callable[[GameFlow], None]


def check_tables(tables: int) -> int:
    """``tables`` if it is a usable table count, else a ValueError saying why not."""
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 1:
        raise ValueError(f"tables must be a positive whole number, got {tables!r}")
    return tables


@dataclass(slots=True)
class _Table:
    """One live game and what the runner keeps about it."""

    index: int
    seed: int
    game: GameFlow
    agents: list[Agent]
    names: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    decisions: int = 0
    turns: int = 0


class VectorRunner:
    """Plays ``games`` (pairs of run index and seed) of ``spec`` on ``tables`` tables at once.

    ``games`` defaults to every seed of the spec; worker backends pass each process its slice.
    ``check`` runs after every step of every table (tests pass invariant checkers);
    ``max_turns`` stops a flow bug from looping forever.  Iterate :meth:`games` (a generator,
    games in the order they finish), call :meth:`run` (a list in run order), or drive it one
    :meth:`step` at a time.  A table freed by a finished game is dealt the next game at the
    start of the following step.
    """

    def __init__(
        self,
        spec: SelfPlaySpec,
        *,
        tables: int = 16,
        games: Sequence[tuple[int, int]] | None = None,
        check: Checker | None = None,
        max_turns: int = 1_000_000,
    ) -> None:
        self.spec = spec
        self.tables = check_tables(tables)
        chosen = list(games) if games is not None else list(enumerate(spec.seeds))
        self._queue = list(reversed(chosen))  # popped from the end: run order
        self._live: list[_Table] = []
        self.check = check
        self.max_turns = max_turns
        self.shared = resolve_shared(spec)
        self.record = tuple(s.record for s in spec.seats)
        #: Calls made to agents, for benchmarks: (batch calls, decisions answered).
        self.calls = 0
        self.answered = 0

    # ------------------------------------------------------------------ public
    def run(self, on_game: GameCallback | None = None) -> list[PlayedGame]:
        """Play everything; ``on_game`` sees each game as it finishes.  Sorted by run index."""
        out = []
        for g in self.games():
            if on_game is not None:
                on_game(g)
            out.append(g)
        return sorted(out, key=lambda g: g.index)

    def games(self) -> Iterator[PlayedGame]:
        """Yield each game when it ends (the others keep their state between yields)."""
        while not self.done:
            yield from self.step()

    @property
    def done(self) -> bool:
        """True once every game of the queue has been played."""
        return not self._queue and not self._live

    @property
    def live(self) -> int:
        """Tables with a game in progress."""
        return len(self._live)

    def step(self) -> list[PlayedGame]:
        """One step: fill empty tables, answer all pending decisions, step every live table.

        Returns the games that ended in this step (their tables are dealt the next seeds).
        This is the lower-level form of :meth:`games` for callers that stop on other grounds
        (a time budget, a number of decisions).
        """
        while self._queue and len(self._live) < self.tables:
            index, seed = self._queue.pop()
            self._live.append(self._deal(index, seed))
        self._step(self._live)
        finished = [self._finish(t) for t in self._live if t.game.done]
        if finished:
            self._live = [t for t in self._live if not t.game.done]
        return finished

    # ------------------------------------------------------------------ internals
    def _deal(self, index: int, seed: int) -> _Table:
        agents = [
            shared if shared is not None else per_game_agent(seat, seed, i)
            for i, (seat, shared) in enumerate(zip(self.spec.seats, self.shared))
        ]
        names = tuple(
            seat.name or (seat.agent if isinstance(seat.agent, str) else a.name)
            for seat, a in zip(self.spec.seats, agents)
        )
        game = make_game(self.spec.rules, seed, names, self.spec.options)
        return _Table(index, seed, game, agents, names)

    def _step(self, live: Sequence[_Table]) -> None:
        """Answer every pending decision of every live table, then step each table once."""

        def answered(i: int, d: Decision, action: Event, info: Any) -> None:
            t = live[i]
            t.decisions += 1
            if self.record[d.seat]:
                t.steps.append(Step(d.seat, d.legal, action, info, len(t.game.events), t.turns))

        def stepped(i: int) -> None:
            t = live[i]
            t.turns += 1
            if self.check is not None:
                self.check(t.game)
            if t.turns > self.max_turns:
                raise RuntimeError(
                    f"game {t.index} (seed {t.seed}) ran past {self.max_turns} steps"
                )

        calls, asked = step_flows(
            [t.game for t in live], [t.agents for t in live], on_answer=answered,
            on_step=stepped,
        )
        self.calls += calls
        self.answered += asked

    def _finish(self, t: _Table) -> PlayedGame:
        scores = tuple(t.game.final_scores)
        return PlayedGame(
            index=t.index,
            seed=t.seed,
            names=t.names,
            final_scores=scores,
            ranks=tuple(final_ranks(scores)),
            events=tuple(t.game.events),
            steps=tuple(t.steps),
            decisions=t.decisions,
        )

"""What a self-play run plays: the rules, one agent spec per seat, and the game seeds.

A spec says *what* is played, never *how* (tables per process, workers, backend): the same spec
gives the same games whichever way it is run.  That holds because every seat's agent is either

* a **shared** agent object answering for that seat at every table at once (one ``act_batch``
  call per step), which must choose as a function of the observation and the legal actions only
  (the ``sl`` network does), so batching cannot change its answers; or
* a **per-game** agent made fresh for each game by a factory from :func:`agent_seed` of the game
  seed and the seat, so a seeded random or rule agent never sees which other games ran beside it.

Registry names (``"efficiency"``, ``"sl"``) are the picklable form worker processes and Ray
actors re-create agents from; see :class:`SeatSpec`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai.agents.registry import AGENTS, is_known_agent, make_agent
from tenpai.agents.rulesets import check_agent_rules
from tenpai.arena.games import rules_entry
from tenpai.engine.agent import Agent
from tenpai.engine.wall import SplitMix64

__all__ = [
    "AgentFactory",
    "SeatSpec",
    "SelfPlaySpec",
    "agent_seed",
    "is_agent_object",
]

AgentFactory = Callable[[int], Agent]
"""Makes one seat's agent for one game from :func:`agent_seed` (``seed -> Agent``)."""

AgentSource = str | Agent | AgentFactory

_SEAT_SALT = 0x5E1F_91A7_0000_0000


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed a per-game agent of ``seat`` gets in the game dealt from ``game_seed``.

    Mixed rather than used as is, so four seeded agents of one game do not share one stream.
    """
    return SplitMix64((game_seed ^ (_SEAT_SALT + seat)) & 0xFFFF_FFFF_FFFF_FFFF).next()


def is_agent_object(obj: object) -> bool:
    """True for an agent instance (it has ``act_batch``), False for a factory or a name."""
    return callable(getattr(obj, "act_batch", None))


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat: where its agent comes from, whether its decisions are recorded, its name.

    ``agent`` is one of

    * a registry name of :data:`tenpai.agents.AGENTS`; ``shared=False`` (default) makes a fresh
      ``make_agent(name, agent_seed(seed, seat))`` per game, ``shared=True`` one
      ``make_agent(name, 0)`` per process serving every table and every seat naming it (use it
      for network agents such as ``sl``: one forward per head per step);
    * an agent object (anything with ``act_batch``): shared as is by every table;
    * a factory ``seed -> Agent`` called per game with :func:`agent_seed`.

    Worker processes and Ray actors receive the spec pickled, so objects and factories used
    there must pickle (module-level functions, ``functools.partial``); names always do.
    ``record=False`` keeps that seat's decisions out of :attr:`PlayedGame.steps` (memory).
    ``name`` is the player name written into ``start_game`` (default: the agent's name).
    """

    agent: AgentSource
    shared: bool = False
    record: bool = True
    name: str | None = None

    def __post_init__(self) -> None:
        a = self.agent
        if isinstance(a, str):
            if not is_known_agent(a):
                raise ValueError(f"unknown agent {a!r}; known: {', '.join(sorted(AGENTS))}")
        elif is_agent_object(a):
            if self.shared is False:
                object.__setattr__(self, "shared", True)
        elif callable(a):
            if self.shared:
                raise ValueError("shared=True needs an agent object or a registry name")
        else:
            raise ValueError(
                f"a seat's agent must be a registry name, an agent object or a factory "
                f"seed -> Agent, not {type(a).__name__}"
            )

    @property
    def label(self) -> str:
        """A short description for messages and ``start_game`` names."""
        if self.name is not None:
            return self.name
        a = self.agent
        if isinstance(a, str):
            return a
        name = getattr(a, "name", None)
        return str(name) if name is not None else getattr(a, "__name__", type(a).__name__)


def _seat(x: SeatSpec | AgentSource) -> SeatSpec:
    return x if isinstance(x, SeatSpec) else SeatSpec(x)


@dataclass(frozen=True, slots=True)
class SelfPlaySpec:
    """A self-play run: ``rules`` with ``options``, one :class:`SeatSpec` per seat, the seeds.

    ``seats`` also accepts bare registry names, agent objects or factories (each wrapped in a
    default :class:`SeatSpec`).  ``seeds`` are deal seeds passed to
    :func:`tenpai.arena.games.make_game`; game ``i`` of the run is ``seeds[i]``.  Use
    :meth:`series` for ``games`` consecutive seeds.  Invalid input raises ``ValueError`` (an
    unknown rule set or option, the wrong number of seats, no seeds, an unknown agent name).
    """

    rules: str
    seats: tuple[SeatSpec, ...]
    seeds: tuple[int, ...]
    options: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        entry = rules_entry(self.rules)
        object.__setattr__(self, "options", entry.options(dict(self.options)))
        seats = tuple(_seat(s) for s in self.seats)
        if len(seats) != entry.seats:
            raise ValueError(f"rules {self.rules!r} seat {entry.seats} agents, got {len(seats)}")
        for s in seats:
            if isinstance(s.agent, str):  # an agent built for other rules fails deep inside
                check_agent_rules(s.agent, self.rules)
        object.__setattr__(self, "seats", seats)
        seeds = tuple(int(s) for s in self.seeds)
        if not seeds:
            raise ValueError("a self-play run needs at least one game seed")
        object.__setattr__(self, "seeds", seeds)

    @classmethod
    def series(
        cls,
        rules: str,
        seats: Sequence[SeatSpec | AgentSource],
        first_seed: int,
        games: int,
        options: Mapping[str, str] | None = None,
    ) -> SelfPlaySpec:
        """``games`` games with the seeds ``first_seed, first_seed + 1, …``."""
        if games < 1:
            raise ValueError(f"games must be at least 1, got {games}")
        return cls(
            rules,
            tuple(_seat(s) for s in seats),
            tuple(range(first_seed, first_seed + games)),
            dict(options or {}),
        )

    @property
    def games(self) -> int:
        return len(self.seeds)


def resolve_shared(spec: SelfPlaySpec) -> list[Agent | None]:
    """Per seat: the shared agent object for this process, or None for a per-game seat.

    Seats naming the same shared registry agent get the *same* object, so one ``act_batch``
    call answers all of them.
    """
    by_name: dict[str, Agent] = {}
    out: list[Agent | None] = []
    for s in spec.seats:
        if not s.shared:
            out.append(None)
        elif isinstance(s.agent, str):
            if s.agent not in by_name:
                by_name[s.agent] = make_agent(s.agent, 0)
            out.append(by_name[s.agent])
        else:
            out.append(_as_agent(s.agent))
    return out


def per_game_agent(seat: SeatSpec, game_seed: int, index: int) -> Agent:
    """The fresh agent of a per-game seat ``index`` for the game dealt from ``game_seed``."""
    seed = agent_seed(game_seed, index)
    a = seat.agent
    made: Any = make_agent(a, seed) if isinstance(a, str) else a(seed)  # type: ignore[operator]
    if not is_agent_object(made):
        raise ValueError(
            f"the factory of seat {index} returned {type(made).__name__}, not an agent"
        )
    return _as_agent(made)


def _as_agent(obj: Any) -> Agent:
    return obj  # type: ignore[no-any-return]

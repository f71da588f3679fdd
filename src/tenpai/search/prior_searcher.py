"""What the Riichi searches over a ``pg`` prior share: ``search`` and ``mcts_pg``.

Both ask the prior about every decision in a batch, search only where it is unsure, value hand
ends with a leaf value (the placement utility by default), take a new think time from the
fronts, and name themselves by the prior, the playout, the leaf value and the settings that
differ from the defaults.  They differ in how they search (:class:`~tenpai.search.agent.
SearchAgent` compares the candidates world by world, :class:`~tenpai.mcts.pg_agent.MCTSPGAgent`
grows a tree per world), which each keeps in its own ``_decide``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from tenpai.events import Event
from tenpai.search.placement import load_placement_model, parse_utility
from tenpai.search.playout import LeafValue, PlacementValue, PlayoutBackend
from tenpai.search.prior import NetworkPrior, Prior, PriorAnswer

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["PriorSearcher", "SearcherSettings", "pg_prior", "placement_value"]


class SearcherSettings(Protocol):
    """The settings a searcher's common part reads (a frozen dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def budget_ms(self) -> float: ...
    def describe(self) -> str: ...


_S = TypeVar("_S", bound=SearcherSettings)


def placement_value(placement_model: str, utility: str, players: int | None = 4
                    ) -> PlacementValue:
    """The placement leaf value: the shipped placement model for ``players`` seats (or the
    file ``placement_model``, refused when it is for another table size) under the rank
    utility ``utility`` (tenhou, uma, or one weight per seat "a,b,c,d").  ``players=None``
    takes a file's own table size."""
    model = load_placement_model(placement_model or None, players)
    return PlacementValue(model, parse_utility(utility, model.players))


def pg_prior(seed: int, env: Mapping[str, str] | None = None) -> NetworkPrior:
    """The registered searches' prior: ``pg``, its model from ``$TENPAI_PG_MODEL`` as for the
    ``pg`` agent itself."""
    from tenpai.agents.pg import PGAgent

    e = os.environ if env is None else env
    return NetworkPrior(PGAgent(e.get("TENPAI_PG_MODEL", "default"), seed))


class PriorSearcher(Generic[_S]):
    """A prior, a playout backend and a leaf value, searched where the prior is unsure."""

    shares_tables: ClassVar[bool] = False
    #: The table size the searcher's placement model is for: the arena, the fronts and the
    #: web app refuse a table of another size in one line (rulesets.check_built_agent).
    #: ``mcts_pg`` searches four-player tables only; ``search`` sets it per instance (None:
    #: it has a leaf value for three and four players).
    model_players: int | None = 4

    def __init__(self, prior: Prior, settings: _S, backend: PlayoutBackend, value: LeafValue,
                 seed: int, name: str) -> None:
        self.settings = settings
        self.prior = prior
        self.backend = backend
        self.value = value
        self.seed = seed
        self.name = name
        self.identity = self._identity()
        #: Decisions over a protocol whose table could not be rebuilt (or whose prior's choice
        #: has no twin on it); they were answered by the prior (tenpai.search.rebuild).
        self.rebuild_failures = 0

    def _identity(self) -> str:
        return (f"prior {self.prior.name} {self.prior.identity}; {self.backend.name}; "
                f"{self.value.name}; {self.settings.describe()}")

    def set_budget_ms(self, budget_ms: float) -> None:
        """A new think time per searched decision (the fronts' ``--budget-ms``, the web app's
        ``think_ms``); the settings check it (> 0) as they check their ``BUDGET_MS`` variable."""
        settings: DataclassInstance = self.settings
        self.settings = dataclasses.replace(settings, budget_ms=budget_ms)  # type: ignore[assignment]
        self.identity = self._identity()

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        answers = self.prior.answer_batch(requests)
        return [self._decide(obs, legal, pa) for (obs, legal), pa in zip(requests, answers)]

    def _decide(self, obs: Any, legal: Sequence[Event], pa: PriorAnswer) -> Event:
        """The answer to one decision, given the prior's answer ``pa`` (the searcher's own)."""
        raise NotImplementedError

"""Settings of ``mcts_pg`` (seed 000's tree search with ``search``'s parts), from
``$TENPAI_MCTS_PG_*`` in the style of :mod:`tenpai.search.settings`.

Every bad value is a :class:`ValueError` of one line naming the variable, which the arena and
the fronts turn into exit code 2 before any game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tenpai.search.env import describe_settings, settings_from_env
from tenpai.search.playout import COMPILED_POLICIES, POLICIES

__all__ = ["MCTSPGSettings", "resolve_policy"]

_ENV = "TENPAI_MCTS_PG_"
#: Variables not named after their field in capitals.
_NAMES = {"top_k": "TOPK"}


def resolve_policy(policy: str) -> str:
    """``auto``: the compiled ``c:greedy-fold`` when the rollout core is built, else its Python
    reference ``greedy-fold`` (the same hand ends, tests/search/test_compiled_playout.py), so the
    agent plays the same with or without the extension, only slower without it."""
    if policy != "auto":
        return policy
    from tenpai.rules.riichi import rollout

    return "c:greedy-fold" if rollout.available() else "greedy-fold"


@dataclass(frozen=True, slots=True)
class MCTSPGSettings:
    #: Think time per searched decision in milliseconds (anytime: checked before each round
    #: of simulations, one per world; the first round is always played).
    budget_ms: float = 1000.0
    #: "wall" or "cpu" (this process's CPU time, for measurements on a shared machine).
    clock: str = "wall"
    #: Sampled worlds per searched decision, one tree each.
    worlds: int = 8
    #: Simulations per world (the cap that binds when the budget does not).
    simulations: int = 16
    #: Edges per node: the prior's top k (its own choice always among them).
    top_k: int = 3
    #: Search only when the prior gives its own choice less than this probability.
    threshold: float = 0.9
    #: PUCT's exploration constant (the paper's C1).
    c1: float = 1.5
    #: Playout policy: "auto" (compiled c:greedy-fold when built, else greedy-fold), or any
    #: name of tenpai.search.playout.POLICIES / COMPILED_POLICIES.
    policy: str = "auto"
    #: Rank utility of the placement value: tenhou, uma, or four weights "a,b,c,d".
    utility: str = "tenhou"
    #: Opponents' hands outside riichi in the sampled worlds: "uniform" or "shaped".
    opponents: str = "uniform"
    #: A placement-model file instead of the shipped one ("" = shipped).
    placement_model: str = ""

    def __post_init__(self) -> None:
        if not self.budget_ms > 0:
            raise ValueError(f"{_ENV}BUDGET_MS must be > 0, got {self.budget_ms}")
        if self.clock not in ("wall", "cpu"):
            raise ValueError(f"{_ENV}CLOCK must be wall or cpu, got {self.clock!r}")
        if self.worlds < 1:
            raise ValueError(f"{_ENV}WORLDS must be >= 1, got {self.worlds}")
        if self.simulations < 1:
            raise ValueError(f"{_ENV}SIMULATIONS must be >= 1, got {self.simulations}")
        if self.top_k < 2:
            raise ValueError(f"{_ENV}TOPK must be >= 2 (one candidate is no search), got "
                             f"{self.top_k}")
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"{_ENV}THRESHOLD must be in (0, 1], got {self.threshold}")
        if not self.c1 >= 0:
            raise ValueError(f"{_ENV}C1 must be >= 0, got {self.c1}")
        known = ("auto", *POLICIES, *COMPILED_POLICIES)
        if self.policy not in known:
            raise ValueError(f"{_ENV}POLICY: unknown playout policy {self.policy!r}; known: "
                             f"{', '.join(known)}")
        if self.policy in COMPILED_POLICIES:
            from tenpai.rules.riichi import rollout

            if not rollout.available():
                raise ValueError(f"{_ENV}POLICY={self.policy} needs the compiled rollout core, "
                                 "which is not built here (TENPAI_PURE_PYTHON set, or not built); "
                                 "use auto")
        if self.opponents not in ("uniform", "shaped"):
            raise ValueError(f"{_ENV}OPPONENTS must be uniform or shaped, got {self.opponents!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MCTSPGSettings:
        return settings_from_env(cls, _ENV, env, _NAMES)

    def describe(self) -> str:
        """The settings that differ from the defaults, for the arena's record of who played."""
        return describe_settings(self)

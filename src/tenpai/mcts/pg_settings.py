"""Settings of ``mcts_pg`` (seed 000's tree search with ``search``'s parts), from
``$TENPAI_MCTS_PG_*`` in the style of :mod:`tenpai.search.settings`.

Every bad value is a :class:`ValueError` of one line naming the variable, which the arena and
the fronts turn into exit code 2 before any game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tenpai.search import setting_checks as check
from tenpai.search.env import describe_settings, setting_names, settings_from_env
from tenpai.search.playout_policies import COMPILED_POLICIES, POLICIES
from tenpai.search.settings import OPPONENT_MODELS, default_policy

__all__ = ["SETTING_NAMES", "MCTSPGSettings", "resolve_policy"]

_ENV = "TENPAI_MCTS_PG_"
#: Variables not named after their field in capitals.
_NAMES = {"top_k": "TOPK"}


def resolve_policy(policy: str) -> str:
    """``auto``: the search's :func:`~tenpai.search.settings.default_policy` (the compiled
    ``c:greedy-fold`` when the rollout core is built, else its Python reference ``greedy-fold``:
    the same hand ends, tests/search/test_compiled_playout.py), so the agent plays the same
    with or without the extension, only slower without it."""
    return default_policy() if policy == "auto" else policy


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
    #: name of tenpai.search.playout_policies.POLICIES / COMPILED_POLICIES.
    policy: str = "auto"
    #: Rank utility of the placement value: tenhou, uma, or four weights "a,b,c,d".
    utility: str = "tenhou"
    #: Opponents' hands outside riichi in the sampled worlds: "uniform", "shaped", "read" or
    #: "read-yaku" (tenpai.search.worlds).
    opponents: str = "uniform"
    #: A placement-model file instead of the shipped one ("" = shipped).
    placement_model: str = ""

    def __post_init__(self) -> None:
        check.budget(_ENV, self.budget_ms, self.clock)
        check.at_least(_ENV, "WORLDS", self.worlds, 1)
        check.at_least(_ENV, "SIMULATIONS", self.simulations, 1)
        check.at_least(_ENV, "TOPK", self.top_k, 2, "one candidate is no search")
        check.within(_ENV, "THRESHOLD", self.threshold, 0, 1, open_low=True)
        check.at_least(_ENV, "C1", self.c1, 0)
        check.known(_ENV, "POLICY", "playout policy", self.policy,
                    ("auto", *POLICIES, *COMPILED_POLICIES))
        if self.policy in COMPILED_POLICIES:
            from tenpai.rules.riichi import rollout

            if not rollout.available():
                raise ValueError(f"{_ENV}POLICY={self.policy} needs the compiled rollout core, "
                                 "which is not built here (TENPAI_PURE_PYTHON set, or not built); "
                                 "use auto")
        check.one_of(_ENV, "OPPONENTS", self.opponents, OPPONENT_MODELS, sep=", ")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MCTSPGSettings:
        return settings_from_env(cls, _ENV, env, _NAMES)

    def describe(self) -> str:
        """The settings that differ from the defaults, for the arena's record of who played."""
        return describe_settings(self)


#: The variables (``$TENPAI_MCTS_PG_*``) an agent spec may set for one seat (tenpai.agents.spec).
SETTING_NAMES: tuple[str, ...] = setting_names(MCTSPGSettings, _NAMES)

"""``search_mcr``'s settings, from ``$TENPAI_SEARCH_MCR_*`` (the Riichi search's style).

Every bad value is a :class:`ValueError` with one line naming the variable, which the arena and
the bot commands turn into exit code 2 before any game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tenpai.search import setting_checks as check
from tenpai.search.env import describe_settings, setting_names, settings_from_env
from tenpai.search.mcr.playout import (
    COMPILED_MCR_POLICIES,
    MCR_POLICIES,
    MCR_VALUES,
    OWN_POLICIES,
)
from tenpai.search.mcr.reading import WORLDS_MODES
from tenpai.search.mcr.sight import SIGHTS

__all__ = ["SETTING_NAMES", "MCRSearchSettings"]

_ENV = "TENPAI_SEARCH_MCR_"
#: Variables not named after their field in capitals.
_NAMES = {"top_k": "TOPK"}


@dataclass(frozen=True, slots=True)
class MCRSearchSettings:
    #: Budget per searched decision, in milliseconds (anytime: the worlds played count).
    budget_ms: float = 300.0
    #: The budget's clock: "wall" (think time at a table, Botzone's limit) or "cpu".
    clock: str = "wall"
    #: At most this many worlds per searched decision (each plays every candidate once).
    worlds: int = 12
    #: Candidates: the planner's top k (its own choice always first).
    top_k: int = 3
    #: Search when the planner's runner-up is worth at least this share of its choice (both
    #: by the planner's target value; where neither keeps a target, when the runner-up keeps
    #: the same MCR shanten).  1 searches only exact ties, 0 every decision with a runner-up.
    close: float = 0.5
    #: Playout policy of every seat (tenpai.search.mcr.playout.MCR_POLICIES), or ``c:greedy``
    #: / ``c:greedy-fold``: played in the compiled core (botzone preset only;
    #: tenpai.search.mcr.compiled).
    policy: str = "efficiency"
    #: Leaf value: "points" (the hand's Botzone points) or "place" (tenpai.search.mcr.playout).
    value: str = "points"
    #: Standard errors of the paired difference a candidate must beat the planner's choice by.
    z: float = 1.0
    #: Who plays the searching seat after its candidate in the playouts: "same" (``policy``,
    #: like every seat) or "planner" (Python policies only; tenpai.search.mcr.playout).
    own: str = "same"
    #: What the worlds know: "fair" (what the seat has seen; everything else sampled), or, to
    #: measure the search's ceiling in the arena only, "hands" (the opponents' real concealed
    #: hands) or "all" (the real table, walls included): tenpai.search.mcr.sight.
    sight: str = "fair"
    #: How the worlds count: "uniform" (every fair draw alike), "weighted" (``pool`` ×
    #: ``worlds`` fair draws resampled by the speed player's likelihood of the opponents'
    #: discards), "speed" (the same with hands improved as a speed player's over its
    #: turns): tenpai.search.mcr.reading; or "history" (each opponent's hand picked from
    #: ``pool`` speed players' hands by its whole discard history and the claims it let
    #: pass): tenpai.search.mcr.history.
    worlds_mode: str = "uniform"
    #: Weighted or speed worlds: draws per played world in the pool the picks come from;
    #: history worlds: hands tried per opponent per world.
    pool: int = 4
    #: Weighted, speed or history worlds: how much less likely the reading finds a discard for
    #: each step of shanten it gives away, or a passed claim that would have lowered the
    #: shanten (history) — a ratio in (0, 1).
    miss: float = 0.5

    def __post_init__(self) -> None:
        check.budget(_ENV, self.budget_ms, self.clock)
        check.at_least(_ENV, "WORLDS", self.worlds, 2,
                       "the paired rule needs a standard error")
        check.at_least(_ENV, "TOPK", self.top_k, 2, "one candidate is no search")
        check.within(_ENV, "CLOSE", self.close, 0, 1)
        check.one_of(_ENV, "OWN", self.own, tuple(OWN_POLICIES))
        if self.own != "same" and self.policy in COMPILED_MCR_POLICIES:
            raise ValueError(f"{_ENV}OWN={self.own} needs a Python playout policy "
                             f"({_ENV}POLICY={self.policy} plays in the compiled core)")
        if self.policy in COMPILED_MCR_POLICIES:
            from tenpai.search.mcr import compiled

            check.compiled_core(_ENV, self.policy, compiled)
        check.known(_ENV, "POLICY", "playout policy", self.policy,
                    (*MCR_POLICIES, *COMPILED_MCR_POLICIES))
        check.one_of(_ENV, "VALUE", self.value, MCR_VALUES)
        check.one_of(_ENV, "SIGHT", self.sight, SIGHTS)
        check.one_of(_ENV, "WORLDS_MODE", self.worlds_mode, WORLDS_MODES)
        check.at_least(_ENV, "POOL", self.pool, 1)
        if not 0 < self.miss < 1:
            raise ValueError(f"{_ENV}MISS must be in (0, 1) (a ratio of likelihoods), "
                             f"got {self.miss}")
        if self.worlds_mode != "uniform" and self.sight != "fair":
            raise ValueError(f"{_ENV}WORLDS_MODE={self.worlds_mode} weighs drawn worlds; "
                             f"{_ENV}SIGHT={self.sight} does not draw them")
        check.at_least(_ENV, "Z", self.z, 0)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MCRSearchSettings:
        return settings_from_env(cls, _ENV, env, _NAMES)

    def describe(self) -> str:
        """The settings that differ from the defaults, for the arena's record of who played."""
        return describe_settings(self)


#: The variables (``$TENPAI_SEARCH_MCR_*``) an agent spec may set for one seat (tenpai.agents.spec).
SETTING_NAMES: tuple[str, ...] = setting_names(MCRSearchSettings, _NAMES)

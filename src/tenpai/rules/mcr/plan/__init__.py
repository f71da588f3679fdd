"""Fan-aware planning for MCR: which 8-point hands are reachable, what they need, how likely.

``plan(PlanState(...))`` lists :class:`Target` s — complete hands found by searching the fan
families strong contest players steer for, each verified by the engine's fan counter, with
the tiles still needed and the probability of drawing them (model in
:mod:`tenpai.rules.mcr.plan.odds`).  Agents (``planner``) and ``tenpai explain`` build on it.
"""

from tenpai.rules.mcr.plan.families import FAMILIES, SETS, Family
from tenpai.rules.mcr.plan.odds import (
    OddsError,
    claim_completion_probability,
    completion_probability,
)
from tenpai.rules.mcr.plan.race import BOTS_SURVIVAL, RaceError, race_probability
from tenpai.rules.mcr.plan.targets import (
    DEFAULT_VALUATION,
    FAN_CAP,
    SELF_DRAW_SHARE,
    WIN_POINTS,
    Candidate,
    PlanError,
    PlanState,
    Target,
    Valuation,
    best_and_runner_up,
    best_by_discard,
    best_target,
    candidates,
    meld_set_index,
    plan,
    race_weighted,
    ranked_by_discard,
    score,
    set_claims,
    target_probability,
)
from tenpai.rules.mcr.plan.union import (
    UNION_SAMPLES,
    decision_seed,
    draw_samples,
    expected_best,
    union_by_discard,
    union_value,
)

__all__ = [
    "BOTS_SURVIVAL",
    "DEFAULT_VALUATION",
    "FAMILIES",
    "FAN_CAP",
    "SELF_DRAW_SHARE",
    "SETS",
    "UNION_SAMPLES",
    "WIN_POINTS",
    "Candidate",
    "Family",
    "OddsError",
    "PlanError",
    "PlanState",
    "RaceError",
    "Target",
    "Valuation",
    "best_and_runner_up",
    "best_by_discard",
    "best_target",
    "candidates",
    "claim_completion_probability",
    "completion_probability",
    "decision_seed",
    "draw_samples",
    "expected_best",
    "meld_set_index",
    "plan",
    "race_probability",
    "race_weighted",
    "ranked_by_discard",
    "score",
    "set_claims",
    "target_probability",
    "union_by_discard",
    "union_value",
]

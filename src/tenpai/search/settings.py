"""The search agent's settings, from ``$TENPAI_SEARCH_*`` like the other agents' settings.

Every bad value is a :class:`ValueError` with one line naming the variable, which the arena and
the CLI turn into exit code 2 before any game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import get_args

from tenpai.rules.riichi.rollout import YAKU_RULES
from tenpai.search import setting_checks as check
from tenpai.search.deal_in import DEAL_IN_MODES
from tenpai.search.env import describe_settings, setting_names, settings_from_env
from tenpai.search.leaves import LEAVES
from tenpai.search.playout_policies import COMPILED_POLICIES, FAST_POLICIES, POLICIES
from tenpai.search.sight import SIGHTS
from tenpai.search.worlds import READING_MODELS, OpponentModel

__all__ = ["OPPONENT_MODELS", "SETTING_NAMES", "WORLDS_MODES", "SearchSettings", "default_policy"]

_ENV = "TENPAI_SEARCH_"
#: Variables not named after their field in capitals.
_NAMES = {"top_k": "TOPK", "weight_temperature": "WEIGHT_T"}
#: How sampled worlds count (see SearchSettings.worlds_mode).
WORLDS_MODES = ("uniform", "weighted")
#: How the sampled worlds deal the opponents' hands outside riichi (tenpai.search.worlds).
OPPONENT_MODELS: tuple[str, ...] = get_args(OpponentModel)


def default_policy() -> str:
    """The playout policy of the setting that beat ``pg`` (docs/search_runs.md, seed 38040):
    ``c:greedy-fold`` in the compiled core where it is built, else its Python reference
    ``greedy-fold`` (the same hands, about 80 times slower, so fewer worlds fit the budget)."""
    from tenpai.rules.riichi import rollout

    return "c:greedy-fold" if rollout.available() else "greedy-fold"


@dataclass(frozen=True, slots=True)
class SearchSettings:
    #: Budget per searched decision, in milliseconds (anytime: the worlds played when it runs
    #: out are used). 1 s is the budget of the 1,000-game run that beat ``pg``; with the
    #: compiled core the world cap binds first (median 0.04 s of CPU, session 38).
    budget_ms: float = 1000.0
    #: The budget's clock: "wall" (think time at a real table) or "cpu" (this process's CPU
    #: time: a measurement on a shared machine does not depend on the other jobs).
    clock: str = "wall"
    #: At most this many worlds per searched decision (each plays every candidate once); 64 as
    #: in the run that beat ``pg``.
    worlds: int = 64
    #: Candidates: the prior's top k (the prior's own choice always among them).
    top_k: int = 3
    #: Search only when the prior gives its own choice less than this probability.
    threshold: float = 0.9
    #: Playout policy of every seat (tenpai.search.playout_policies.POLICIES), or a compiled one
    #: (COMPILED_POLICIES: c:fast, c:fast-fold, c:greedy, ... played in the compiled rollout
    #: core); the default is :func:`default_policy`.
    policy: str = field(default_factory=default_policy)
    #: Leaf value: "placement" (expected rank utility) or "points" (the ablation).
    value: str = "placement"
    #: Rank utility of the placement value: tenhou, uma (each the numbers of the table's size),
    #: or one weight per seat: four "a,b,c,d" (four-player tables only) or three "a,b,c"
    #: (three-player tables only).
    utility: str = "tenhou"
    #: Opponents' hands outside riichi: "uniform", "shaped", "read" (ready as often as 001's
    #: fitted readiness model expects; tenpai.search.worlds, tenpai.search.readiness) or
    #: "read-yaku" (the same, with ready hands that can win by ron).
    opponents: str = "uniform"
    #: Ready hands for opponents in riichi (off: uniform worlds, the ablation).
    riichi_ready: bool = True
    #: Choose each ready hand a world deals (riichi opponents', and with ``opponents="read"``
    #: the ready ones outside riichi) among 8 random ready shapes by 001's deal-in model of
    #: each kind being a wait (tenpai.search.readiness); off by default.
    read_waits: bool = False
    #: The immediate deal-in of a candidate discard: valued by the "worlds" alone (the
    #: default, as registered), or in closed form (tenpai.search.deal_in: the same shift in
    #: every world, at decisions whose candidates are all discards) for the opponents outside
    #: riichi from 001's readiness and wait models ("quiet"), for those in riichi from many
    #: more sampled ready hands than the worlds ("riichi") or from 001's wait model
    #: ("riichi-model"), or both ("all": quiet and riichi; "model": quiet and riichi-model).
    deal_in: str = "worlds"
    #: Final choice: "paired" (leave the prior's choice only on a paired gain of z standard
    #: errors) or "puct" (a prior bonus; see tenpai.search.agent).
    rule: str = "paired"
    #: Standard errors a candidate must beat the prior's choice by (rule "paired").
    z: float = 1.0
    #: Weight of the prior in the final choice (rule "puct").
    c_prior: float = 1.0
    #: A placement-model file instead of the shipped one ("" = shipped).
    placement_model: str = ""
    #: Worlds: "uniform" (every sampled world counts the same) or "weighted" (sampled in a
    #: pool, weighted by the prior network's likelihood of the opponents' discards and
    #: resampled; tenpai.search.weights).
    worlds_mode: str = "uniform"
    #: Weighted worlds: candidate worlds sampled per world played.
    pool: int = 4
    #: Weighted worlds: the log-likelihood is divided by this (> 1 flattens the weights; 4 from
    #: the held-out calibration in docs/search_runs.md: at 1 the weights rest on a few worlds).
    weight_temperature: float = 4.0
    #: Weighted worlds: also score the opponents' calls and their passes on calls under the
    #: prior network's claim heads (tenpai.search.call_likelihood); off by default (the
    #: weighted worlds of the ablation table read the discards only).
    weight_calls: bool = False
    #: Weighted worlds: also make the worlds impossible (log weight
    #: :data:`~tenpai.search.win_passes.LOG_IMPOSSIBLE`) in which an opponent let a legal ron or
    #: tsumo go (tenpai.search.win_passes); off by default (docs/search_runs.md, "World weights
    #: from passed wins").
    weight_win_passes: bool = False
    #: Search every offer to call (pon, chi or open kan) whatever the prior's certainty, with
    #: the pass and the prior's likeliest call always among the candidates; off by default
    #: (the threshold gates call offers as any other decision: docs/search_runs.md, "Call offers").
    call_offers: bool = False
    #: At an offer to call where the prior's choice is the pass, a call leaves it on a paired
    #: gain of ``z × call_z_scale`` standard errors (rule "paired"): below 1 the search takes
    #: calls on less evidence than other changes (0: on any positive mean gain); every other
    #: change, the pass over a call included, keeps ``z``. 1 by default (docs/search_runs.md,
    #: "A lower bar for calls").
    call_z_scale: float = 1.0
    #: In a hand that may end the game (the last scheduled hand or later:
    #: :func:`~tenpai.rules.riichi.game.can_end_game`), search when the prior gives its own
    #: choice less than ``max(threshold, last_threshold)``: there the leaves are the final
    #: ranks themselves, where the search earns its lead over mjai-manue (docs/search_runs.md,
    #: "Where the points go"), while the prior is often sure of a choice made without the
    #: standings in mind. 0 by default (the last hand is gated like any other); 1 searches
    #: every decision there with more than one candidate (docs/search_runs.md, "Search every
    #: decision of the last hand").
    last_threshold: float = 0.0
    #: The open-hand yaku rule in the playouts' discards (tenpai.search.policies.yaku_avoid):
    #: an open hand without a secured yaku keeps to the all-simples route or its value-honour
    #: pairs, "strict" whatever the shanten or "ties" among the discards of the best shanten;
    #: "off" by default (docs/search_runs.md, "Do the playouts lose open hands' yaku?").
    playout_yaku: str = "off"
    #: What values a candidate in a world (tenpai.search.leaves): "playout" (every seat plays
    #: on with the policy; the default, as registered), "solo" (the searching seat alone with
    #: the policy, the others passive: cheaper, blind to the others' wins and to deal-ins) or
    #: "auto" (solo where no opponent is in riichi or has two open melds, else playout).
    leaf: str = "playout"
    #: A measuring instrument, never a player: "fair" (the shipped worlds, from what the seat
    #: has seen) or "hands" (every world holds the opponents' real concealed tiles, read from
    #: the engine's table; tenpai.search.sight).  Refused where the table is rebuilt from a
    #: seat's events (mjai, the Tenhou client) and at the web table.
    sight: str = "fair"

    def __post_init__(self) -> None:
        check.budget(_ENV, self.budget_ms, self.clock)
        check.at_least(_ENV, "WORLDS", self.worlds, 1)
        check.at_least(_ENV, "TOPK", self.top_k, 2, "one candidate is no search")
        check.within(_ENV, "THRESHOLD", self.threshold, 0, 1, open_low=True)
        check.within(_ENV, "LAST_THRESHOLD", self.last_threshold, 0, 1)
        check.known(_ENV, "POLICY", "playout policy", self.policy,
                    (*POLICIES, *COMPILED_POLICIES))
        if self.policy in COMPILED_POLICIES:
            from tenpai.rules.riichi import rollout

            check.compiled_core(_ENV, self.policy, rollout)
        check.one_of(_ENV, "PLAYOUT_YAKU", self.playout_yaku, YAKU_RULES, sep=", ")
        if self.playout_yaku != "off" and self.policy.removeprefix("c:") not in FAST_POLICIES:
            raise ValueError(f"{_ENV}PLAYOUT_YAKU={self.playout_yaku} needs a policy of "
                             f"{', '.join(FAST_POLICIES)} (or their c: twins), got "
                             f"{self.policy!r}")
        check.one_of(_ENV, "LEAF", self.leaf, LEAVES, sep=", ")
        check.one_of(_ENV, "VALUE", self.value, ("placement", "points"))
        if self.value == "placement":
            _check_utility(self.utility)
        check.one_of(_ENV, "OPPONENTS", self.opponents, OPPONENT_MODELS, sep=", ")
        check.one_of(_ENV, "DEAL_IN", self.deal_in, DEAL_IN_MODES, sep=", ")
        if self.deal_in in ("quiet", "all", "model") and self.opponents in READING_MODELS:
            raise ValueError(f"{_ENV}DEAL_IN={self.deal_in} values the deal-in to the opponents "
                             f"outside riichi in closed form, and {_ENV}OPPONENTS="
                             f"{self.opponents} already deals them ready hands: it would count "
                             f"twice")
        if self.deal_in in ("riichi", "all") and not self.riichi_ready:
            raise ValueError(f"{_ENV}DEAL_IN={self.deal_in} counts the waits of the ready hands "
                             f"the worlds deal riichi opponents, and {_ENV}RIICHI_READY=0 "
                             f"deals none")
        if self.deal_in in ("riichi", "all") and self.worlds_mode != "uniform":
            raise ValueError(f"{_ENV}DEAL_IN={self.deal_in} counts the waits of unweighted "
                             f"hands, so it needs {_ENV}WORLDS_MODE=uniform "
                             f"(got {self.worlds_mode!r})")
        check.one_of(_ENV, "RULE", self.rule, ("paired", "puct"))
        check.at_least(_ENV, "Z", self.z, 0)
        check.at_least(_ENV, "CALL_Z_SCALE", self.call_z_scale, 0)
        if self.call_z_scale != 1.0 and self.rule != "paired":
            raise ValueError(f"{_ENV}CALL_Z_SCALE scales the paired rule's z, so it needs "
                             f"{_ENV}RULE=paired (got {self.rule!r})")
        check.at_least(_ENV, "C_PRIOR", self.c_prior, 0)
        check.known(_ENV, "WORLDS_MODE", "worlds mode", self.worlds_mode, WORLDS_MODES)
        check.at_least(_ENV, "POOL", self.pool, 1)
        if not self.weight_temperature > 0:
            raise ValueError(f"{_ENV}WEIGHT_T must be > 0, got {self.weight_temperature}")
        if self.weight_calls and self.worlds_mode != "weighted":
            raise ValueError(f"{_ENV}WEIGHT_CALLS=1 weights worlds, so it needs "
                             f"{_ENV}WORLDS_MODE=weighted (got {self.worlds_mode!r})")
        if self.weight_win_passes and self.worlds_mode != "weighted":
            raise ValueError(f"{_ENV}WEIGHT_WIN_PASSES=1 weights worlds, so it needs "
                             f"{_ENV}WORLDS_MODE=weighted (got {self.worlds_mode!r})")
        if self.read_waits and not self.riichi_ready and self.opponents not in READING_MODELS:
            raise ValueError(f"{_ENV}READ_WAITS=1 chooses the waits of the ready hands a world "
                             f"deals, and with {_ENV}RIICHI_READY=0 and {_ENV}OPPONENTS="
                             f"{self.opponents} it deals none")
        check.one_of(_ENV, "SIGHT", self.sight, SIGHTS)
        if self.sight != "fair":
            # the sighted worlds deal the real hands: a model of the hands would be ignored
            ignored = [f"{_ENV}{name}" for name, at_default in (
                ("WORLDS_MODE", self.worlds_mode == "uniform"),
                ("OPPONENTS", self.opponents == "uniform"),
                ("RIICHI_READY", self.riichi_ready),
                ("READ_WAITS", not self.read_waits),
                ("DEAL_IN", self.deal_in == "worlds")) if not at_default]
            if ignored:
                raise ValueError(f"{_ENV}SIGHT={self.sight} deals the opponents' real hands, "
                                 f"so {' and '.join(ignored)} would be ignored: leave "
                                 f"{'it' if len(ignored) == 1 else 'them'} at the default")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SearchSettings:
        return settings_from_env(cls, _ENV, env, _NAMES)

    def describe(self) -> str:
        """The settings that differ from the defaults, for the arena's record of who played."""
        return describe_settings(self)


def _check_utility(text: str) -> None:
    """A utility that fits a three- or a four-player table (which one is decided by the table,
    or by a placement-model file); one that fits neither is a one-line ValueError."""
    from tenpai.search.placement import parse_utility

    errors = []
    for players in (4, 3):
        try:
            parse_utility(text, players)
            return
        except ValueError as err:
            errors.append(str(err))
    raise ValueError(f"{_ENV}UTILITY: {errors[0]}")


#: The variables (``$TENPAI_SEARCH_*``) an agent spec may set for one seat (tenpai.agents.spec).
SETTING_NAMES: tuple[str, ...] = setting_names(SearchSettings, _NAMES)

"""The planner's settings, from ``$TENPAI_PLANNER_*`` (one line naming a bad variable).

The arena and the bot commands build every agent once before the first game and turn a
``ValueError`` into one line and exit code 2, so a bad value never reaches a game.  The
search's own reader (``tenpai.search.env``) sits in a layer above the agents, hence this small
one of the same style.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from tenpai.agents.planner_sight import SIGHTS
from tenpai.rules.mcr.plan.race import BOTS_SURVIVAL

__all__ = ["PLANNER_ENV", "RACE_TABLES", "SETTING_NAMES", "TIE_BREAKS", "VALUE_RULES",
           "PlannerSettings"]

PLANNER_ENV = "TENPAI_PLANNER_"

#: The survival tables ``RACE`` may name (``off``: none, the shipped planner's value).
RACE_TABLES: dict[str, tuple[float, ...]] = {"off": (), "bots": BOTS_SURVIVAL}

#: How ``VALUE`` may value a discard: ``best``, its single best target (probability × value,
#: the shipped planner); ``union``, the expected value of the best target the draws complete
#: (``tenpai.rules.mcr.plan.union``).
VALUE_RULES = ("best", "union")

#: How ``TIE_BREAK`` orders discards that keep equally valuable targets: ``efficiency``, lower
#: MCR shanten after the discard, then more live effective tiles (the shipped planner);
#: ``runner_up``, first the discard whose second-best kept target is worth most, then
#: efficiency's order; ``safety``, lower MCR shanten after the discard, then the lower chance
#: of dealing in (``tenpai.rules.mcr.danger``, differences below ``SAFETY_TOLERANCE`` ignored),
#: then efficiency's order: defense that gives up no target value and no speed.
TIE_BREAKS = ("efficiency", "runner_up", "safety")


@dataclass(frozen=True, slots=True)
class PlannerSettings:
    #: Weigh each discard's danger (tenpai.rules.mcr.danger) against what it keeps.
    defense: bool = False
    #: Points a deal-in costs besides the own target it ends, on the scale of the planner's
    #: value (probability × (24 + fans)).  A deal-in costs about 20 points (the winner's fans,
    #: about 14 against the greedy bots, plus the 8 not paid when nobody else would have won),
    #: but the planner's probability counts only its own draws (no win on a discard, no
    #: call), a third or so of its real chance: 20 / 3 ≈ 7 (20 folded winning hands on the
    #: development walls, docs/mcr_strength_runs.md).
    deal_in_cost: float = 7.0
    #: Defend only when some opponent's estimated chance of being ready reaches this (0-1):
    #: below it the danger figures are noise and efficiency's order is worth more.
    threat: float = 0.15
    #: Discards whose weighed value is within this many points of the best are tied, and
    #: go to efficiency's order.
    tie: float = 0.05
    #: Points a fan adds to a target's value (``tenpai.rules.mcr.plan.Valuation``): 1 weighs
    #: it as a discard win pays it; Botzone pays a self-draw's fans three times, so over wins
    #: of which a share ``s`` are self-drawn a fan is worth 1 + 2s (a bigger target is then
    #: chosen when it costs little extra distance).
    fan_weight: float = 1.0
    #: A chow or pung is made only when its best target is worth more than ``1 +
    #: call_margin`` times passing's (0: any gain; above 0 calls less, below 0 more, down
    #: to -1).
    call_margin: float = 0.0
    #: Count the opponents' discards in a target's probability (``tenpai.rules.mcr.plan.odds``,
    #: draws and claims): the chance per opponent discard of a tile from the unseen pool the
    #: player may take for a set or its win (0-1; 0, the default, is the draws-only figure of
    #: the shipped planner).
    claims: float = 0.0
    #: Weigh each target's completion at each future own draw by the chance no other seat
    #: has won before it (``tenpai.rules.mcr.plan.race``): ``bots``, the survival table
    #: fitted on the planner's hands against three greedy Botzone bots; ``off`` (the
    #: default), the shipped planner's value.
    race: str = "off"
    #: How a discard (and a call) is valued: ``best`` (the default), the single best target
    #: it keeps, max over t of P(t) × value(t); ``union``, E[max over the kept targets t of
    #: 1{the draws complete t} × value(t)], sampled (``tenpai.rules.mcr.plan.union``), which
    #: rewards keeping several targets open.  ``union`` samples the draws-only model, so it
    #: needs ``claims`` 0 and ``race`` off.
    value: str = "best"
    #: Which of several discards that keep equally valuable targets is played (``TIE_BREAKS``):
    #: the best target of most discards is one hand that every tile it lets go keeps (a
    #: development run found two or more kinds tied at 80 % of the planner's discards), so this
    #: order, not the value, picks most discards.  ``runner_up`` keeps the tiles of the
    #: second-best target open; ``efficiency`` (the default) the fastest shape.  Only with
    #: ``value`` ``best``.
    tie_break: str = "efficiency"
    #: A measuring instrument, never a player (``tenpai.agents.planner_sight``): ``walls``, the
    #: planner's odds read the copies in the undrawn walls; ``draws``, it knows the order of
    #: its own coming draws; ``wins``, it never throws a tile an
    #: opponent's real hand would win on; ``fair`` (the default), it sees what its seat sees.
    sight: str = "fair"

    def __post_init__(self) -> None:
        if not self.deal_in_cost >= 0:
            raise ValueError(f"{PLANNER_ENV}DEAL_IN_COST must be >= 0, got {self.deal_in_cost}")
        if not 0.0 <= self.threat <= 1.0:
            raise ValueError(f"{PLANNER_ENV}THREAT must be in [0, 1], got {self.threat}")
        if not self.tie >= 0:
            raise ValueError(f"{PLANNER_ENV}TIE must be >= 0, got {self.tie}")
        if not 0.0 <= self.fan_weight <= 10.0:
            raise ValueError(f"{PLANNER_ENV}FAN_WEIGHT must be in [0, 10], got {self.fan_weight}")
        if not -1.0 <= self.call_margin <= 10.0:
            raise ValueError(f"{PLANNER_ENV}CALL_MARGIN must be in [-1, 10], got "
                             f"{self.call_margin}")
        if not 0.0 <= self.claims <= 1.0:
            raise ValueError(f"{PLANNER_ENV}CLAIMS must be in [0, 1], got {self.claims}")
        for name, value, choices in (("RACE", self.race, tuple(RACE_TABLES)),
                                     ("VALUE", self.value, VALUE_RULES),
                                     ("TIE_BREAK", self.tie_break, TIE_BREAKS),
                                     ("SIGHT", self.sight, SIGHTS)):
            if value not in choices:
                raise ValueError(f"{PLANNER_ENV}{name} must be one of {', '.join(choices)}, got "
                                 f"{value!r}")
        if self.tie_break != "efficiency" and self.value != "best":
            raise ValueError(f"{PLANNER_ENV}TIE_BREAK={self.tie_break} needs "
                             f"{PLANNER_ENV}VALUE=best")
        if self.sight == "draws" and (self.value, self.claims, self.race, self.tie_break) != (
                "best", 0.0, "off", "efficiency"):
            raise ValueError(f"{PLANNER_ENV}SIGHT=draws values targets by its own race: it needs "
                             f"{PLANNER_ENV}VALUE=best, {PLANNER_ENV}CLAIMS=0, "
                             f"{PLANNER_ENV}RACE=off and {PLANNER_ENV}TIE_BREAK=efficiency")
        if self.value == "union" and (self.claims > 0.0 or self.race != "off"):
            raise ValueError(f"{PLANNER_ENV}VALUE=union samples the draws-only model: it needs "
                             f"{PLANNER_ENV}CLAIMS=0 and {PLANNER_ENV}RACE=off")

    @property
    def race_table(self) -> tuple[float, ...]:
        """The survival table of ``race`` (empty when off)."""
        return RACE_TABLES[self.race]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **fixed: object) -> PlannerSettings:
        """Settings from ``$TENPAI_PLANNER_*``; ``fixed`` ones (an agent name's own) win."""
        e = os.environ if env is None else env
        d = cls()
        values: dict[str, object] = {
            field: _read(e, name, getattr(d, field), conv) for field, name, conv in _VARIABLES
        }
        values.update(fixed)
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> str:
        """The settings that differ from the defaults (for the arena's record of who played)."""
        base = asdict(PlannerSettings())
        diff = {k: v for k, v in asdict(self).items() if base[k] != v}
        return ",".join(f"{k}={v}" for k, v in sorted(diff.items())) or "defaults"


#: Each setting: its field, its variable after ``PLANNER_ENV`` and the type it is read as.
_VARIABLES: tuple[tuple[str, str, type], ...] = (
    ("defense", "DEFENSE", bool),
    ("deal_in_cost", "DEAL_IN_COST", float),
    ("threat", "THREAT", float),
    ("tie", "TIE", float),
    ("fan_weight", "FAN_WEIGHT", float),
    ("call_margin", "CALL_MARGIN", float),
    ("claims", "CLAIMS", float),
    ("race", "RACE", str),
    ("value", "VALUE", str),
    ("tie_break", "TIE_BREAK", str),
    ("sight", "SIGHT", str),
)

#: The variables (after ``PLANNER_ENV``) :meth:`PlannerSettings.from_env` reads: the names an
#: agent spec may set for one seat (``planner[CLAIMS=0.3]``, :mod:`tenpai.agents.spec`).
SETTING_NAMES: tuple[str, ...] = tuple(name for _field, name, _conv in _VARIABLES)


def _read(env: Mapping[str, str], name: str, default: object, conv: type) -> object:
    raw = env.get(PLANNER_ENV + name)
    if raw is None or raw.strip() == "":
        return default
    low = raw.strip().lower()
    if conv is bool:
        if low not in ("0", "1", "true", "false", "on", "off"):
            raise ValueError(f"{PLANNER_ENV}{name}: cannot read {raw!r} as a switch "
                             "(0/1/true/false/on/off)")
        return low in ("1", "true", "on")
    try:
        return conv(low)
    except ValueError:
        raise ValueError(f"{PLANNER_ENV}{name}: cannot read {raw!r} as a number") from None

"""Every built-in agent by name: where it lives, the rule sets it plays and the extra it needs.

An entry names its agent's factory as a string (``"tenpai.agents.sl:default_agent"``), and the
module is imported only when an agent of that name is built.  So the arena, self-play, the
environments, the web app and the command line can list, check and build agents while paying
only for the ones a run uses (``sl`` imports torch; ``mcts`` the whole search), and the agents
that belong to an upper package (the search's, the MDP player) are named here without the
agents package importing upwards.

``AGENTS`` maps a name to a callable ``factory(seed) -> Agent``: the entries below, and any
plain function another module adds (``AGENTS["mine"] = make_mine``) keep working as before.
The rule sets are the "rules" column of docs/agents.md; :mod:`tenpai.agents.rulesets` reads
them to refuse an agent meeting a rule set it was not built for.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Final

from tenpai.agents.spec import parse_agent_spec
from tenpai.engine.agent import Agent

__all__ = [
    "AGENTS",
    "ANY_RULES",
    "BASELINE_AGENTS",
    "DEFAULT_AGENTS",
    "ENTRIES",
    "EXTERNAL_SEATS",
    "AgentEntry",
    "agent_entry",
    "default_agent",
    "default_lineup",
    "external_seats",
    "is_known_agent",
    "make_agent",
]

#: Every rule set the arena knows today; ``random`` (legal actions only) plays them all.
ANY_RULES: Final = frozenset({"riichi", "mcr", "suits108"})
_RIICHI: Final = frozenset({"riichi"})
_MCR: Final = frozenset({"mcr"})
#: seed 000's agents read the search's planes of the rule set their model was made for
#: (tenpai.mcts.rulesets); the shipped weights are 108-tile ones, Riichi models come by
#: $TENPAI_MCTS_MODEL / $TENPAI_DROPOUT_MODEL, and a model meeting the other rule set's table
#: stops the game with one line
_SEARCH: Final = frozenset({"suits108", "riichi"})


@dataclass(frozen=True, slots=True)
class AgentEntry:
    """One agent: ``target`` is ``"module:factory"`` with ``factory(seed) -> Agent``;
    ``extra`` is the optional dependency set (``pip install 'tenpai[extra]'``) it needs.
    ``settings``, for an agent whose factory also takes ``env`` (a mapping read in place of
    ``os.environ``), is its variables' prefix and ``"module:ATTR"`` naming the tuple of the
    variables it reads (after the prefix): what a spec such as ``planner[CLAIMS=0.3]`` may
    set for one seat (:mod:`tenpai.agents.spec`)."""

    name: str
    target: str
    rules: frozenset[str]
    extra: str | None = None
    settings: tuple[str, str] | None = None

    def factory(self) -> Callable[[int], Agent]:
        """The factory, its module imported now (an ImportError says what is missing)."""
        module, _, attr = self.target.partition(":")
        found: Callable[[int], Agent] = getattr(importlib.import_module(module), attr)
        return found

    def __call__(self, seed: int) -> Agent:
        return self.factory()(seed)

    def setting_names(self) -> tuple[str, ...]:
        """The keys a spec may give this agent (its module imported now); () for none."""
        if self.settings is None:
            return ()
        module, _, attr = self.settings[1].partition(":")
        names: tuple[str, ...] = getattr(importlib.import_module(module), attr)
        return names

    def settings_env(self, settings: tuple[tuple[str, str], ...]) -> dict[str, str]:
        """The environment this agent reads with ``settings`` (``(KEY, value)``, keys after the
        prefix) over ``os.environ``; an agent without settings or a key it does not read is a
        one-line ValueError."""
        if self.settings is None:
            raise ValueError(f"agent {self.name!r} takes no settings in brackets")
        known = self.setting_names()
        unknown = [k for k, _v in settings if k not in known]
        if unknown:
            raise ValueError(f"agent {self.name!r} has no setting {', '.join(unknown)}; its "
                             f"settings: {', '.join(known)}")
        prefix = self.settings[0]
        return {**os.environ, **{prefix + k: v for k, v in settings}}

    def as_written(self, exc: ValueError, settings: tuple[tuple[str, str], ...]) -> ValueError:
        """``exc`` from reading :meth:`settings_env`, with each variable given in brackets
        named by its key as written (``CLAIMS``, not ``$TENPAI_PLANNER_CLAIMS``): the readers
        name the variable they read, and one that came from the environment keeps its name."""
        if self.settings is None:
            return exc
        text = str(exc)
        for key, _value in settings:
            text = re.sub(rf"\$?\b{re.escape(self.settings[0] + key)}\b", key, text)
        return exc if text == str(exc) else ValueError(text)

    def with_settings(self, seed: int, settings: tuple[tuple[str, str], ...]) -> Agent:
        """The agent with ``settings`` over the environment's, for one seat
        (:meth:`settings_env`); a bad value is a one-line ValueError named as written."""
        env = self.settings_env(settings)
        factory: Callable[..., Agent] = self.factory()
        try:
            return factory(seed, env=env)
        except ValueError as exc:
            raise self.as_written(exc, settings) from None


#: The planner's variables (both of its registered names read them).
_PLANNER_SETTINGS: Final = ("TENPAI_PLANNER_", "tenpai.agents.planner_settings:SETTING_NAMES")

ENTRIES: Final[tuple[AgentEntry, ...]] = (
    AgentEntry("random", "tenpai.engine.agent:RandomAgent", ANY_RULES),
    # Riichi measures; on an MCR observation it plays by MCR's shanten (its own docstring),
    # and the 108-tile game's observation is Riichi-shaped
    AgentEntry("efficiency", "tenpai.agents.efficiency:EfficiencyAgent", ANY_RULES),
    # riichi, and the 108-tile game through its own reading (defensive_suits108: the ready
    # declaration as the threat, safety from passed tiles as there is no furiten)
    AgentEntry("defensive", "tenpai.agents.defensive:DefensiveAgent",
               frozenset({"riichi", "suits108"})),
    AgentEntry("expert", "tenpai.agents.expert:ExpertAgent", ANY_RULES),
    # MCR: efficiency steered toward the best reachable 8-fan target (tenpai.rules.mcr.plan)
    # settings from $TENPAI_PLANNER_* (docs/mcr_strength.md); defense off
    AgentEntry("planner", "tenpai.agents.planner:make_planner_agent", _MCR,
               settings=_PLANNER_SETTINGS),
    # issue 43: the planner weighing each discard's danger (tenpai.rules.mcr.danger)
    AgentEntry("planner_defend", "tenpai.agents.planner:make_planner_defend_agent", _MCR,
               settings=_PLANNER_SETTINGS),
    # issue 43: a learned linear policy over the planner's candidates
    # (weights: $TENPAI_PG_PLANNER_WEIGHTS)
    AgentEntry("pg_planner", "tenpai.agents.pg_planner:make_pg_planner_agent", _MCR),
    AgentEntry("mdp", "tenpai.mdp.agent:MDPAgent", _RIICHI),
    AgentEntry("sl", "tenpai.agents.factories:sl", _RIICHI, "learn"),
    AgentEntry("sl_model", "tenpai.agents.factories:sl_model", _RIICHI, "learn"),
    AgentEntry("sl_mcr", "tenpai.agents.factories:sl_mcr", _MCR, "learn"),
    AgentEntry("sl_mcr_model", "tenpai.agents.factories:sl_mcr_model", _MCR, "learn"),
    AgentEntry("pg", "tenpai.agents.factories:pg", _RIICHI, "learn"),
    AgentEntry("pg_mcr", "tenpai.agents.factories:pg_mcr", _MCR, "learn"),
    AgentEntry("pg_mcr_start", "tenpai.agents.factories:pg_mcr_start", _MCR, "learn"),
    AgentEntry("mcts", "tenpai.mcts.agent:search_agent", _SEARCH, "learn"),
    AgentEntry("mcts_prior", "tenpai.mcts.agent:prior_agent", _SEARCH, "learn"),
    AgentEntry("dropout", "tenpai.mcts.agent:dropout_agent", _SEARCH, "learn"),
    # issue 38: pg's choice reconsidered by playouts over sampled worlds (docs/search.md);
    # settings from $TENPAI_SEARCH_*, the prior from $TENPAI_PG_MODEL as for pg; Riichi at four
    # and three seats (tenhou_sanma: its own placement model; a model file of one size only
    # leaves the agent that size)
    AgentEntry("search", "tenpai.search.agent:make_search_agent", _RIICHI, "learn",
               ("TENPAI_SEARCH_", "tenpai.search.settings:SETTING_NAMES")),
    # issue 38 §2: seed 000's tree search over sampled worlds with search's parts (pg prior,
    # playouts, placement value; docs/search.md); settings from $TENPAI_MCTS_PG_*
    AgentEntry("mcts_pg", "tenpai.mcts.pg_agent:make_mcts_pg_agent", _RIICHI, "learn",
               ("TENPAI_MCTS_PG_", "tenpai.mcts.pg_settings:SETTING_NAMES")),
    # issue 43: the planner's choice reconsidered by MCR playouts over sampled worlds, valued
    # by the hand's Botzone points (docs/mcr_strength.md); settings from $TENPAI_SEARCH_MCR_*
    AgentEntry("search_mcr", "tenpai.search.mcr.agent:make_search_mcr_agent", _MCR,
               settings=("TENPAI_SEARCH_MCR_", "tenpai.search.mcr.settings:SETTING_NAMES")),
)

AGENTS: dict[str, Callable[[int], Agent]] = {entry.name: entry for entry in ENTRIES}

#: The agent a rule set is played by when nobody names one (the web table's opponents, the
#: Botzone bot and package, ``explain`` of a hand), so that what a user meets first is the
#: strongest we can show.  MCR: ``planner``, ahead of ``efficiency`` by 0.12 places and ahead
#: of ``expert`` in pre-registered arenas (docs/mcr_strength.md).  Riichi and the 108-tile
#: game keep ``expert``, the rule agent the web table always offered (no torch needed).
DEFAULT_AGENTS: Final = {"riichi": "expert", "mcr": "planner", "suits108": "expert"}
#: The rule agent a rule set's default is measured against: the arena's default line-up
#: seats the two in alternating seats.  Only MCR has a measured default today.
BASELINE_AGENTS: Final = {"mcr": "efficiency"}


def default_agent(rules: str) -> str:
    """The agent ``rules`` is played by when none is named; a ValueError for an unknown rule
    set names the known ones."""
    try:
        return DEFAULT_AGENTS[rules]
    except KeyError:
        raise ValueError(f"no default agent for rules {rules!r}; known: "
                         f"{', '.join(sorted(DEFAULT_AGENTS))}") from None


def default_lineup(rules: str) -> list[str]:
    """The arena's line-up when ``--agents`` is omitted: the default against its baseline,
    seats alternating (the pre-registered measurement's line-up); a ValueError for a rule set
    without a measured default."""
    if rules not in BASELINE_AGENTS:
        raise ValueError(f"no default line-up for rules {rules!r} (only "
                         f"{', '.join(sorted(BASELINE_AGENTS))}): give --agents")
    best, baseline = default_agent(rules), BASELINE_AGENTS[rules]
    return [best, baseline, best, baseline]

#: Seats played by a program outside this process, by name prefix (``mjai:PATH``), and the
#: module that plays a game with them (``resolve_spec(name)``, ``play_game(game, names,
#: agents)``).  The protocol lives in the serve layer, above the arena that seats them.
EXTERNAL_SEATS: Final = {
    "mjai:": "tenpai.serve.mjai.external",
    "botzone:": "tenpai.serve.botzone.external",
    "botzone-json:": "tenpai.serve.botzone.external",
}


def agent_entry(name: str) -> AgentEntry | None:
    """The built-in entry of ``name``; None for an unknown name or a plain added factory."""
    found = AGENTS.get(name)
    return found if isinstance(found, AgentEntry) else None


def is_known_agent(name: str) -> bool:
    """Whether ``name`` is a registered agent, bare or with settings in brackets (a spec
    that does not parse is not; :func:`make_agent` says why)."""
    try:
        return parse_agent_spec(name).name in AGENTS
    except ValueError:
        return False


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by registry name, or by a spec with settings for this seat
    (``planner[CLAIMS=0.3]``, :mod:`tenpai.agents.spec`).  An unknown name raises a
    ValueError listing the known ones; a bad spec, or a setting the agent does not read, a
    one-line ValueError."""
    spec = parse_agent_spec(name)
    try:
        factory = AGENTS[spec.name]
    except KeyError:
        raise ValueError(f"unknown agent {spec.name!r}; known: {', '.join(sorted(AGENTS))}"
                         ) from None
    if not spec.settings:
        return factory(seed)
    if not isinstance(factory, AgentEntry):
        raise ValueError(f"agent {spec.name!r} takes no settings in brackets")
    return factory.with_settings(seed, spec.settings)


def external_seats(prefix: str) -> ModuleType:
    """The module that plays games with the external seats named ``prefix…`` (imported now)."""
    return importlib.import_module(EXTERNAL_SEATS[prefix])

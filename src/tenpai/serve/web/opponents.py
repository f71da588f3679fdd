"""Who can sit at the Play table, how long each opponent may think, and what the clock does.

The list comes from the lazy agent registry, so listing agents imports none of them: an agent
is offered when it plays the chosen rule set and the optional dependencies it needs (its
registry ``extra``) are installed, so nobody picks an opponent that can only fail.  The strong
agents (search, the networks, then the fuller rule agents) come first in the menu.

"Think time" is the search budget of agents that search at decision time (``search``,
``mcts_pg``, ``search_mcr``: a wall clock budget per decision); every other agent answers in
one pass of its rules or networks, and the page says so instead of pretending they think.

An opponent that reads settings (``search``, ``planner``, …) may be given some for its seat in
brackets, as on the command line (``planner[FAN_WEIGHT=0]``); the menu says which agents take
them and shows an example.

The player's own move timer runs in the browser, but what happens when it reaches zero is
decided here, from the legal actions, as Tenhou does it: the drawn tile is discarded
(tsumogiri), a call or a win offered on another player's discard is passed, and after a call
(no drawn tile) the last tile of the hand is discarded.  A win is never taken for the player.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import Any, Final

from tenpai import tiles as T
from tenpai.agents.budget import has_budget, set_budget_ms
from tenpai.agents.registry import ENTRIES
from tenpai.agents.rulesets import check_agent_rules
from tenpai.events import Event

__all__ = [
    "DEFAULT_THINK_MS",
    "INSTRUMENT_SETTINGS",
    "THINK_CHOICES_MS",
    "apply_think_time",
    "opponent_menu",
    "thinks",
    "timeout_action",
]

#: Think times offered for agents that search (milliseconds per decision).
THINK_CHOICES_MS: Final = (100, 300, 1000, 3000)
DEFAULT_THINK_MS: Final = 300
#: The menu's order: the searching and learned agents, the rule agents from the most complete
#: to the simplest, then the rest of the registry by name (an order of kind, not a measured
#: ranking: no arena run has ranked all of them against each other) ...
_FIRST: Final = ("search", "pg", "sl", "expert", "defensive", "efficiency", "planner", "pg_mcr",
                 "sl_mcr", "dropout")
#: ... except where registered runs did rank them: at an MCR table ``planner`` (the default) is
#: ahead of ``efficiency`` and ``efficiency`` ahead of ``expert``, and ``pg_mcr`` behind both
#: ``planner`` and ``efficiency`` (docs/mcr_strength.md; ``search_mcr`` is not separated from
#: ``planner`` and keeps its place by name).
_FIRST_BY_RULES: Final = {"mcr": ("planner", "efficiency", "expert", "pg_mcr", "sl_mcr")}
#: Agents the Play menu leaves out: ones that need a model file named by an environment
#: variable, read every hand (perfect information) or exist to measure another agent.
_HIDDEN: Final = frozenset({"sl_model", "sl_mcr_model", "mcts", "mcts_prior", "pg_mcr_start"})
#: Settings that turn an agent into an instrument seeing hidden tiles (the planner's and
#: ``search_mcr``'s ``SIGHT``): refused at the Play table for the reason the menu hides ``mcts``.
INSTRUMENT_SETTINGS: Final = frozenset({"SIGHT"})
#: Agents that play a file named by an environment variable and ship none: offered only while
#: the variable is set (without it they can only fail).
_NEEDS_VARIABLE: Final = {"pg_planner": "TENPAI_PG_PLANNER_WEIGHTS"}
#: Agents whose shipped weights are of one rule set (another needs a model file by variable).
_SHIPPED_FOR: Final = {"dropout": "suits108"}
#: What the settings box shows for an agent that takes settings for its seat (``NAME[KEY=VALUE]``,
#: docs/agents.md "Settings for one seat"): one real setting, so the format explains itself.
_SETTINGS_EXAMPLE: Final = {
    "search": "CALL_OFFERS=1",
    "mcts_pg": "SIMULATIONS=64",
    "planner": "FAN_WEIGHT=0",
    "planner_defend": "FAN_WEIGHT=0",
    "search_mcr": "WORLDS=16",
}
#: An extra counts as installed when these modules can be found (pyproject's extras).
_EXTRA_MODULES: Final = {"learn": ("torch",)}
#: One line a player reads beside the name.
_ABOUT: Final = {
    "random": "random legal moves",
    "efficiency": "rules: fastest way to a ready hand, never folds",
    "defensive": "rules: efficiency, folds against riichi",
    "expert": "rules: hand value, efficiency and defence",
    "planner": "rules: aims at 8-fan hands",
    "planner_defend": "rules: planner that weighs each discard's danger",
    "mdp": "MDP search over its own hand",
    "sl": "network trained on Houou games",
    "pg": "sl improved by self-play",
    "sl_mcr": "network trained for MCR",
    "pg_mcr": "sl_mcr improved by self-play",
    "dropout": "network of the 108-tile search",
    "search": "pg plus playouts over sampled hands",
    "mcts_pg": "tree search over sampled hands, pg as its prior",
    "search_mcr": "planner plus playouts over sampled hands",
}


def _installed(extra: str | None) -> bool:
    if extra is None:
        return True
    return all(importlib.util.find_spec(m) is not None for m in _EXTRA_MODULES.get(extra, ()))


#: The agents that search at decision time within a budget the think time sets (each has
#: ``set_budget_ms``; tests/web/test_play_opponents.py checks the list against the agents).
_SEARCHING: Final = frozenset({"search", "mcts_pg", "search_mcr"})


def thinks(agent_name: str) -> bool:
    """Whether the agent searches at decision time (its think time is a setting)."""
    return agent_name in _SEARCHING


def opponent_menu(rules: str) -> list[dict[str, Any]]:
    """The agents that can play ``rules`` here, strongest first, each with what it is and how
    long it takes to answer."""
    rank = {name: i for i, name in enumerate(_FIRST_BY_RULES.get(rules, _FIRST))}
    out = []
    for entry in sorted(ENTRIES, key=lambda e: (rank.get(e.name, len(rank)), e.name)):
        if entry.name in _HIDDEN or not _installed(entry.extra):
            continue
        if entry.name in _NEEDS_VARIABLE and not os.environ.get(_NEEDS_VARIABLE[entry.name]):
            continue
        if _SHIPPED_FOR.get(entry.name, rules) != rules:
            continue
        try:
            check_agent_rules(entry.name, rules)
        except ValueError:
            continue
        think = ("searches up to the think time per decision" if thinks(entry.name)
                 else "answers at once")
        # the settings' names are not listed: that would import the agent's modules; a wrong
        # key is refused with the list when the game is asked for
        example = (_SETTINGS_EXAMPLE.get(entry.name, "KEY=VALUE") if entry.settings is not None
                   else "")
        out.append({"name": entry.name, "about": _ABOUT.get(entry.name, ""),
                    "thinks": thinks(entry.name), "think": think, "settings": example})
    return out


def apply_think_time(name: str, agent: object, think_ms: float) -> None:
    """Give a searching agent its budget per decision; agents that answer at once are left as
    they are (the menu says which opponents search)."""
    if has_budget(agent):
        set_budget_ms(name, agent, think_ms)


def timeout_action(legal: Sequence[Event]) -> int:
    """The index of the action played for the player when the move timer reaches zero."""
    discards = [i for i, e in enumerate(legal) if e.type == "dahai"]
    drawn = [i for i in discards if legal[i].tsumogiri]
    if drawn:
        return drawn[0]
    passing = next((i for i, e in enumerate(legal) if e.type == "none"), None)
    if passing is not None:
        return passing
    if discards:  # after a call: the last tile of the sorted hand
        return max(discards, key=lambda i: (T.kind_of(legal[i].pai or 0), legal[i].pai or 0))
    # nothing to discard or pass (a forced choice): the first action the engine offers
    return 0

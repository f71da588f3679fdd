"""Which rule sets each registered agent plays, declared beside the registry.

An agent built for one rule set fails deep inside another (``defensive`` reads riichi or
ready declarations, which an MCR observation lacks, so it raises ``AttributeError``; ``sl``
feeds an MCR hand to Riichi shanten) or, worse, plays it silently and meaninglessly
(``sl_mcr``'s networks reading a Riichi table).  The arena and self-play therefore ask
:func:`check_agent_rules` before building anything and refuse an unsupported pairing with
one line.

The declaration is a field of the agent's registry entry (:mod:`tenpai.agents.registry`)
rather than a class attribute, so it can be read without importing the agent (``sl`` imports
torch).  An agent with no declaration is assumed to play any rule set — the default that keeps
agents registered by other modules working until they declare themselves with
:func:`declare_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable

from tenpai.agents.registry import ANY_RULES, ENTRIES
from tenpai.agents.spec import AgentSpecError, parse_agent_spec

__all__ = [
    "AGENT_RULES",
    "ANY_RULES",
    "UnsupportedRulesError",
    "check_agent_rules",
    "check_built_agent",
    "declare_rules",
    "supported_rules",
]

#: agent name -> the rule sets it is built for, read from the registry's entries; a module
#: that adds an agent of its own declares it with :func:`declare_rules`
AGENT_RULES: dict[str, frozenset[str]] = {entry.name: entry.rules for entry in ENTRIES}


class UnsupportedRulesError(ValueError):
    """An agent was asked to play a rule set it does not declare."""


def declare_rules(name: str, rules: Iterable[str]) -> None:
    """Declare (or replace) the rule sets agent ``name`` plays; for agents added elsewhere."""
    AGENT_RULES[name] = frozenset(rules)


def supported_rules(name: str) -> frozenset[str] | None:
    """The rule sets agent ``name`` declares, or None when it declares none (plays any); an
    agent with settings in brackets declares what the agent itself does."""
    try:
        return AGENT_RULES.get(parse_agent_spec(name).name)
    except AgentSpecError:
        return None


def check_agent_rules(name: str, rules: str) -> None:
    """Raise :class:`UnsupportedRulesError` (one line) when ``name`` does not play ``rules``."""
    supported = supported_rules(name)
    if supported is not None and rules not in supported:
        raise UnsupportedRulesError(
            f"agent {name!r} plays {', '.join(sorted(supported))}, not {rules!r}"
        )


def check_built_agent(name: str, agent: object, rules: str, players: int | None = None) -> None:
    """:func:`check_agent_rules`, and then the model the built ``agent`` loaded: an agent that
    declares several rule sets (``mcts``) plays only the one its weights were made for (its
    ``model_rules``), which only the built agent knows; likewise an agent whose model is for
    one seat count (``model_players``: ``search``'s four-player placement model) is refused at
    a table of ``players`` seats (when given).  Raises :class:`UnsupportedRulesError`."""
    check_agent_rules(name, rules)
    model_rules = getattr(agent, "model_rules", None)
    if model_rules is not None and model_rules != rules:
        raise UnsupportedRulesError(
            f"agent {name!r} has a {model_rules} model and cannot play {rules}; give it a "
            f"{rules} model (docs/agents.md names its environment variable)"
        )
    model_players = getattr(agent, "model_players", None)
    if players is not None and model_players is not None and model_players != players:
        raise UnsupportedRulesError(
            f"agent {name!r} has a {model_players}-player model and cannot play a "
            f"{players}-player table"
        )

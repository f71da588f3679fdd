"""An agent named with settings for its own seat: ``planner[CLAIMS=0.3,FAN_WEIGHT=0]``.

The agents with settings read them from environment variables (``$TENPAI_PLANNER_*``,
``$TENPAI_SEARCH_*``, …), which apply to every seat a process builds.  Comparing two settings
of one agent therefore took two runs on the same deals, paired afterwards across databases.
A spec puts both in one line-up (``--agents "planner[CLAIMS=0.3],planner,efficiency,efficiency"``),
so the duplicate seating pairs them within every deal, and the name each seat is stored under
says what it played.

Grammar: ``NAME`` or ``NAME[KEY=VALUE,KEY=VALUE,…]``.  A key is the variable's name after the
agent's prefix (``CLAIMS`` for ``$TENPAI_PLANNER_CLAIMS``), in any case; a value is any text
without ``[``, ``]``, ``,`` or ``=``.  A setting in brackets wins over the same variable in
the environment, for that seat only; the others still come from the environment.  Which
agents take settings, and which keys each knows, is the registry's business
(:func:`tenpai.agents.registry.make_agent`); this module only reads the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AgentSpec", "AgentSpecError", "parse_agent_spec", "split_agents"]

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: Seats played by another program: their text is a command line, never a spec.
_EXTERNAL = ("mjai:", "botzone:", "botzone-json:")


class AgentSpecError(ValueError):
    """A line-up or agent name that does not follow the grammar (one line saying where)."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """An agent's registry name and the settings its seat gives it (keys in capitals, in the
    order written)."""

    name: str
    settings: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        """The canonical text (keys in capitals, no spaces): what the arena stores the seat
        under, so ``planner[ claims=0.3 ]`` and ``planner[CLAIMS=0.3]`` are one agent."""
        if not self.settings:
            return self.name
        return f"{self.name}[{','.join(f'{k}={v}' for k, v in self.settings)}]"


def parse_agent_spec(text: str) -> AgentSpec:
    """``NAME`` or ``NAME[KEY=VALUE,…]`` read; an external seat (``mjai:``, ``botzone:``) is its
    own name with no settings.  Raises :class:`AgentSpecError` naming the spec and the fault."""
    text = text.strip()
    if text.startswith(_EXTERNAL) or ("[" not in text and "]" not in text):
        return AgentSpec(text)
    name, bracket, rest = text.partition("[")
    if not bracket or not rest.endswith("]") or "[" in rest or "]" in rest[:-1]:
        raise AgentSpecError(f"agent {text!r}: settings go in one pair of brackets at the end, "
                             "as in planner[CLAIMS=0.3,FAN_WEIGHT=0]")
    name = name.strip()
    if not name:
        raise AgentSpecError(f"agent {text!r}: no agent name before the brackets")
    body = rest[:-1].strip()
    if not body:
        raise AgentSpecError(f"agent {text!r}: empty brackets (leave them out for no settings)")
    settings: dict[str, str] = {}
    for item in body.split(","):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key or not value or "=" in value:
            raise AgentSpecError(f"agent {text!r}: {item.strip()!r} is not KEY=VALUE")
        if not _KEY.fullmatch(key):
            raise AgentSpecError(f"agent {text!r}: {key!r} is not a setting's name "
                                 "(letters, digits and _)")
        key = key.upper()
        if key in settings:
            raise AgentSpecError(f"agent {text!r}: {key} is set twice")
        settings[key] = value
    return AgentSpec(name, tuple(settings.items()))


def split_agents(text: str) -> list[str]:
    """A comma-separated line-up split into its agents, keeping the commas inside a spec's
    brackets (``planner[CLAIMS=0.3,FAN_WEIGHT=0],efficiency`` is two agents); empty items are
    dropped.  An unbalanced bracket is an :class:`AgentSpecError`."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise AgentSpecError(f"agents {text!r}: a ']' closes no '['")
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if depth:
        raise AgentSpecError(f"agents {text!r}: a '[' is never closed")
    out.append(text[start:])
    return [a.strip() for a in out if a.strip()]

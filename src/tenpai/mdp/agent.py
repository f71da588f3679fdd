"""The Riichi player of seed 001 (Kurita & Hoki): greedy on action values from one-player MDPs.

See :mod:`tenpai.mdp.player` for how each action is valued and docs/mdp_search.md for the
reconstruction of the paper's definitions.  The opponent models are loaded when the agent is
built, so a missing or corrupt model file stops it before the first hand
(:class:`tenpai.reading.models.ModelFileError`) instead of letting it play badly.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenpai.events import Event
from tenpai.mdp.player import Decision, choose, evaluate_decision
from tenpai.mdp.settings import Settings
from tenpai.reading.models import OpponentModels, load_models

__all__ = ["ENV_SETTINGS", "MDPAgent", "settings_from_env"]

#: Environment variable with a JSON object of ``Settings`` fields overriding the defaults, so
#: that arena runs (which build agents by name) can compare settings.
ENV_SETTINGS = "TENPAI_MDP_SETTINGS"
_DEFAULTS = Settings()


def settings_from_env() -> Settings:
    """Default settings, with the fields given in ``$TENPAI_MDP_SETTINGS`` (JSON) replaced.

    Lists become tuples (the dataclass holds tuples); an unknown field or bad JSON raises a
    ValueError naming the variable, so the agent refuses to start."""
    raw = os.environ.get(ENV_SETTINGS, "").strip()
    if not raw:
        return Settings()
    try:
        fields = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ValueError(f"{ENV_SETTINGS} is not JSON: {err}") from None
    if not isinstance(fields, dict):
        raise ValueError(f"{ENV_SETTINGS} must be a JSON object of Settings fields")
    known = {f.name for f in dataclasses.fields(Settings)}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ValueError(f"{ENV_SETTINGS}: unknown Settings fields {unknown}")
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in fields.items()}
    return dataclasses.replace(Settings(), **values)


class MDPAgent:
    """Values every legal action with the MDPs and plays the best one."""

    def __init__(self, seed: int = 0, name: str = "mdp", models: str | Path | None = None,
                 settings: Settings | None = None) -> None:
        self.name = name
        self.seed = seed
        self.settings = settings or settings_from_env()
        self.models: OpponentModels = load_models(models)
        #: The settings that differ from the defaults, for a stored arena run ("": none).
        changed = {f.name: getattr(self.settings, f.name) for f in dataclasses.fields(Settings)
                   if getattr(self.settings, f.name) != getattr(_DEFAULTS, f.name)}
        self.identity = json.dumps(changed, sort_keys=True) if changed else ""

    def explain(self, observation: Any, legal: Sequence[Event]) -> Decision:
        """Every legal action's value and the terms behind it."""
        return evaluate_decision(observation, legal, self.models, self.settings)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        if len(legal) == 1:
            return legal[0]
        hora = next((e for e in legal if e.type == "hora"), None)
        if hora is not None:
            return hora  # 001 §V: a win ends the hand at once; never worse than going on here
        decision = evaluate_decision(observation, legal, self.models, self.settings)
        best = choose(decision, observation, self.settings)
        if best is None:
            return next((e for e in legal if e.type == "none"), legal[0])
        return best

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

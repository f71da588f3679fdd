"""A rule agent recorded like the search: the teacher of the warm start and of warm-up games.

Its decisions carry the search's perfect-information planes and π one-hot on its choice, so
they train the search model's networks exactly as self-play data do.  Both the warm start
(:mod:`tenpai.mcts.warmstart`) and the search training's warm-up games (:mod:`tenpai.mcts.train`)
play it; it sits below both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tenpai.mcts.packed_planes import pack
from tenpai.mcts.rulesets import search_rules

__all__ = ["Teacher"]


class Teacher:
    """A rule agent whose decisions are recorded like the search's (π one-hot on its choice):
    the optional warm start of the replay buffer (not in the paper; docs/mcts.md)."""

    def __init__(self, name: str, seed: int, access: str, rules: str = "suits108") -> None:
        from tenpai.agents.registry import make_agent

        self.inner = make_agent(name, seed)
        self.name = f"teacher:{name}"
        self.access = access
        self.rules = search_rules(rules)

    def act(self, observation: Any, legal: Any) -> Any:
        return self.inner.act(observation, legal)

    def act_batch(self, requests: Any) -> list[Any]:
        batch = getattr(self.inner, "act_batch", None)  # network teachers: one forward
        if batch is not None:
            return list(batch(requests))
        return [self.inner.act(o, legal) for o, legal in requests]

    def act_batch_with_info(self, requests: Any) -> list[tuple[Any, dict[str, Any]]]:
        rules = self.rules
        space = rules.tables.space
        out = []
        for (obs, _legal), action in zip(requests, self.act_batch(requests)):
            ident = space.event_to_action(action)
            pi = np.zeros(space.n, dtype=np.float32)
            pi[ident] = 1.0
            table = rules.check_table(getattr(obs, "_table", None), self.name)
            planes = rules.encode(table, obs.seat, self.access)
            out.append((action, {"planes": pack(planes, rules.wall_scale), "policy": pi,
                                 "seat": obs.seat, "hand": table.hand_index, "action": ident,
                                 "safe": rules.safety(table, obs.seat)}))
        return out

"""Batched self-play: many games at once for learning methods, in one process, workers or Ray.

>>> from tenpai.selfplay import SeatSpec, SelfPlaySpec, run_selfplay
>>> spec = SelfPlaySpec.series("riichi", ["efficiency"] * 4, first_seed=0, games=2)
>>> games = run_selfplay(spec, tables=2)

See docs/selfplay.md.  Heavy dependencies (torch for network agents, Ray for ``backend="ray"``)
are imported only when a spec or backend needs them.
"""

from __future__ import annotations

from tenpai.selfplay.api import BACKENDS, iter_selfplay, run_selfplay
from tenpai.selfplay.spec import AgentFactory, SeatSpec, SelfPlaySpec, agent_seed
from tenpai.selfplay.trajectory import PlayedGame, Step
from tenpai.selfplay.vector import VectorRunner

__all__ = [
    "BACKENDS",
    "AgentFactory",
    "PlayedGame",
    "SeatSpec",
    "SelfPlaySpec",
    "Step",
    "VectorRunner",
    "agent_seed",
    "iter_selfplay",
    "run_selfplay",
]

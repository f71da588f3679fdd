"""The 108-tile game for the environments: tenpai's own ``s108planes@1`` plus a table vector.

The view is read from the engine's observation of the seat (hand, melds, rivers, ready
declarations, waits), so no event tracker is needed.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tenpai.env.actions import SUITS108_ACTIONS, ActionSpace
from tenpai.env.adapters.base import (
    SCORES_AND_WALL,
    RuleAdapter,
    kind_or_none,
    relative,
    seat_wind,
    tile_or_minus,
)
from tenpai.env.encoders import s108planes
from tenpai.events import Event
from tenpai.rules.suits108.observation import Suits108Observation

__all__ = ["Suits108Adapter"]


class Suits108Adapter(RuleAdapter):
    """Options: ``preset`` (paper, table_a1_literal)."""

    rules: ClassVar[str] = "suits108"
    env_name: ClassVar[str] = "suits108_v0"
    actions: ClassVar[ActionSpace] = SUITS108_ACTIONS
    encoder_tag: ClassVar[str] = f"{s108planes.NAME}@{s108planes.VERSION}"
    plane_shape: ClassVar[tuple[int, int]] = s108planes.SHAPE
    table_fields: ClassVar[tuple[str, ...]] = (
        *SCORES_AND_WALL,
        "hand_index",
        "seat_wind",
        "dealer",
        "drawn_tile",
        "offered_tile",
    )

    def _reset_tracking(self) -> None:
        """Nothing to track: the engine's observation is read directly."""

    def _apply(self, e: Event) -> None:
        """Events are not needed (see :meth:`_reset_tracking`)."""

    def _observation(self, rnd: Any, seat: int) -> Suits108Observation:
        return Suits108Observation(rnd, seat)

    def _planes(self, seat: int, drawn: int | None, offered: int | None) -> np.ndarray:
        obs = self._observation(self._round, seat)
        view = s108planes.view_of(obs, drawn=kind_or_none(drawn), offered=kind_or_none(offered))
        return s108planes.encode(view)

    def _table(self, seat: int, drawn: int | None, offered: int | None) -> list[int]:
        obs = self._observation(self._round, seat)
        return [
            *relative(obs.scores, seat),
            obs.wall_remaining,
            obs.hand_index,
            (seat - obs.oya) % 4,
            (obs.oya - seat) % 4,
            tile_or_minus(drawn),
            tile_or_minus(offered),
        ]

    def header(self, obs: Any) -> str:
        return f"hand {obs.hand_index + 1} · wall {obs.wall_remaining}"

    def seat_tags(self, obs: Any, seat: int) -> str:
        return seat_wind(obs, seat) + (" ready" if obs.declared[seat] else "")

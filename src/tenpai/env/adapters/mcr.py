"""MCR for the environments: seed 002's stacked planes (``mcr_stack002@1``) plus a table vector.

Players and table positions differ in a full MCR game (players change seats between rounds),
so the adapter maps each player to the position it holds in the current hand; the events, the
tracker and the engine's observation all speak positions.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tenpai import tiles as T
from tenpai.env.actions import MCR_ACTIONS, ActionSpace
from tenpai.env.adapters.base import (
    SCORES_AND_WALL,
    WINDS,
    TrackedAdapter,
    relative,
    seat_wind,
    tile_or_minus,
)
from tenpai.learn.mcr.state import MCRTracker
from tenpai.learn.rulesets import get_encoder
from tenpai.rules.mcr.flow.observation import MCRObservation

__all__ = ["MCRAdapter"]

_ENCODER = get_encoder("mcr_stack002@1", "mcr")


class MCRAdapter(TrackedAdapter):
    """Options: ``preset`` (mcr_official: a 16-hand game; botzone: one hand)."""

    rules: ClassVar[str] = "mcr"
    env_name: ClassVar[str] = "mcr_v0"
    actions: ClassVar[ActionSpace] = MCR_ACTIONS
    encoder_tag: ClassVar[str] = _ENCODER.tag
    plane_shape: ClassVar[tuple[int, int]] = (_ENCODER.shape[0], _ENCODER.shape[1])
    tracker: ClassVar[Any] = MCRTracker
    encoder: ClassVar[Any] = _ENCODER
    table_fields: ClassVar[tuple[str, ...]] = (
        *SCORES_AND_WALL,
        "prevalent_wind",
        "seat_wind",
        "hand_number",
        "flowers_self",
        "flowers_right",
        "flowers_across",
        "flowers_left",
        "discards_made",
        "drawn_tile",
        "offered_tile",
    )

    def seat_of(self, player: int) -> int:
        game = self.game
        assert game is not None
        return int(game.position_of(player))  # type: ignore[attr-defined]

    def _observation(self, rnd: Any, seat: int) -> MCRObservation:
        return MCRObservation(rnd, seat)

    def _table(self, seat: int, drawn: int | None, offered: int | None) -> list[int]:
        v = self._tracker.view(seat)
        obs = self._observation(self._round, seat)
        return [
            *relative(obs.scores, seat),
            obs.wall_remaining,
            v.prevalent_wind,
            v.seat_wind,
            obs.kyoku,
            *v.flowers,
            v.discards_made,
            tile_or_minus(drawn),
            tile_or_minus(offered),
        ]

    def header(self, obs: Any) -> str:
        return (
            f"prevalent wind {WINDS[obs.prevalent_wind]} · hand {obs.kyoku + 1}"
            f" · wall {obs.wall_remaining}"
        )

    def seat_tags(self, obs: Any, seat: int) -> str:
        flowers = obs.flowers[seat]
        return seat_wind(obs, seat) + (f" flowers {T.to_compact(flowers)}" if flowers else "")

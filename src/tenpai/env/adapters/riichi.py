"""Riichi for the environments: Gao's 86 planes (``gao86@1``) plus a table vector.

The planes come from the same :class:`~tenpai.learn.state.RoundTracker` and frozen encoder the
supervised models use, fed with the game's full event stream (a tracker view of one seat shows
only that seat's hand and the public table, as a test in ``tests/learn`` checks against the
engine's observation).  Nothing here needs torch.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tenpai import tiles as T
from tenpai.env.actions import RIICHI_ACTIONS, ActionSpace
from tenpai.env.adapters.base import (
    SCORES_AND_WALL,
    WINDS,
    TrackedAdapter,
    seat_wind,
    tile_or_minus,
)
from tenpai.learn.rulesets import get_encoder
from tenpai.learn.state import RoundTracker
from tenpai.rules.riichi.flow.observation import RiichiObservation

__all__ = ["RiichiAdapter"]

_ENCODER = get_encoder("gao86@1")


class RiichiAdapter(TrackedAdapter):
    """Options: ``preset`` (tenhou, mahjong_soul) and ``length`` (tonpuu, hanchan)."""

    rules: ClassVar[str] = "riichi"
    env_name: ClassVar[str] = "riichi_v0"
    actions: ClassVar[ActionSpace] = RIICHI_ACTIONS
    encoder_tag: ClassVar[str] = _ENCODER.tag
    plane_shape: ClassVar[tuple[int, int]] = (_ENCODER.shape[0], _ENCODER.shape[1])
    tracker: ClassVar[Any] = RoundTracker
    encoder: ClassVar[Any] = _ENCODER
    table_fields: ClassVar[tuple[str, ...]] = (
        *SCORES_AND_WALL,
        "round_wind",
        "kyoku",
        "honba",
        "deposits",
        "seat_wind",
        "rank",
        "drawn_tile",
        "offered_tile",
    )

    def _observation(self, rnd: Any, seat: int) -> RiichiObservation:
        return RiichiObservation(rnd, seat)

    def _table(self, seat: int, drawn: int | None, offered: int | None) -> list[int]:
        v = self._tracker.view(seat, with_history=False)
        return [
            *v.scores,
            v.wall_remaining,
            v.bakaze,
            v.kyoku,
            v.honba,
            v.kyotaku,
            v.seat_wind,
            v.rank,
            tile_or_minus(drawn),
            tile_or_minus(offered),
        ]

    def header(self, obs: Any) -> str:
        dora = T.to_compact(obs.dora_markers, sort=False) or "-"
        return (
            f"{WINDS[obs.bakaze]}{obs.kyoku + 1} · honba {obs.honba} · deposits {obs.kyotaku}"
            f" · wall {obs.wall_remaining} · dora indicators {dora}"
        )

    def seat_tags(self, obs: Any, seat: int) -> str:
        return seat_wind(obs, seat) + (" riichi" if obs.riichi[seat] else "")

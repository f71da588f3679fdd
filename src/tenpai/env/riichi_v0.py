"""``riichi_v0``: four-player Riichi as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.RIICHI_ACTIONS` (299 ids); observation planes:
``gao86@1`` (87, 34) plus a 13-entry table vector.  Options: ``preset`` (``tenhou``,
``mahjong_soul``), ``length`` (``tonpuu``, ``hanchan``), ``reward`` (``rank``, ``score``).
Every id and plane: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tenpai.env.actions import RIICHI_ACTIONS
from tenpai.env.adapters.riichi import RiichiAdapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode, wrapped

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS: Final = RIICHI_ACTIONS
ENCODER: Final = RiichiAdapter.encoder_tag


def raw_env(
    *,
    preset: str = "tenhou",
    length: str = "tonpuu",
    reward: RewardMode = "rank",
    placement_points: Sequence[float] = DEFAULT_PLACEMENT_POINTS,
    render_mode: str | None = None,
) -> MahjongAEC:
    """The unwrapped environment (see the module docstring for the options)."""
    adapter = RiichiAdapter({"preset": preset, "length": length})
    return MahjongAEC(
        adapter, render_mode=render_mode, reward=reward, placement_points=placement_points
    )


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard checks (action bounds, call order)."""
    return wrapped(raw_env(**kwargs))


#: The legal event with a given id (IllegalActionIdError if none), and an event's id.
action_to_event = ACTIONS.action_to_event
event_to_action = ACTIONS.event_to_action

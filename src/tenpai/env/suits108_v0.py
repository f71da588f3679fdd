"""``suits108_v0``: the 108-tile game of Ouyang & Zhou as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.SUITS108_ACTIONS` (229 ids, ``reach`` = the ready
declaration); observation planes: ``s108planes@1`` (17, 27) plus a 10-entry table vector.
Options: ``preset`` (``paper``, ``table_a1_literal``), ``reward`` (``rank``, ``score``).
Every id and plane: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pettingzoo.utils import wrappers

from tenpai.env.actions import SUITS108_ACTIONS
from tenpai.env.adapters.suits108 import Suits108Adapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode
from tenpai.events import Event

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS: Final = SUITS108_ACTIONS
ENCODER: Final = Suits108Adapter.encoder_tag


def raw_env(
    *,
    preset: str = "paper",
    reward: RewardMode = "rank",
    placement_points: Sequence[float] = DEFAULT_PLACEMENT_POINTS,
    render_mode: str | None = None,
) -> MahjongAEC:
    """The unwrapped environment (see the module docstring for the options)."""
    adapter = Suits108Adapter({"preset": preset})
    return MahjongAEC(
        adapter, render_mode=render_mode, reward=reward, placement_points=placement_points
    )


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard checks (action bounds, call order)."""
    e: Any = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def action_to_event(legal: Sequence[Event], action_id: int) -> Event:
    """The legal event with id ``action_id`` (IllegalActionIdError if none)."""
    return ACTIONS.action_to_event(legal, action_id)


def event_to_action(event: Event) -> int:
    """The id of a 108-tile game action event."""
    return ACTIONS.event_to_action(event)

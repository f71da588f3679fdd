"""``suits108_v0``: the 108-tile game of Ouyang & Zhou as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.SUITS108_ACTIONS` (229 ids, ``reach`` = the ready
declaration); observation planes: ``s108planes@1`` (17, 27) plus a 10-entry table vector.
Options: ``preset`` (``paper``, ``table_a1_literal``), ``reward`` (``rank``, ``score``).
Every id and plane: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tenpai.env.actions import SUITS108_ACTIONS
from tenpai.env.adapters.suits108 import Suits108Adapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode, wrapped

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
    return wrapped(raw_env(**kwargs))


#: The legal event with a given id (IllegalActionIdError if none), and an event's id.
action_to_event = ACTIONS.action_to_event
event_to_action = ACTIONS.event_to_action

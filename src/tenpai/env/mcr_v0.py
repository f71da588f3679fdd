"""``mcr_v0``: four-player MCR (Chinese Official) as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.MCR_ACTIONS` (270 ids); observation planes:
``mcr_stack002@1`` (19, 34) plus a 15-entry table vector.  Options: ``preset``
(``mcr_official``: a 16-hand game, ``botzone``: one hand), ``reward`` (``rank``, ``score``).
Flowers are set aside by the engine and never asked about.
Every id and plane: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tenpai.env.actions import MCR_ACTIONS
from tenpai.env.adapters.mcr import MCRAdapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode, wrapped

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS: Final = MCR_ACTIONS
ENCODER: Final = MCRAdapter.encoder_tag


def raw_env(
    *,
    preset: str = "mcr_official",
    reward: RewardMode = "rank",
    placement_points: Sequence[float] = DEFAULT_PLACEMENT_POINTS,
    render_mode: str | None = None,
) -> MahjongAEC:
    """The unwrapped environment (see the module docstring for the options)."""
    adapter = MCRAdapter({"preset": preset})
    return MahjongAEC(
        adapter, render_mode=render_mode, reward=reward, placement_points=placement_points
    )


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's standard checks (action bounds, call order)."""
    return wrapped(raw_env(**kwargs))


#: The legal event with a given id (IllegalActionIdError if none), and an event's id.
action_to_event = ACTIONS.action_to_event
event_to_action = ACTIONS.event_to_action

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

from pettingzoo.utils import wrappers

from tenpai.env.actions import MCR_ACTIONS
from tenpai.env.adapters.mcr import MCRAdapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode
from tenpai.events import Event

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
    e: Any = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def action_to_event(legal: Sequence[Event], action_id: int) -> Event:
    """The legal event with id ``action_id`` (IllegalActionIdError if none)."""
    return ACTIONS.action_to_event(legal, action_id)


def event_to_action(event: Event) -> int:
    """The id of an MCR action event."""
    return ACTIONS.event_to_action(event)

"""``riichi_v0``: four-player Riichi as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.RIICHI_ACTIONS` (299 ids); observation planes:
``gao86@1`` (87, 34) plus a 13-entry table vector.  Options: ``preset`` (``tenhou``,
``mahjong_soul``), ``length`` (``tonpuu``, ``hanchan``), ``reward`` (``rank``, ``score``).
Rule options and their defaults are the arena's; every id and plane: docs/env.md.
"""

from __future__ import annotations

from tenpai.env.adapters.riichi import RiichiAdapter
from tenpai.env.aec import env_module

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS, ENCODER, raw_env, env, action_to_event, event_to_action = env_module(RiichiAdapter)

"""``suits108_v0``: the 108-tile game of Ouyang & Zhou as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.SUITS108_ACTIONS` (229 ids, ``reach`` = the ready
declaration); observation planes: ``s108planes@1`` (17, 27) plus a 10-entry table vector.
Options: ``preset`` (``paper``, ``table_a1_literal``), ``reward`` (``rank``, ``score``).
Rule options and their defaults are the arena's; every id and plane: docs/env.md.
"""

from __future__ import annotations

from tenpai.env.adapters.suits108 import Suits108Adapter
from tenpai.env.aec import env_module

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS, ENCODER, raw_env, env, action_to_event, event_to_action = env_module(Suits108Adapter)

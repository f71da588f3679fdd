"""``mcr_v0``: four-player MCR (Chinese Official) as a PettingZoo AEC environment.

Actions: :data:`tenpai.env.actions.MCR_ACTIONS` (270 ids); observation planes:
``mcr_stack002@1`` (19, 34) plus a 15-entry table vector.  Options: ``preset``
(``mcr_official``: a 16-hand game, ``botzone``: one hand), ``reward`` (``rank``, ``score``).
Flowers are set aside by the engine and never asked about.
Rule options and their defaults are the arena's; every id and plane: docs/env.md.
"""

from __future__ import annotations

from tenpai.env.adapters.mcr import MCRAdapter
from tenpai.env.aec import env_module

__all__ = ["ACTIONS", "ENCODER", "action_to_event", "env", "event_to_action", "raw_env"]

ACTIONS, ENCODER, raw_env, env, action_to_event, event_to_action = env_module(MCRAdapter)

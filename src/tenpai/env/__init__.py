"""Reinforcement-learning environments: thin adapters over the rule sets' game flows.

PettingZoo AEC environments follow PettingZoo's module convention, one versioned module per
rule set::

    from tenpai.env import riichi_v0, mcr_v0, suits108_v0
    env = riichi_v0.env(render_mode="ansi")

and :class:`tenpai.env.single.SingleSeatEnv` is a Gymnasium environment with one learning seat
and built-in agents in the others.  Action ids: :mod:`tenpai.env.actions`; observations and
rewards: docs/env.md.  Nothing here holds game logic: the environments drive
``GameFlow.pending()`` / ``step()`` and translate.

The environment modules need the ``rl`` extra (pettingzoo, gymnasium) but never torch; this
package itself imports nothing heavy, so ``tenpai.env.actions`` works with numpy alone.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ENV_IDS"]

#: The environment modules under :mod:`tenpai.env`, by rules name.
ENV_IDS: Final = {"riichi": "riichi_v0", "mcr": "mcr_v0", "suits108": "suits108_v0"}

"""MCR game flow on the shared table: presets, walls, the hand state machine, observations.

:class:`~tenpai.rules.mcr.flow.round.MCRRound` subclasses the engine's
:class:`~tenpai.engine.table.TableRound`; :class:`tenpai.rules.mcr.game.MCRGame` strings hands
into a game.  Presets: ``mcr_official`` (144 tiles, flowers, 16 hands, seat changes) and
``botzone`` (the contest variant of the Botzone records: 136 tiles, one hand, per-seat walls).
"""

from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, PRESETS, MCRRules

__all__ = ["BOTZONE", "MCR_OFFICIAL", "PRESETS", "MCRRules"]

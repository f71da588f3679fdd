"""The table shared by every rule set: walls, melds, decisions, claim priorities, the game loop.

Rule sets (``tenpai.rules.*``) implement the :class:`~tenpai.engine.flow.GameFlow` protocol on
top of these pieces; agents only ever see :class:`~tenpai.engine.flow.Decision` objects.
"""

from tenpai.engine.agent import Agent, RandomAgent
from tenpai.engine.flow import Decision, GameFlow, IllegalActionError
from tenpai.engine.meld import Meld
from tenpai.engine.runner import play
from tenpai.engine.wall import seeded_shuffle, standard_tileset

__all__ = [
    "Agent",
    "Decision",
    "GameFlow",
    "IllegalActionError",
    "Meld",
    "RandomAgent",
    "play",
    "seeded_shuffle",
    "standard_tileset",
]

"""The 108-tile rule set of Ouyang & Zhou (Electronics 2023, 12, 2453, Appendix A).

Characters, dots and bamboo only (no honours), 13-tile hands, chow from the previous player,
pong, open / closed / added kong with replacement draws, Hu, and the ready-hand declaration of
Definition 1 that locks a hand for a bonus.  Wins are scored by the combinations of Table A1
(normal, bump series, pure series, seven pairs) with multipliers that are a setting, because
the table arrived garbled: ``docs/suits108.md`` states every reading made.

``make_game(seed, names)`` is the factory the arena registers under the rules name
``"suits108"``; ``Suits108Game`` is the :class:`~tenpai.engine.flow.GameFlow` it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tenpai.events import Event
from tenpai.rules.suits108.combinations import (
    BumpSeries,
    NormalHand,
    NotAWinError,
    PureSeries,
    ReadyDeclared,
    SevenPairs,
    WinCombination,
    WinningHand,
    WinValue,
    evaluate,
)
from tenpai.rules.suits108.game import Suits108Game, seeded_wall
from tenpai.rules.suits108.ruleset import (
    PAPER,
    PRESETS,
    TABLE_A1_LITERAL,
    Multipliers,
    RulesError,
    Suits108Rules,
    preset,
)
from tenpai.rules.suits108.settlement import win_payments
from tenpai.rules.suits108.wall import TILESET, Suits108Wall

__all__ = [
    "ARENA_DEFAULTS",
    "PAPER",
    "PRESETS",
    "TABLE_A1_LITERAL",
    "TILESET",
    "BumpSeries",
    "Multipliers",
    "NormalHand",
    "NotAWinError",
    "PureSeries",
    "ReadyDeclared",
    "RulesError",
    "SevenPairs",
    "Suits108Game",
    "Suits108Rules",
    "Suits108Wall",
    "WinCombination",
    "WinValue",
    "WinningHand",
    "evaluate",
    "make_game",
    "preset",
    "seeded_wall",
    "win_multiplier",
    "win_payments",
]

#: The string options ``make_game`` understands, with their defaults (for the arena registry).
ARENA_DEFAULTS: Mapping[str, str] = {"preset": "paper"}


def make_game(
    seed: int, names: Sequence[str], options: Mapping[str, str] | None = None
) -> Suits108Game:
    """A fresh seeded game for the arena: ``options`` may name a ``preset`` (default paper)."""
    opts = dict(ARENA_DEFAULTS)
    if options:
        unknown = sorted(set(options) - set(ARENA_DEFAULTS))
        if unknown:
            raise RulesError(f"suits108 takes no option {', '.join(unknown)}; known: preset")
        opts.update(options)
    try:
        rules = preset(opts["preset"])
    except KeyError as err:
        raise RulesError(str(err.args[0])) from None
    return Suits108Game(rules, seed=seed, names=names)


def win_multiplier(hora: Event) -> int:
    """The total multiplier of a ``hora`` event (the product of its combinations)."""
    if hora.type != "hora":
        raise ValueError(f"win_multiplier takes a hora event, got {hora.type}")
    total = 1
    for _, factor in hora.yaku:
        total *= factor
    return total

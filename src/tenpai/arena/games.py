"""Game factories by rules name: how the arena creates one seeded game of a rule set.

The arena never imports a rule set directly; it asks this registry for a factory, so the MCR and
108-tile flows plug in by registering one function each (``register_rules("mcr", …)``).  The
built-in rule sets are known by name and each is imported on first use, so a Riichi run never
loads the MCR or 108-tile packages (nor their presets, which the options are checked against).  A
factory receives the deal's wall seed, the seat names and the run's string options and returns
an object following :class:`tenpai.engine.GameFlow`; the same seed must give the same walls for
the n-th hand whatever the agents do, which is what makes duplicate deals work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tenpai.engine.flow import GameFlow

__all__ = [
    "BUILTIN_RULES",
    "GAME_FACTORIES",
    "ArenaConfigError",
    "GameFactory",
    "RulesEntry",
    "all_rules_entries",
    "known_rules",
    "make_game",
    "register_rules",
    "rules_entry",
]


class ArenaConfigError(ValueError):
    """A tournament setting the arena cannot use; the message names the setting."""


GameFactory = Callable[[int, Sequence[str], Mapping[str, str]], GameFlow]


@dataclass(frozen=True, slots=True)
class RulesEntry:
    """One rule set as the arena sees it: a factory, its options with defaults, and the seats."""

    name: str
    factory: GameFactory
    defaults: Mapping[str, str]
    choices: Mapping[str, tuple[str, ...]]
    seats: int = 4
    #: The seat count when options decide it (a Riichi preset for three players).
    seats_for: Callable[[Mapping[str, str]], int] | None = None

    def seat_count(self, options: Mapping[str, str]) -> int:
        """How many seats a game with these (complete) options has."""
        return self.seats if self.seats_for is None else self.seats_for(options)

    def options(self, given: Mapping[str, str]) -> dict[str, str]:
        """The complete options: defaults overridden by ``given``, each value checked."""
        unknown = sorted(set(given) - set(self.defaults))
        if unknown:
            raise ArenaConfigError(
                f"rules {self.name!r} take no option {', '.join(unknown)}; "
                f"known: {', '.join(sorted(self.defaults)) or 'none'}"
            )
        out = {**self.defaults, **given}
        for key, value in out.items():
            allowed = self.choices.get(key)
            if allowed is not None and value not in allowed:
                raise ArenaConfigError(
                    f"option {key}={value!r} for rules {self.name!r}; choose {', '.join(allowed)}"
                )
        return out


#: The rule sets in use so far: the built-in ones once first asked for, and any registered.
GAME_FACTORIES: dict[str, RulesEntry] = {}


def register_rules(entry: RulesEntry) -> None:
    """Add (or replace) a rule set the arena can play."""
    GAME_FACTORIES[entry.name] = entry


def known_rules() -> list[str]:
    """Every rule set name the arena can play (built-in ones first), importing none of them."""
    return [*BUILTIN_RULES, *(name for name in GAME_FACTORIES if name not in BUILTIN_RULES)]


def rules_entry(name: str) -> RulesEntry:
    """The rule set ``name`` (a built-in one imported now); an unknown name lists the known."""
    entry = GAME_FACTORIES.get(name)
    if entry is not None:
        return entry
    build = BUILTIN_RULES.get(name)
    if build is None:
        known = ", ".join(sorted(known_rules()))
        raise ArenaConfigError(f"unknown rules {name!r}; the arena knows: {known}")
    entry = build()
    GAME_FACTORIES[name] = entry
    return entry


def all_rules_entries() -> dict[str, RulesEntry]:
    """Every rule set by name, all imported (for a listing such as the web app's)."""
    return {name: rules_entry(name) for name in known_rules()}


def make_game(rules: str, seed: int, names: Sequence[str], options: Mapping[str, str]) -> GameFlow:
    """A fresh game of ``rules`` with the deal seed ``seed``."""
    entry = rules_entry(rules)
    return entry.factory(seed, names, entry.options(options))


def _riichi(seed: int, names: Sequence[str], options: Mapping[str, str]) -> GameFlow:
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import preset

    rules = preset(options["preset"]).with_(length=options["length"])
    return RiichiGame(rules, seed=seed, names=names)


def _riichi_presets() -> tuple[str, ...]:
    from tenpai.rules.riichi.ruleset import PRESETS

    return tuple(sorted(PRESETS))


def _riichi_seats(options: Mapping[str, str]) -> int:
    from tenpai.rules.riichi.ruleset import preset

    return preset(options["preset"]).players


def _riichi_entry() -> RulesEntry:
    return RulesEntry(
        name="riichi",
        factory=_riichi,
        defaults={"length": "tonpuu", "preset": "tenhou"},
        choices={"length": ("tonpuu", "hanchan"), "preset": _riichi_presets()},
        seats_for=_riichi_seats,  # tenhou_sanma: three seats
    )


def _mcr(seed: int, names: Sequence[str], options: Mapping[str, str]) -> GameFlow:
    from tenpai.rules.mcr.flow.rules import PRESETS
    from tenpai.rules.mcr.game import MCRGame

    return MCRGame(PRESETS[options["preset"]], seed=seed, names=names)


def _mcr_presets() -> tuple[str, ...]:
    from tenpai.rules.mcr.flow.rules import PRESETS

    return tuple(sorted(PRESETS))


def _mcr_entry() -> RulesEntry:
    return RulesEntry(
        name="mcr",
        factory=_mcr,
        defaults={"preset": "mcr_official"},
        choices={"preset": _mcr_presets()},
    )


def _suits108(seed: int, names: Sequence[str], options: Mapping[str, str]) -> GameFlow:
    from tenpai.rules.suits108 import make_game as make_suits108_game

    return make_suits108_game(seed, names, options)


def _suits108_entry() -> RulesEntry:
    from tenpai.rules.suits108 import ARENA_DEFAULTS, PRESETS

    return RulesEntry(
        name="suits108",
        factory=_suits108,
        defaults=dict(ARENA_DEFAULTS),
        choices={"preset": tuple(sorted(PRESETS))},
    )


#: The built-in rule sets: name -> the function that imports the rule set and describes it.
BUILTIN_RULES: dict[str, Callable[[], RulesEntry]] = {
    "riichi": _riichi_entry,
    "mcr": _mcr_entry,
    "suits108": _suits108_entry,
}

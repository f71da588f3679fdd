"""The shape of a learning registry entry: what one rule set tells the shared pipeline.

:class:`LearningRules` is the entry, :class:`SplitRule` its split and :class:`Decision` what
its decision extraction yields.  Each rule set's module (:mod:`tenpai.learn.riichi`,
:mod:`tenpai.learn.mcr.records`, :mod:`tenpai.learn.suits108.records`) builds its entry from
these types, and the registry (:mod:`tenpai.learn.rulesets`) finds them through the static table
:mod:`tenpai.learn.ruleset_table`, so the types sit one level below both and import neither.

:func:`entry_of` imports one entry's module by its name in that table, on demand; an unknown
encoder's message names the rule set that does know it (:func:`owner_of`) by reading the
entries the same table lists, so no entry has to remember itself anywhere when it is made.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tenpai.learn.ruleset_table import ENTRY_TARGETS

if TYPE_CHECKING:
    from tenpai.engine.agent import Agent
    from tenpai.events import Event
    from tenpai.learn.encoders.base import Encoder
    from tenpai.records.game import Game

__all__ = [
    "Decision",
    "LearningRules",
    "RecordOptions",
    "SplitRule",
    "UnknownRulesError",
    "entry_of",
    "owner_of",
]


class UnknownRulesError(ValueError):
    """A rule set or encoder name the registry does not know; the message lists the known."""


class Decision(Protocol):
    """What every rule set's decision extraction yields (a dataset row before encoding)."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def view(self) -> Any: ...
    @property
    def label(self) -> int: ...
    @property
    def legal(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class SplitRule:
    """A fixed split by game id: ``int(sha256(id)[:8], 16) % modulus`` against two bounds.

    Buckets below ``train_below`` are train, below ``dev_below`` dev, the rest test.  The split
    follows the id, never a position in a folder, so a game keeps its split whichever subset is
    built.
    """

    modulus: int
    train_below: int
    dev_below: int

    def __call__(self, game_id: str) -> str:
        bucket = int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) % self.modulus
        if bucket < self.train_below:
            return "train"
        return "dev" if bucket < self.dev_below else "test"

    @property
    def text(self) -> str:
        """The rule in words, recorded in manifests and model cards."""
        m, t, d = self.modulus, self.train_below, self.dev_below
        train, dev, test = _span(0, t - 1), _span(t, d - 1), _span(d, m - 1)
        return f"sha256(game_id)[:8] as int % {m}: {train} train, {dev} dev, {test} test"


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


class RecordOptions(Protocol):
    """What an entry's ``keep`` and ``replay`` read of the build options.

    :class:`tenpai.learn.dataset.BuildOptions` is the one the builder passes; naming only these
    here keeps the entries below the builder, which finds them through the registry.
    """

    @property
    def players(self) -> int: ...
    @property
    def rooms(self) -> tuple[str, ...] | None: ...
    @property
    def preset(self) -> str: ...


@dataclass(frozen=True, slots=True)
class LearningRules:
    """Everything the shared pipeline needs to know about one rule set.

    ``classes`` gives each decision kind's number of output classes (its head's width) and
    ``class_names`` the meaning of a call head's classes (printed under a confusion matrix).
    ``filters`` names the :class:`~tenpai.learn.dataset.BuildOptions` filters that mean
    something for these records (``rooms``, ``max_loss``, ``players``); the CLI refuses the
    others rather than ignoring them.  ``train_defaults`` are :class:`~tenpai.train.sl.TrainConfig`
    values used when the command line leaves them out (``max_minutes`` may be a per-kind
    mapping); ``arch_config`` turns ``(arch, input shape, classes, kind)`` into a model config.
    ``write_records(out, games, agents, seed, make_agent)`` is set for rule sets whose records
    our engine plays itself (``tenpai dataset record``, which passes the agent registry's
    ``make_agent``); it returns the files written.
    """

    name: str
    kinds: tuple[str, ...]
    classes: Mapping[str, int]
    class_names: Mapping[str, str]
    encoders: Mapping[str, str]
    default_encoder: str
    split: SplitRule
    filters: frozenset[str]
    default_rooms: tuple[str, ...] | None
    default_max_loss: int | None
    accept_file: Callable[[Path], bool]
    keep: Callable[[Game, RecordOptions], str | None]
    game_id: Callable[[Game, str, int, int], str]
    replay: Callable[[Game, RecordOptions, str], list[Event] | None]
    decisions: Callable[[Sequence[Event], tuple[str, ...], int | None], Iterator[Decision]]
    arch_config: Callable[[str, Sequence[int], int, str], dict[str, Any]]
    train_defaults: Mapping[str, Any]
    default_model: str | None = None
    write_records: Callable[
        [Path, int, Sequence[str], int, Callable[[str, int], Agent]], list[Path]
    ] | None = None

    def get_encoder(self, name: str) -> Encoder:
        """The encoder ``name`` (optionally ``name@version``, which must match) of this rule set."""
        base_name, _, version = name.partition("@")
        module_name = self.encoders.get(base_name)
        if module_name is None:
            owner = owner_of(base_name)
            hint = ""
            if owner is not None:
                hint = f" ({base_name} is a {owner.name} encoder; use --rules {owner.name})"
            raise UnknownRulesError(
                f"unknown {self.name} encoder {name!r}{hint}; known: {', '.join(self.encoders)}"
            )
        enc: Encoder = importlib.import_module(module_name).ENCODER
        if version and int(version) != enc.version:
            raise UnknownRulesError(
                f"encoder {base_name} is at version {enc.version}, but version {version} was "
                "asked for"
            )
        return enc

    def check_kinds(self, kinds: Iterable[str]) -> None:
        """Raise UnknownRulesError naming any kind these rules do not have."""
        unknown = [k for k in kinds if k not in self.classes]
        if unknown:
            raise UnknownRulesError(
                f"unknown {self.name} decision kind {unknown[0]!r}; known: {', '.join(self.kinds)}"
            )


def entry_of(name: str) -> LearningRules:
    """The entry of rule set ``name``, its module imported now (once: Python keeps it);
    UnknownRulesError lists the known names."""
    target = ENTRY_TARGETS.get(name)
    if target is None:
        raise UnknownRulesError(f"unknown rules {name!r}; known: {', '.join(ENTRY_TARGETS)}")
    module, _, attribute = target.partition(":")
    entry = getattr(importlib.import_module(module), attribute)
    if not isinstance(entry, LearningRules) or entry.name != name:
        raise TypeError(f"{target} is not the {name!r} LearningRules entry")
    return entry


def owner_of(encoder: str) -> LearningRules | None:
    """The entry whose encoders include ``encoder`` (a name or ``name@version`` tag): the first
    in the table's order, each entry's module imported as it is read."""
    base_name = encoder.partition("@")[0]
    for name in ENTRY_TARGETS:
        entry = entry_of(name)
        if base_name in entry.encoders:
            return entry
    return None

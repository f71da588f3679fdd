"""The rule sets the learning layer knows, each plugged in as one :class:`LearningRules` entry.

Dataset building, training and agreement are written once (:mod:`tenpai.learn.dataset`,
:mod:`tenpai.train.sl`, :mod:`tenpai.learn.evaluate`); what differs between Riichi, MCR and the
108-tile rules is only *which* records are read, how a game is replayed and named, which
decisions it holds and which encoders read them.  An entry bundles exactly those answers, so a
new rule set is a new entry here, never a new pipeline.

The hooks are small functions in the rule set's own module (:mod:`tenpai.learn.riichi`,
:mod:`tenpai.learn.mcr.records`, :mod:`tenpai.learn.suits108.records`); everything heavy
(the engines, the replays) is imported inside them, so importing this module stays cheap.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from tenpai.learn.encoders.base import Encoder

if TYPE_CHECKING:
    from tenpai.engine.agent import Agent
    from tenpai.events import Event
    from tenpai.learn.dataset import BuildOptions
    from tenpai.records.game import Game

__all__ = [
    "RULE_NAMES",
    "Decision",
    "LearningRules",
    "SplitRule",
    "UnknownRulesError",
    "all_rules",
    "get_rules",
    "rules_of_encoder",
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
    keep: Callable[[Game, BuildOptions], str | None]
    game_id: Callable[[Game, str, int, int], str]
    replay: Callable[[Game, BuildOptions, str], list[Event] | None]
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
            owner = _owner_of(base_name)
            hint = f" ({base_name} is a {owner} encoder; use --rules {owner})" if owner else ""
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


def _owner_of(encoder: str) -> str | None:
    for r in all_rules().values():
        if encoder.partition("@")[0] in r.encoders:
            return r.name
    return None


def _entries() -> dict[str, LearningRules]:
    from tenpai.learn import riichi
    from tenpai.learn.mcr import records as mcr
    from tenpai.learn.suits108 import records as suits108

    return {r.name: r for r in (riichi.RULES, mcr.RULES, suits108.RULES)}


#: Every rule set's name, in the order the CLI lists them.
RULE_NAMES: Final = ("riichi", "mcr", "suits108")
_REGISTRY: dict[str, LearningRules] = {}


def all_rules() -> dict[str, LearningRules]:
    """Every entry by name (built on first use: the entries import this module)."""
    if not _REGISTRY:
        _REGISTRY.update(_entries())
    return _REGISTRY


def get_rules(name: str) -> LearningRules:
    """The entry of ``name``; UnknownRulesError lists the known names."""
    try:
        return all_rules()[name]
    except KeyError:
        raise UnknownRulesError(
            f"unknown rules {name!r}; known: {', '.join(RULE_NAMES)}"
        ) from None


def rules_of_encoder(tag: str) -> LearningRules | None:
    """The rule set an encoder name or tag (``gao68``, ``mcr_stack002@1``) belongs to."""
    owner = _owner_of(tag)
    return None if owner is None else all_rules()[owner]

"""The rule sets the search plays, each as one :class:`SearchRules` entry.

Seed 000 was written for the 108-tile game; the same networks, search, training loop and
dropout learning run on Riichi once a rule set says what differs: its action ids and their
transition types (:class:`~tenpai.mcts.actions.ActionTables`), its perfect-information input
planes and the hidden ones among them, the public safety planes of the normal agent, the
engine options of its self-play games, and the exact result of a legal win at the root.
Everything else in :mod:`tenpai.mcts` reads these from the model's card, so a model can only
ever meet tables of its own rule set.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from tenpai.events import Event
from tenpai.mcts.actions import POSITIONS, RIICHI, STATES, SUITS108, ActionTables

__all__ = ["RULE_SETS", "SearchRules", "search_rules"]

#: Rule sets with a search encoding, in the order the CLI lists them.
RULE_SETS: Final = ("suits108", "riichi")

Encode = Callable[..., np.ndarray]


@dataclass(frozen=True, eq=False)
class SearchRules:
    """What the search needs to know about one rule set."""

    name: str
    encoder: str
    tables: ActionTables
    planes: int
    safety_planes: int
    #: Planes a player at the table cannot see (others' hands, the wall): zeroed for the
    #: normal agent and multiplied by the Bernoulli matrix λ in dropout learning.
    hidden_planes: tuple[int, ...]
    #: The last plane is the live wall's size over this; :func:`tenpai.mcts.packed_planes.pack`
    #: stores it × this as uint8.
    wall_scale: float
    #: Engine options of self-play, gate and rating games.
    options: Mapping[str, str]
    #: ``(table, seat, access, rng) → (planes, kinds)`` float32 (perfect information).
    encode: Encode
    #: ``(table, seat) → (safety_planes, kinds)`` uint8 public safety planes.
    safety: Callable[[Any, int], np.ndarray]
    #: ``(table, seat, legal ids) → {win id: sign of each player's point change}``.
    win_rewards: Callable[[Any, int, dict[int, Event]], dict[int, np.ndarray]]
    #: Whether an engine table belongs to this rule set.
    is_table: Callable[[Any], bool]

    @property
    def kinds(self) -> int:
        return self.tables.kinds

    @property
    def transition_planes(self) -> int:
        """Table 2's rows: the tile, one per action type, the position change, the state."""
        return 1 + self.tables.types + POSITIONS + STATES

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by name (agents travel to self-play workers and Ray actors; the entry holds
        functions that are looked up again there)."""
        return search_rules, (self.name,)

    def check_table(self, table: Any, agent: str) -> Any:
        """``table`` itself, or a clear error when ``agent`` (a search model of this rule set)
        meets another game.  A hand on the compiled Riichi table gives its Python round (what
        the features and the simulator read), built on demand."""
        from tenpai.rules.riichi.compiled_round import python_table

        table = python_table(table)
        if table is None or not self.is_table(table):
            raise ValueError(
                f"agent {agent!r} has a {self.name} model and plays the {self.name} rules only "
                f"(got {type(table).__name__})"
            )
        return table


def search_rules(name: str) -> SearchRules:
    """The entry of rule set ``name``; ValueError naming the known ones otherwise."""
    if name not in RULE_SETS:
        raise ValueError(f"the search has no rule set {name!r}; known: {', '.join(RULE_SETS)}")
    return _suits108_rules() if name == "suits108" else _riichi_rules()


def _suits108_wins(table: Any, seat: int, ids: dict[int, Event]) -> dict[int, np.ndarray]:
    from tenpai.rules.suits108.settlement import win_payments

    out: dict[int, np.ndarray] = {}
    for i, e in ids.items():
        if e.type != "hora" or e.pai is None:
            continue
        tsumo = e.target == seat
        value = table.value_of(seat, None if tsumo else e.pai)
        deltas = win_payments(seat, None if tsumo else e.target, value.points, table.rules)
        out[i] = np.sign([deltas[(seat + j) % 4] for j in range(4)]).astype(np.float64)
    return out


def _riichi_wins(table: Any, seat: int, ids: dict[int, Event]) -> dict[int, np.ndarray]:
    """Riichi's signs need no scoring: the winner gains; on a self-draw the other three pay,
    on a discard only the discarder does (sticks and honba go to the winner too)."""
    out: dict[int, np.ndarray] = {}
    for i, e in ids.items():
        if e.type != "hora":
            continue
        tsumo = e.target is None or e.target == seat
        signs = np.full(4, -1.0) if tsumo else np.zeros(4)
        if not tsumo:
            signs[(int(e.target) - seat) % 4] = -1.0  # type: ignore[arg-type]
        signs[0] = 1.0
        out[i] = signs
    return out


@functools.cache
def _suits108_rules() -> SearchRules:
    from tenpai.mcts import features as f

    return SearchRules(
        name="suits108", encoder=f.ENCODER, tables=SUITS108, planes=f.PLANES,
        safety_planes=f.SAFETY_PLANES, hidden_planes=f.HIDDEN_PLANES, wall_scale=56.0,
        options={}, encode=f.encode_table, safety=f.safety_planes, win_rewards=_suits108_wins,
        is_table=lambda t: hasattr(t, "wall") and hasattr(t, "declared"),
    )


@functools.cache
def _riichi_rules() -> SearchRules:
    from tenpai.mcts import features_riichi as f

    return SearchRules(
        name="riichi", encoder=f.ENCODER, tables=RIICHI, planes=f.PLANES,
        safety_planes=f.SAFETY_PLANES, hidden_planes=f.HIDDEN_PLANES, wall_scale=f.WALL_SCALE,
        options={"preset": "tenhou", "length": "tonpuu"}, encode=f.encode_riichi,
        safety=f.safety_planes_riichi, win_rewards=_riichi_wins,
        is_table=lambda t: hasattr(t, "dora_markers") and hasattr(t, "bakaze"),
    )

"""What every encoder offers, and the channel builders Gao's plane encoders share.

An encoder turns a :class:`~tenpai.learn.state.SeatView` into a small ``uint8`` array.  Plane
encoders return shape ``(C, 34)``: one *count row* per channel, each entry 0-4.  Gao's planes
are 34×4 binary matrices, and every one of them is a count row in disguise — a tile count
fills that many cells from the left, a marked row (red five, wind) is a row of four, a 0/1
plane is four in every row — so storing rows keeps shards four times smaller and the model
expands them (``tenpai.models.planes.expand``).  Vector encoders return shape ``(D,)``.

Encoders are *frozen*: once a model has been trained on one, its output for a given view must
never change.  A change means a new module (or a new ``VERSION``), and the golden test in
``tests/learn/test_encoders.py`` pins each encoder's output on a fixed game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np

from tenpai.learn.state import SeatView

__all__ = [
    "FULL",
    "Encoder",
    "fill_offered",
    "fill_past",
    "fill_present",
    "fill_rank_and_round",
    "gao_planes",
]

#: A full row / full plane value (four cells set).
FULL: Final = 4
_WIND_BASE: Final = 27
_RED_KINDS: Final = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class Encoder:
    """A named, versioned view → array function with its output shape and channel names.

    Shared by every rule set: the view is whatever that rule set's tracker produces (a
    :class:`~tenpai.learn.state.SeatView` for Riichi and the 108-tile rules, an
    :class:`~tenpai.learn.mcr.state.MCRView` for MCR).
    """

    name: str
    version: int
    layout: Literal["planes", "vector"]
    shape: tuple[int, ...]
    channels: tuple[str, ...]
    fill: Callable[[Any, np.ndarray], None]

    def encode(self, view: Any) -> np.ndarray:
        out = np.zeros(self.shape, dtype=np.uint8)
        self.fill(view, out)
        return out

    def encode_batch(self, views: list[Any]) -> np.ndarray:
        out = np.zeros((len(views), *self.shape), dtype=np.uint8)
        for i, v in enumerate(views):
            self.fill(v, out[i])
        return out

    @property
    def tag(self) -> str:
        """``name@version``, written into manifests and model cards."""
        return f"{self.name}@{self.version}"


def fill_present(view: SeatView, out: np.ndarray) -> int:
    """Table 4.1's first 14 planes (hand, aka, rivers, melds, dora, others' riichi).

    Returns the next free channel.
    """
    out[0] = view.hand
    for i, n in enumerate(view.red):
        if n:
            out[1, _RED_KINDS[i]] = FULL
    for rel in range(4):
        out[2 + rel] = view.rivers[rel]
        out[6 + rel] = view.melds[rel]
    out[10] = view.dora
    for rel in range(1, 4):
        if view.riichi[rel]:
            out[10 + rel] = FULL
    return 14


def fill_winds(view: SeatView, out: np.ndarray, at: int) -> int:
    """Round wind and own wind, each a marked row (Table 4.1)."""
    out[at, _WIND_BASE + view.bakaze] = FULL
    out[at + 1, _WIND_BASE + view.seat_wind] = FULL
    return at + 2


def fill_rank_and_round(view: SeatView, out: np.ndarray, at: int) -> int:
    """Table 6.1's rank (4 one-hot 0/1 planes) and kyoku (8 one-hot 0/1 planes)."""
    out[at + view.rank] = FULL
    out[at + 4 + view.round_index] = FULL
    return at + 12


def fill_past(view: SeatView, out: np.ndarray, at: int, depth: int, full: bool) -> int:
    """One past situation: hand, 4 rivers, 4 melds (9 planes), plus dora and 3 riichi if ``full``.

    ``depth`` 1 is the seat's previous turn; a situation older than the round stays all zero.
    """
    width = 13 if full else 9
    if depth <= len(view.history):
        past = view.history[depth - 1]
        out[at] = past.hand
        for rel in range(4):
            out[at + 1 + rel] = past.rivers[rel]
            out[at + 5 + rel] = past.melds[rel]
        if full:
            out[at + 9] = past.dora
            for rel in range(1, 4):
                if past.riichi[rel]:
                    out[at + 9 + rel] = FULL
    return at + width


def fill_offered(view: SeatView, out: np.ndarray, at: int) -> int:
    """tenpai's extension: the tile offered in a claim window as a marked row (else empty)."""
    if view.offered is not None:
        out[at, view.offered] = FULL
    return at + 1


def present_names() -> list[str]:
    return [
        "hand",
        "aka",
        *(f"river_{r}" for r in ("self", "right", "across", "left")),
        *(f"melds_{r}" for r in ("self", "right", "across", "left")),
        "dora_indicators",
        *(f"riichi_{r}" for r in ("right", "across", "left")),
    ]


def past_names(depth: int, full: bool) -> list[str]:
    names = [
        "hand",
        *(f"river_{r}" for r in ("self", "right", "across", "left")),
        *(f"melds_{r}" for r in ("self", "right", "across", "left")),
    ]
    if full:
        names += ["dora_indicators", "riichi_right", "riichi_across", "riichi_left"]
    return [f"past{depth}_{n}" for n in names]


def rank_round_names() -> list[str]:
    return [f"rank_{i}" for i in range(4)] + [f"round_{w}{k}" for w in "ES" for k in range(1, 5)]


def gao_planes(name: str, version: int, *, rank_and_round: bool, past_turns: int) -> Encoder:
    """One of Gao's plane encoders: the present situation, Table 6.1's rank and round planes
    when ``rank_and_round``, the two winds, the seat's ``past_turns`` previous turns (the first
    with its dora and riichi planes) and tenpai's offered tile.

    ``gao56``, ``gao68`` and ``gao86`` are this one recipe with other arguments (the thesis
    grows one table into the next), so the order of their channels is written once.
    """
    older = range(2, past_turns + 1)

    def fill(view: SeatView, out: np.ndarray) -> None:
        at = fill_present(view, out)
        if rank_and_round:
            at = fill_rank_and_round(view, out, at)
        at = fill_winds(view, out, at)
        at = fill_past(view, out, at, 1, full=True)
        for depth in older:
            at = fill_past(view, out, at, depth, full=False)
        fill_offered(view, out, at)

    channels = tuple(
        present_names()
        + (rank_round_names() if rank_and_round else [])
        + ["round_wind", "own_wind"]
        + past_names(1, True)
        + [n for d in older for n in past_names(d, False)]
        + ["offered"]
    )
    return Encoder(name, version, "planes", (len(channels), 34), channels, fill)

"""The 352-number vector of the MahjongGB FFN report (seed 003), applied to Riichi views.

Nine 34-count vectors — own hand, the four players' melds, the four players' discards — then
the number of chi, pon and kan calls of each player (4 × 3), then a one-hot of the tile being
claimed (the "last discard", all zero outside a claim window): 9·34 + 12 + 34 = 352.  Seats
are relative (self, right, across, left).  No history, winds or scores: the report found the
order of play mattered little, and this encoder exists to reproduce its baseline.  The MCR
encoder of the same report (``mcr_ffn352``) fills its vector with this module's :func:`fill`
and names its channels with :func:`channels`: one layout, two games' views.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np

from tenpai.learn.encoders import base

NAME: Final = "ffn352"
VERSION: Final = 1
SHAPE: Final = (352,)
_SEATS: Final = ("self", "right", "across", "left")


class CountsView(Protocol):
    """What the layout reads of a view (a Riichi :class:`SeatView` or an MCR ``MCRView``):
    34-count vectors and (chi, pon, kan) counts per relative seat, the claimed kind."""

    @property
    def hand(self) -> tuple[int, ...]: ...
    @property
    def melds(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def rivers(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def meld_types(self) -> tuple[tuple[int, int, int], ...]: ...
    @property
    def offered(self) -> int | None: ...


def fill(view: CountsView, out: np.ndarray) -> None:
    out[0:34] = view.hand
    for rel in range(4):
        out[34 * (1 + rel) : 34 * (2 + rel)] = view.melds[rel]
        out[34 * (5 + rel) : 34 * (6 + rel)] = view.rivers[rel]
        out[306 + 3 * rel : 309 + 3 * rel] = view.meld_types[rel]
    if view.offered is not None:
        out[318 + view.offered] = 1


def channels(calls: str) -> tuple[str, ...]:
    """The channel names, the three kinds of call named as the game names them."""
    return tuple(
        ["hand[34]"]
        + [f"melds_{s}[34]" for s in _SEATS]
        + [f"river_{s}[34]" for s in _SEATS]
        + [f"calls_{s}[{calls}]" for s in _SEATS]
        + ["offered_onehot[34]"]
    )


CHANNELS: Final = channels("chi,pon,kan")

ENCODER: Final = base.Encoder(NAME, VERSION, "vector", SHAPE, CHANNELS, fill)

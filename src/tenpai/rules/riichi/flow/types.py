"""Plain data passed between a Riichi round and its scorer."""

from __future__ import annotations

from dataclasses import dataclass, field

from tenpai.engine.meld import Meld

__all__ = ["WinOutcome", "WinRequest"]


@dataclass(frozen=True, slots=True)
class WinRequest:
    """Everything the scorer needs to value one win, as seen at the table."""

    seat: int
    target: int
    hand: tuple[int, ...]
    """Concealed tiles, the winning tile included (tile codes)."""
    melds: tuple[Meld, ...]
    win_tile: int
    tsumo: bool
    seat_wind: int
    round_wind: int
    dealer: int
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora_markers: tuple[int, ...] = ()
    ura_markers: tuple[int, ...] = ()
    honba: int = 0
    kyotaku: int = 0
    pao: int | None = None
    """Seat responsible (pao) for a big-three-dragons / big-four-winds win, if any."""
    nukidora: int = 0
    """Norths the winner has set aside (three players)."""


@dataclass(frozen=True, slots=True)
class WinOutcome:
    """The scorer's answer: the value of the win and who pays what."""

    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]
    points: int
    deltas: tuple[int, ...]
    yakuman: int = 0
    pao: int | None = field(kw_only=True)
    """The seat the win was paid under pao from (:func:`~tenpai.rules.riichi.payments.liable_seat`),
    ``None`` for an ordinary win; the ``hora`` event names it.  Required (keyword only, no
    default): a scorer plugged into the rounds that left it out would drop the liable seat
    from the event without a word."""

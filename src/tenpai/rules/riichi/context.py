"""What the scorer is told about a win: the hand, its melds and the situation.

``WinContext`` checks itself on construction, so a bad hand fails at the call site with a
message naming the field, never deep inside a yaku predicate.  Tiles are tile codes from
:mod:`tenpai.tiles` (red fives 34-36 allowed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from tenpai import tiles as T
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules

__all__ = ["EAST", "NORTH", "SOUTH", "WEST", "Meld", "MeldKind", "ScoringError", "WinContext"]

EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30

MeldKind = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]
_KAN_KINDS: Final = frozenset({"daiminkan", "kakan", "ankan"})


class ScoringError(ValueError):
    """A win context that cannot happen; the message names the offending field."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or declared set.

    ``tiles`` are the meld's tile codes (3 for chi/pon, 4 for kans, red fives kept);
    ``from_seat`` is the absolute seat the tile was claimed from (``None`` for an ankan, which
    keeps the hand closed, and allowed to be ``None`` when the caller does not track it).
    """

    kind: MeldKind
    tiles: tuple[int, ...]
    from_seat: int | None = None
    #: Lowest kind of the set (filled in on construction).
    base: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        kind = self.kind
        tiles = self.tiles
        if kind not in ("chi", "pon", "daiminkan", "kakan", "ankan"):
            raise ScoringError(f"Meld.kind {kind!r} is not chi/pon/daiminkan/kakan/ankan")
        want = 4 if kind in _KAN_KINDS else 3
        if len(tiles) != want:
            raise ScoringError(f"Meld.tiles of a {kind} needs {want} tiles, got {len(tiles)}")
        for t in tiles:
            if not 0 <= t < 37:
                raise ScoringError(f"Meld.tiles holds {t}, not a Riichi tile code (0-36)")
        kinds = sorted(T.kind_of(t) for t in tiles)
        if kind == "chi":
            k = kinds[0]
            if k >= 27 or k % 9 > 6 or kinds != [k, k + 1, k + 2]:
                raise ScoringError(f"Meld.tiles {T.to_compact(tiles)} is not a chi")
        elif kinds.count(kinds[0]) != want:
            raise ScoringError(f"Meld.tiles {T.to_compact(tiles)} is not a {kind}")
        if kind == "ankan" and self.from_seat is not None:
            raise ScoringError("Meld.from_seat must be None for an ankan")
        if self.from_seat is not None and not 0 <= self.from_seat <= 3:
            raise ScoringError(f"Meld.from_seat {self.from_seat} is not a seat 0-3")
        object.__setattr__(self, "base", kinds[0])

    @property
    def is_kan(self) -> bool:
        return self.kind in _KAN_KINDS

    @property
    def is_open(self) -> bool:
        """Every call but an ankan opens the hand."""
        return self.kind != "ankan"


@dataclass(frozen=True, slots=True)
class WinContext:
    """One win to score.

    ``closed`` are the concealed tiles *including* ``win_tile``; ``melds`` the called and
    declared sets.  Winds are kinds 27-30 (E S W N); the seat wind East means the dealer.
    ``double_riichi`` implies riichi (do not set both).  ``ura_indicators`` only count with
    riichi.  ``nukidora`` is the number of Norths the winner has set aside (three players with
    ``rules.nukidora``); each is a dora, and one more for every indicator showing North.  The
    situational flags are taken as given: the engine knows when they hold, and the checks here
    only refuse combinations that can never happen.
    """

    closed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    tsumo: bool = False
    seat_wind: int = EAST
    round_wind: int = EAST
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    rules: RiichiRules = TENHOU
    nukidora: int = 0

    def __post_init__(self) -> None:
        closed = self.closed
        melds = self.melds
        if len(melds) > 4:
            raise ScoringError(f"WinContext.melds has {len(melds)} melds; at most 4")
        if len(closed) + 3 * len(melds) != 14:
            raise ScoringError(
                f"WinContext.closed has {len(closed)} tiles; with {len(melds)} melds a win needs "
                f"{14 - 3 * len(melds)}"
            )
        for t in closed:
            if not 0 <= t < 37:
                raise ScoringError(f"WinContext.closed holds {t}, not a Riichi tile code (0-36)")
        if self.win_tile not in closed:
            shown = T.to_mjai(self.win_tile) if 0 <= self.win_tile < 45 else self.win_tile
            raise ScoringError(f"WinContext.win_tile {shown} is not among the closed tiles")
        counts = [0] * 34
        reds = [0, 0, 0]
        for t in closed:
            counts[T.kind_of(t)] += 1
            if t >= 34:
                reds[t - 34] += 1
        for m in melds:
            for t in m.tiles:
                counts[T.kind_of(t)] += 1
                if t >= 34:
                    reds[t - 34] += 1
        if self.nukidora:
            if not self.rules.nukidora:
                raise ScoringError("WinContext.nukidora needs three-player rules with nukidora")
            if not 0 <= self.nukidora <= 4:
                raise ScoringError(f"WinContext.nukidora {self.nukidora} is not 0-4")
            counts[NORTH] += self.nukidora
        for k, c in enumerate(counts):
            if c > 4:
                raise ScoringError(f"WinContext holds {c} copies of {T.to_mjai(k)}; at most 4")
        if self.rules.players == 3:
            gone = [k for k in range(1, 8) if counts[k]]
            if gone:
                raise ScoringError(
                    f"WinContext holds {T.to_mjai(gone[0])}, which three-player Riichi removes"
                )
            if NORTH in (self.seat_wind, self.round_wind):
                raise ScoringError("WinContext: three players have no North seat or round")
        if max(reds) > 1:
            raise ScoringError("WinContext holds the same red five twice")
        if self.rules.red_fives == 0 and any(reds):
            raise ScoringError("WinContext holds a red five but the rules play without them")
        for name in ("seat_wind", "round_wind"):
            w = getattr(self, name)
            if not EAST <= w <= NORTH:
                raise ScoringError(f"WinContext.{name} must be a wind kind 27-30, got {w}")
        for name in ("dora_indicators", "ura_indicators"):
            for t in getattr(self, name):
                if not 0 <= t < 37:
                    raise ScoringError(f"WinContext.{name} holds {t}, not a tile code (0-36)")
        self._check_situation()

    def _check_situation(self) -> None:
        opened = any(m.is_open for m in self.melds)
        tsumo = self.tsumo
        if (self.riichi or self.double_riichi) and opened:
            raise ScoringError("WinContext.riichi with an open meld")
        if self.riichi and self.double_riichi:
            raise ScoringError("WinContext.double_riichi already implies riichi; set one")
        if self.ippatsu and not (self.riichi or self.double_riichi):
            raise ScoringError("WinContext.ippatsu without riichi")
        if self.ippatsu and self.rinshan:
            raise ScoringError("WinContext.ippatsu with rinshan: a kan ends the ippatsu turn")
        if self.haitei and not tsumo:
            raise ScoringError("WinContext.haitei needs tsumo")
        if self.rinshan and not tsumo:
            raise ScoringError("WinContext.rinshan needs tsumo")
        if self.rinshan and not any(m.is_kan for m in self.melds) and not self.nukidora:
            raise ScoringError("WinContext.rinshan without a kan (or a North set aside)")
        if self.haitei and self.rinshan:
            raise ScoringError("WinContext.haitei with rinshan: a replacement tile is not haitei")
        if (self.houtei or self.chankan) and tsumo:
            raise ScoringError("WinContext.houtei/chankan need a ron")
        if self.houtei and self.chankan:
            raise ScoringError("WinContext.houtei with chankan")
        dealer = self.seat_wind == EAST
        if self.tenhou and not (dealer and tsumo and not self.melds):
            raise ScoringError("WinContext.tenhou needs the dealer, tsumo and no meld")
        if self.chiihou and (dealer or not tsumo or self.melds):
            raise ScoringError("WinContext.chiihou needs a non-dealer, tsumo and no meld")
        if self.renhou and (dealer or tsumo or self.melds):
            raise ScoringError("WinContext.renhou needs a non-dealer, ron and no meld")

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == EAST

    @property
    def is_closed(self) -> bool:
        """No open meld (an ankan keeps the hand closed)."""
        return not any(m.is_open for m in self.melds)

"""Points of a completed hand in the MDPs, by the Riichi scorer, memoised across decisions.

Hands in the search are kind counts; the scorer needs tiles, so the deciding player's red fives
are kept where the hand still holds a five of that suit.  A closed hand is scored once with
riichi and the dama value is derived (one han less, no win when riichi was its only yaku), so
one call serves both.  Situational yaku (ippatsu, haitei, rinshan) are left out; ura dora are
added as an expected value (``Settings.ura_han``) on riichi wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.rules.riichi.context import Meld, ScoringError, WinContext
from tenpai.rules.riichi.evaluate import evaluate
from tenpai.rules.riichi.ruleset import TENHOU
from tenpai.rules.riichi.scoring import base_points, payment_split

__all__ = ["HandContext", "win_points"]

_FIVES = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class HandContext:
    """What scoring needs besides the concealed hand: melds, winds, dora, red fives."""

    melds: tuple[tuple[str, tuple[int, ...]], ...]
    seat_wind: int
    round_wind: int
    dora_indicators: tuple[int, ...]
    red: tuple[bool, bool, bool]
    dealer: bool

    @property
    def closed(self) -> bool:
        return all(kind == "ankan" for kind, _ in self.melds)


_CACHE: dict[tuple[object, ...], tuple[int, int]] = {}


def _points(han: int, fu: int, yakuman: int, dealer: bool, tsumo: bool) -> int:
    base, _ = base_points(han, fu, yakuman, TENHOU)
    ron, from_dealer, from_other = payment_split(base, dealer, tsumo)
    if not tsumo:
        return ron
    return 3 * from_other if dealer else from_dealer + 2 * from_other


def win_points(counts14: bytes, win: int, tsumo: bool, ctx: HandContext,
               ura_han: float = 0.0) -> tuple[float, float]:
    """(dama points, riichi points) of a complete hand; 0 where that way has no yaku.

    Riichi points are 0 for an open hand.  ``counts14`` holds the concealed kinds with the
    winning tile included.
    """
    key = (counts14, win, tsumo, ctx)
    hit = _CACHE.get(key)
    if hit is None:
        hit = _score(counts14, win, tsumo, ctx)
        if len(_CACHE) > 500_000:
            _CACHE.clear()
        _CACHE[key] = hit
    dama_han, riichi_han = hit
    dama = 0.0
    riichi = 0.0
    if dama_han:
        dama = float(_decode(dama_han, ctx.dealer, tsumo))
    if riichi_han:
        lo = _decode(riichi_han, ctx.dealer, tsumo)
        hi = _decode(riichi_han + 1000, ctx.dealer, tsumo)  # one more han
        riichi = (1.0 - ura_han) * lo + ura_han * hi if ura_han <= 1 else float(hi)
    return dama, riichi


def _encode(han: int, fu: int, yakuman: int) -> int:
    return yakuman * 1_000_000 + han * 1000 + fu


def _decode(code: int, dealer: bool, tsumo: bool) -> int:
    yakuman, rest = divmod(code, 1_000_000)
    han, fu = divmod(rest, 1000)
    return _points(han, fu, yakuman, dealer, tsumo)


def _score(counts14: bytes, win: int, tsumo: bool, ctx: HandContext) -> tuple[int, int]:
    tiles: list[int] = []
    for k, c in enumerate(counts14):
        tiles.extend([k] * c)
    for s, five in enumerate(_FIVES):
        if ctx.red[s] and counts14[five] and not (win == five and counts14[five] == 1):
            tiles[tiles.index(five)] = T.red_of(five)
    melds = tuple(Meld(kind, tiles_)  # type: ignore[arg-type]
                  for kind, tiles_ in ctx.melds)
    closed = ctx.closed
    try:
        r = evaluate(WinContext(
            closed=tuple(tiles), win_tile=win, melds=melds, tsumo=tsumo,
            seat_wind=ctx.seat_wind, round_wind=ctx.round_wind, riichi=closed,
            dora_indicators=ctx.dora_indicators, rules=TENHOU,
        ))
    except ScoringError:
        return 0, 0
    if r is None:
        return 0, 0
    if r.yakuman:
        code = _encode(r.han, r.fu, r.yakuman)
        return code, (code if closed else 0)
    if not closed:
        return _encode(r.han, r.fu, 0), 0
    real = [n for n, _ in r.yaku if n not in ("riichi", "dora", "aka_dora", "ura_dora")]
    dama = _encode(r.han - 1, r.fu, 0) if real else 0
    return dama, _encode(r.han, r.fu, 0)

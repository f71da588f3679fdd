"""``evaluate``: score a win by its best reading.

Every reading of the hand (see :mod:`tenpai.rules.riichi.reading`) is scored and the best one is
kept, ordered by points, then a real yakuman over a counted one, then han, then fu, as Tenhou
does.  Yaku that only depend on the situation or on the tiles are tested once per hand; the
rest once per reading.  Dora count only when the hand has a yaku, and never with a yakuman.

``evaluate`` answers from the compiled transcription (``_score.c``, see
:mod:`tenpai.rules.riichi.compiled`) when it is built, and from ``evaluate_python`` -- the
specification -- otherwise or whenever the compiled side declines a context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tenpai import tiles as T
from tenpai.rules.riichi.compiled import load
from tenpai.rules.riichi.context import WinContext
from tenpai.rules.riichi.fu import fu as reading_fu
from tenpai.rules.riichi.reading import HandFacts, Reading, readings
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.rules.riichi.scoring import base_points, payment_split
from tenpai.rules.riichi.yaku import REGULAR, YAKUMAN, Yaku

__all__ = ["WinResult", "compiled_module", "count_dora", "evaluate", "evaluate_python"]

_REG_HAND = tuple(y for y in REGULAR if not y.per_reading)
_REG_READING = tuple(y for y in REGULAR if y.per_reading)
_YM_HAND = tuple(y for y in YAKUMAN if not y.per_reading)
_YM_READING = tuple(y for y in YAKUMAN if y.per_reading)
_DORA_OF = tuple(T.dora_from_indicator(k) for k in range(34))
#: Three players: 1m and 9m indicate each other (2m-8m are not in the set).
_DORA_OF_3P = tuple({0: 8, 8: 0}.get(k, d) for k, d in enumerate(_DORA_OF))
_NORTH = 30


@dataclass(frozen=True, slots=True)
class WinResult:
    """The score of a win, before honba and riichi deposits (see ``payments``).

    ``yaku`` lists ``(id, han)`` in display order, with ``dora``/``aka_dora``/``ura_dora`` as
    separate entries; a yakuman entry is worth 13 han per yakuman.  ``yakuman`` is the number of
    yakuman (0 for a regular hand, kazoe included: a counted yakuman is ``limit ==
    "kazoe_yakuman"``).  ``pao_yakuman`` is how many of those yakuman are ones the rules make a
    feeder liable for.  ``ron`` is what the discarder pays; on a tsumo ``tsumo_dealer`` is the
    dealer's share (0 when the winner is the dealer) and ``tsumo_non_dealer`` each other
    player's (``players - 2`` of them: a three-player tsumo has one, tsumo loss).
    """

    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]
    yakuman: int
    limit: str
    base_points: int
    dealer: bool
    tsumo: bool
    ron: int
    tsumo_dealer: int
    tsumo_non_dealer: int
    pao_yakuman: int = 0
    players: int = 4

    @property
    def total(self) -> int:
        """What the winner receives before honba and deposits."""
        if not self.tsumo:
            return self.ron
        if self.dealer:
            return (self.players - 1) * self.tsumo_non_dealer
        return self.tsumo_dealer + (self.players - 2) * self.tsumo_non_dealer


def count_dora(ctx: WinContext, facts: HandFacts | None = None) -> tuple[int, int, int]:
    """``(dora, aka_dora, ura_dora)`` held by the hand, melds included.

    Norths set aside (``ctx.nukidora``) are a dora each and count again for every indicator
    (dora or ura) showing North; Tenhou adds them to ``dora``, as here."""
    if facts is None:
        facts = HandFacts(ctx)
    counts = facts.counts
    reds = facts.reds
    kind = T.kind_of
    table = _DORA_OF_3P if ctx.rules.players == 3 else _DORA_OF
    kita = ctx.nukidora
    if kita:
        counts = counts.copy()
        counts[_NORTH] += kita
    dora = kita + sum(counts[table[kind(i)]] for i in ctx.dora_indicators)
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        ura = sum(counts[table[kind(i)]] for i in ctx.ura_indicators)
    aka = reds if ctx.rules.red_fives else 0
    return dora, aka, ura


def _yakuman_value(y: Yaku, rules: RiichiRules) -> int:
    return 2 if y.double and rules.double_yakuman_variants else 1


def evaluate(ctx: WinContext) -> WinResult | None:
    """Score a win; ``None`` when the tiles are not a winning shape or the hand has no yaku."""
    if _fast is not None:
        result: WinResult | None = _fast(ctx)
        if result is not NotImplemented:
            return result
    return evaluate_python(ctx)


def evaluate_python(ctx: WinContext) -> WinResult | None:
    """:func:`evaluate` in Python, by the yaku classes: the specification of the compiled path."""
    rules = ctx.rules
    facts = HandFacts(ctx)
    payers = rules.players - 1
    reads = readings(facts)
    if not reads:
        return None
    closed = facts.closed
    first = reads[0]
    hand_yaku = [y for y in _REG_HAND if y.applies(first) and y.han(closed)]
    hand_yakuman = [y for y in _YM_HAND if y.applies(first)]
    dora: tuple[int, int, int] | None = None
    best: tuple[tuple[int, int, int, int], Reading, list[Yaku], int, int, int] | None = None
    for r in reads:
        yakuman = hand_yakuman + [y for y in _YM_READING if y.applies(r)]
        if yakuman:
            values = [_yakuman_value(y, rules) for y in yakuman]
            mult = sum(values) if rules.yakuman_stacking else max(values)
            han = 13 * mult
            fu_ = reading_fu(r)
            base, _ = base_points(han, fu_, mult, rules)
            chosen = yakuman
        else:
            chosen = hand_yaku + [y for y in _REG_READING if y.applies(r) and y.han(closed)]
            if not chosen:
                continue
            han = sum(y.han(closed) for y in chosen)
            if dora is None:
                dora = count_dora(ctx, facts)
            han += dora[0] + dora[1] + dora[2]
            fu_ = reading_fu(r)
            mult = 0
            base, _ = base_points(han, fu_, 0, rules)
        ron, from_dealer, from_other = payment_split(base, facts.dealer, facts.tsumo)
        total = ron if not facts.tsumo else (
            payers * from_other if facts.dealer else from_dealer + (payers - 1) * from_other
        )
        key = (total, 1 if mult else 0, han, fu_)
        if best is None or key > best[0]:
            best = (key, r, chosen, han, fu_, mult)
    if best is None:
        return None
    _, r, chosen, han, fu_, mult = best
    if mult:
        yaku = tuple((y.id, 13 * _yakuman_value(y, rules)) for y in _ordered(chosen))
        if not rules.yakuman_stacking:
            yaku = (max(yaku, key=lambda e: e[1]),)
    else:
        entries = [(y.id, y.han(closed)) for y in _ordered(chosen)]
        assert dora is not None
        for name, n in zip(("dora", "aka_dora", "ura_dora"), dora):
            if n:
                entries.append((name, n))
        yaku = tuple(entries)
    base, limit = base_points(han, fu_, mult, rules)
    ron, from_dealer, from_other = payment_split(base, facts.dealer, facts.tsumo)
    pao = sum(_yakuman_value(y, rules) for y in chosen if mult and y.id in rules.pao_yakuman)
    return WinResult(
        han=han,
        fu=fu_,
        yaku=yaku,
        yakuman=mult,
        limit=limit,
        base_points=base,
        dealer=facts.dealer,
        tsumo=facts.tsumo,
        ron=ron,
        tsumo_dealer=from_dealer,
        tsumo_non_dealer=from_other,
        pao_yakuman=pao,
        players=rules.players,
    )


_ORDER = {y.id: i for i, y in enumerate(REGULAR + YAKUMAN)}


def _ordered(ys: list[Yaku]) -> list[Yaku]:
    return sorted(ys, key=lambda y: _ORDER[y.id])


_module = load(WinResult)
_fast = _module.evaluate if _module is not None else None


def compiled_module() -> Any | None:
    """The compiled scorer in use, or ``None`` on the pure-Python path."""
    return _module

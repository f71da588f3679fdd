"""The bridge from the table to the scorer: a :class:`WinRequest` in, a :class:`WinOutcome` out.

The round knows the situation (riichi, ippatsu, last tile…), the scorer knows the hand; this
module translates between the engine's melds and the scorer's, and applies payments.
"""

from __future__ import annotations

from tenpai.engine.meld import Meld as TableMeld
from tenpai.rules.riichi.context import Meld, WinContext
from tenpai.rules.riichi.evaluate import evaluate
from tenpai.rules.riichi.flow.types import WinOutcome, WinRequest
from tenpai.rules.riichi.payments import liable_seat, payments
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = ["score_win", "to_scoring_meld"]


def to_scoring_meld(m: TableMeld) -> Meld:
    return Meld(m.type, m.tiles, m.target)


def score_win(req: WinRequest, rules: RiichiRules) -> WinOutcome | None:
    """Score a win at the table; ``None`` when the hand has no yaku (the win is not allowed)."""
    ctx = WinContext(
        closed=req.hand,
        win_tile=req.win_tile,
        melds=tuple(to_scoring_meld(m) for m in req.melds),
        tsumo=req.tsumo,
        seat_wind=req.seat_wind,
        round_wind=req.round_wind,
        riichi=req.riichi and not req.double_riichi,
        double_riichi=req.double_riichi,
        ippatsu=req.ippatsu and not req.rinshan,
        haitei=req.haitei,
        houtei=req.houtei,
        rinshan=req.rinshan,
        chankan=req.chankan,
        tenhou=req.tenhou,
        chiihou=req.chiihou,
        dora_indicators=req.dora_markers,
        ura_indicators=req.ura_markers,
        rules=rules,
        nukidora=req.nukidora,
    )
    result = evaluate(ctx)
    if result is None:
        return None
    pao = req.pao if req.pao != req.seat else None
    deltas = payments(
        result,
        rules,
        winner=req.seat,
        dealer=req.dealer,
        discarder=None if req.tsumo else req.target,
        honba=req.honba,
        kyotaku=req.kyotaku,
        pao=pao,
    )
    return WinOutcome(
        han=result.han,
        fu=result.fu,
        yaku=result.yaku,
        points=result.total,
        deltas=tuple(deltas),
        yakuman=result.yakuman,
        pao=liable_seat(result, pao),
    )

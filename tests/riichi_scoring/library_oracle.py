"""The `mahjong` library as an oracle for our Riichi scorer, on random legal wins.

The wins come from :mod:`tenpai.rules.riichi.random_wins` (the one generator: the compiled
scorer's tests draw from it too), with the physical tile ids each was drawn as, which is what
the library reads.  ``library_score`` asks the library the same question, with its options
mapped from our ``RiichiRules`` (see docs/riichi.md, "differential test"); ``compare`` says
where the two disagree.  With three players ``compare`` also checks every payer's share,
honba included (tsumo loss), against the library's cost split.  Kyotaku and pao are left out
of that check: the library knows neither.
"""

from __future__ import annotations

import random
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as LibMeld

from tenpai import tiles as T
from tenpai.rules.riichi import RiichiRules, WinResult, evaluate
from tenpai.rules.riichi.random_wins import RandomWin, random_win

_LIB_MELD = {"chi": LibMeld.CHI, "pon": LibMeld.PON, "daiminkan": LibMeld.KAN,
             "kakan": LibMeld.SHOUMINKAN, "ankan": LibMeld.KAN}

#: Library yaku class names -> our ids (seat/round wind classes collapse to one id each).
LIB_YAKU = {
    "Tsumo": "menzen_tsumo", "Riichi": "riichi", "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu", "Chankan": "chankan", "Rinshan": "rinshan", "Haitei": "haitei",
    "Houtei": "houtei", "Pinfu": "pinfu", "Tanyao": "tanyao", "Iipeiko": "iipeikou",
    "Haku": "yakuhai_haku", "Hatsu": "yakuhai_hatsu", "Chun": "yakuhai_chun",
    "Chiitoitsu": "chiitoitsu", "Chantai": "chanta", "Ittsu": "ittsu", "Sanshoku": "sanshoku",
    "SanshokuDoukou": "sanshoku_doukou", "SanKantsu": "sankantsu", "Toitoi": "toitoi",
    "Sanankou": "sanankou", "Shosangen": "shousangen", "Honroto": "honroutou",
    "Ryanpeikou": "ryanpeikou", "Junchan": "junchan", "Honitsu": "honitsu",
    "Chinitsu": "chinitsu", "Tenhou": "tenhou", "Chiihou": "chiihou", "Daisangen": "daisangen",
    "Suuankou": "suuankou", "SuuankouTanki": "suuankou_tanki", "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou", "Chinroutou": "chinroutou", "ChuurenPoutou": "chuuren",
    "DaburuChuurenPoutou": "junsei_chuuren", "KokushiMusou": "kokushi",
    "DaburuKokushiMusou": "kokushi_13", "DaiSuushii": "daisuushii",
    "Shousuushii": "shousuushii", "Suukantsu": "suukantsu", "Dora": "dora",
    "AkaDora": "aka_dora", "UraDora": "ura_dora",
}


def library_options(rules: RiichiRules) -> OptionalRules:
    """Our rule flags in the library's terms (docs/riichi.md has the table)."""
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives > 0,
        has_double_yakuman=rules.double_yakuman_variants,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_yakuman
        else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage_mangan,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=rules.renhou == "yakuman",
        is_three_player=rules.players == 3,
    )


def library_score(h: RandomWin) -> Any:
    ctx = h.ctx
    drawn = h.tiles
    all_ids = list(drawn.closed) + [i for _, ids in drawn.melds for i in ids]
    melds = [LibMeld(meld_type=_LIB_MELD[kind], tiles=list(ids), opened=kind != "ankan")
             for kind, ids in drawn.melds]
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=ctx.riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        player_wind=ctx.seat_wind,
        round_wind=ctx.round_wind,
        options=library_options(ctx.rules),
        tsumi_number=h.honba,
        num_nuki_dora=ctx.nukidora,
    )
    return HandCalculator.estimate_hand_value(
        all_ids, drawn.win, melds=melds, dora_indicators=list(drawn.dora), config=config,
        ura_dora_indicators=list(drawn.ura),
    )


def _our_main_additional(r: WinResult) -> tuple[int, int]:
    if not r.tsumo:
        return r.ron, 0
    if r.dealer:
        return r.tsumo_non_dealer, r.tsumo_non_dealer
    return r.tsumo_dealer, r.tsumo_non_dealer


def compare(h: RandomWin) -> str | None:
    """``None`` when both scorers agree on han, fu (below yakuman), points and yaku."""
    ours = evaluate(h.ctx)
    lib = library_score(h)
    if lib.error:
        if lib.error in ("no_yaku",) and ours is None:
            return None
        return f"library error {lib.error!r}, ours {ours}"
    if ours is None:
        return f"ours None, library {lib.han} han {lib.fu} fu {lib.cost['total']}"
    problems = []
    if ours.han != lib.han:
        problems.append(f"han {ours.han} vs {lib.han}")
    if not ours.yakuman and ours.fu != lib.fu:
        problems.append(f"fu {ours.fu} vs {lib.fu}")
    main, additional = _our_main_additional(ours)
    if (main, additional) != (lib.cost["main"], lib.cost["additional"]):
        lib_points = f"{lib.cost['main']}/{lib.cost['additional']}"
        problems.append(f"points {main}/{additional} vs {lib_points}")
    if h.ctx.rules.players == 3:
        problem = _compare_payments(h, ours, lib)
        if problem:
            problems.append(problem)
    lib_yaku = sorted(LIB_YAKU.get(type(y).__name__, type(y).__name__) for y in lib.yaku)
    our_yaku = sorted(n for n, _ in ours.yaku)
    if _normalise_winds(our_yaku) != _normalise_winds(lib_yaku):
        problems.append(f"yaku {our_yaku} vs {lib_yaku}")
    return "; ".join(problems) or None


def _compare_payments(h: RandomWin, ours: WinResult, lib: Any) -> str | None:
    """Every payer's share with honba (``payments``) against the library's ``cost``."""
    from tenpai.rules.riichi import payments

    n = h.ctx.rules.players
    winner, discarder = h.winner, h.discarder
    deltas = payments(ours, h.ctx.rules, winner=winner, dealer=h.dealer, discarder=discarder,
                      honba=h.honba)
    cost = lib.cost
    want = [0] * n
    for seat in range(n):
        if seat == winner:
            continue
        if discarder is not None:
            pay = cost["main"] + cost["main_bonus"] if seat == discarder else 0
        elif seat == h.dealer or ours.dealer:
            pay = cost["main"] + cost["main_bonus"]
        else:
            pay = cost["additional"] + cost["additional_bonus"]
        want[seat] = -pay
    want[winner] = cost["total"]
    if deltas != want:
        return f"payments {deltas} vs {want} ({h.honba} honba)"
    return None


def _normalise_winds(names: list[str]) -> list[str]:
    out = []
    for n in names:
        if n.startswith("SeatWind") or n == "yakuhai_seat_wind":
            out.append("seat_wind")
        elif n.startswith("RoundWind") or n == "yakuhai_round_wind":
            out.append("round_wind")
        else:
            out.append(n)
    return sorted(out)


def describe(h: RandomWin) -> str:
    ctx = h.ctx
    melds = " ".join(f"{m.kind}:{T.to_compact(m.tiles)}" for m in ctx.melds)
    flags = [f for f in ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei",
                         "rinshan", "chankan", "tenhou", "chiihou") if getattr(ctx, f)]
    return (f"{T.to_compact(ctx.closed)} win {T.to_mjai(ctx.win_tile)} melds [{melds}] "
            f"seat {T.to_mjai(ctx.seat_wind)} round {T.to_mjai(ctx.round_wind)} {flags} "
            f"dora {T.to_compact(ctx.dora_indicators)} ura {T.to_compact(ctx.ura_indicators)}"
            + (f" nukidora {ctx.nukidora} honba {h.honba}" if ctx.rules.players == 3 else ""))


def main(argv: list[str]) -> int:
    """``python tests/riichi_scoring/library_oracle.py N SEED [tenhou|mahjong_soul]``."""
    from tenpai.rules.riichi import PRESETS

    n, seed = int(argv[0]), int(argv[1])
    rules = PRESETS[argv[2] if len(argv) > 2 else "tenhou"]
    rng = random.Random(seed)
    bad = 0
    for _ in range(n):
        hand = random_win(rng, rules)
        problem = compare(hand)
        if problem:
            bad += 1
            if bad <= 10:
                print(describe(hand), "\n   ", problem)
    print(f"{rules.name}: {n} hands, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))

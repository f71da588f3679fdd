"""Random *winning* Riichi hands with physically possible situations, and the oracle bridge.

Hands are built from their structure (four sets and a pair, seven pairs, thirteen orphans, nine
gates), drawing physical Tenhou tile ids from one 136-tile pool so that no tile is used twice and
red fives appear as they would in a real wall.  Themes (one suit, terminals and honours, green
tiles ...) make the rare yaku and yakuman common enough to be tested.  The situation (tsumo,
riichi, ippatsu, haitei, rinshan, chankan, tenhou ...) only takes values a real game can produce.

``library_score`` asks the `mahjong` library the same question, with its options mapped from our
``RiichiRules`` (see docs/riichi.md, "differential test"); ``compare`` says where the two disagree.

Three-player rules (``rules.players == 3``) draw from the 108-tile set (no 2m-8m), call no chi,
sit the winner East, South or West, set 0-4 Norths aside (nukidora) and add honba; ``compare``
then also checks every payer's share, honba included (tsumo loss).  The four-player stream of
random numbers is untouched by these branches.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as LibMeld

from tenpai import tiles as T
from tenpai.rules.riichi import EAST, Meld, RiichiRules, WinContext, WinResult, evaluate

SUITED = list(range(27))
HONORS = list(range(27, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
ORPHANS = TERMINALS + HONORS
GREEN = [19, 20, 21, 23, 25, 32]

THEMES: list[tuple[str, float]] = [
    ("any", 0.40),
    ("one_suit_honors", 0.15),
    ("one_suit", 0.12),
    ("simples", 0.10),
    ("terminals_honors", 0.08),
    ("honors", 0.05),
    ("green", 0.04),
    ("winds_dragons", 0.06),
    ("outside", 0.04),
    ("outside_honors", 0.04),
    ("terminals", 0.02),
]


class NoTiles(Exception):
    """The pool ran out of a kind; the caller starts the hand again."""


@dataclass
class GeneratedHand:
    ctx: WinContext
    closed_ids: list[int]
    meld_ids: list[tuple[str, list[int]]]
    win_id: int
    dora_ids: list[int]
    ura_ids: list[int]
    honba: int = 0


#: kinds three-player Riichi removes (2m-8m)
SANMA_REMOVED = frozenset(range(1, 8))


class _Pool:
    def __init__(self, rng: random.Random, players: int = 4) -> None:
        self.rng = rng
        self.left: list[list[int]] = []
        for k in range(34):
            ids = [4 * k + c for c in range(4)]
            rng.shuffle(ids)
            if players == 3 and k in SANMA_REMOVED:
                ids = []
            self.left.append(ids)

    def take(self, kind: int, n: int = 1) -> list[int]:
        if len(self.left[kind]) < n:
            raise NoTiles
        return [self.left[kind].pop() for _ in range(n)]

    def count(self, kind: int) -> int:
        return len(self.left[kind])

    def any_tile(self) -> int:
        kinds = [k for k in range(34) if self.left[k]]
        return self.take(self.rng.choice(kinds))[0]


def _allowed(theme: str, rng: random.Random) -> list[int]:
    suit = rng.randrange(3) * 9
    one_suit = list(range(suit, suit + 9))
    return {
        "any": SUITED + HONORS,
        "one_suit_honors": one_suit + HONORS,
        "one_suit": one_suit,
        "simples": [k for k in SUITED if k % 9 not in (0, 8)],
        "terminals_honors": ORPHANS,
        "honors": HONORS,
        "green": GREEN,
        "winds_dragons": HONORS + one_suit,
        "outside": TERMINALS,
        "outside_honors": ORPHANS,
        "terminals": TERMINALS,
    }[theme]


def _pick_theme(rng: random.Random) -> str:
    return rng.choices([n for n, _ in THEMES], [w for _, w in THEMES])[0]


def _sequence_starts(allowed: list[int]) -> list[int]:
    a = set(allowed)
    return [k for k in allowed if k < 27 and k % 9 <= 6 and k + 1 in a and k + 2 in a]




def _standard(rng: random.Random, pool: _Pool, allowed: list[int], starts: list[int],
              n_melds: int, chi: bool = True) -> tuple[list[int], list[tuple[str, list[int]]]]:
    seq_p = 0.0 if not starts else (0.35 if n_melds >= 3 else 0.6)
    if rng.random() < 0.15:
        seq_p = 0.05  # triplet-heavy hands: toitoi, sanankou, suuankou, sankantsu
    closed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for i in range(4):
        as_meld = i < n_melds
        if starts and rng.random() < seq_p and (chi or not as_meld):
            b = rng.choice(starts)
            if rng.random() < 0.25 and not as_meld:
                # favour repeated and parallel sequences (peikou, sanshoku, ittsu)
                parallel = b % 9 + rng.choice((0, 9, 18))
                straight = b - b % 9 + rng.choice((0, 3, 6))
                b = rng.choice([b, b, parallel, straight])
                if b % 9 > 6 or b >= 27:
                    b = rng.choice(starts)
            ids = pool.take(b) + pool.take(b + 1) + pool.take(b + 2)
            if as_meld:
                melds.append(("chi", ids))
            else:
                closed += ids
        else:
            k = rng.choice(allowed)
            if as_meld:
                kind = rng.choices(("pon", "daiminkan", "kakan", "ankan"), (50, 15, 15, 20))[0]
                melds.append((kind, pool.take(k, 4 if kind != "pon" else 3)))
            elif rng.random() < 0.05:
                melds.append(("ankan", pool.take(k, 4)))
            else:
                closed += pool.take(k, 3)
    k = rng.choice(allowed)
    closed += pool.take(k, 2)
    return closed, melds


def _chiitoitsu(rng: random.Random, pool: _Pool, allowed: list[int]) -> list[int]:
    kinds = allowed if len(allowed) >= 7 else [k for k in SUITED + HONORS if pool.count(k)]
    chosen = rng.sample(kinds, 7)
    return [i for k in chosen for i in pool.take(k, 2)]


def _kokushi(rng: random.Random, pool: _Pool) -> list[int]:
    ids = [pool.take(k)[0] for k in ORPHANS]
    return ids + pool.take(rng.choice(ORPHANS))


def _chuuren(rng: random.Random, pool: _Pool, players: int = 4) -> list[int]:
    base = rng.randrange(3) * 9 if players == 4 else rng.choice((9, 18))
    pattern = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    ids = [i for n, c in enumerate(pattern) for i in pool.take(base + n, c)]
    return ids + pool.take(base + rng.randrange(9))


def generate(rng: random.Random, rules: RiichiRules) -> GeneratedHand:
    """One random winning hand with a random, possible situation."""
    while True:
        try:
            return _generate(rng, rules)
        except NoTiles:
            continue


def _generate(rng: random.Random, rules: RiichiRules) -> GeneratedHand:
    red = rules.red_fives > 0

    def _code(tile_id: int) -> int:
        return T.physical_to_tile(tile_id, red=red)

    sanma = rules.players == 3
    pool = _Pool(rng, rules.players)
    theme = _pick_theme(rng)
    allowed = _allowed(theme, rng)
    if sanma:
        allowed = [k for k in allowed if k not in SANMA_REMOVED] or [0, 8]
    form = rng.random()
    melds: list[tuple[str, list[int]]] = []
    if form < 0.07:
        closed = _chiitoitsu(rng, pool, allowed)
    elif form < 0.09:
        closed = _kokushi(rng, pool)
    elif form < 0.10:
        closed = _chuuren(rng, pool, rules.players)
    else:
        n_melds = rng.choices((0, 1, 2, 3, 4), (40, 20, 15, 13, 12))[0]
        if theme.startswith("outside"):
            starts = [k for k in SUITED if k % 9 in (0, 6)]
            if sanma:
                starts = [k for k in starts if k >= 9]
        else:
            starts = _sequence_starts(allowed)
        closed, melds = _standard(rng, pool, allowed, starts, n_melds, chi=not sanma)
    win_id = rng.choice(closed)
    win_kind = win_id // 4
    opened = any(kind != "ankan" for kind, _ in melds)
    has_kan = any(kind != "chi" and kind != "pon" for kind, _ in melds)
    nukidora = 0
    if sanma:
        seat_wind = 27 + rng.randrange(3)
        round_wind = rng.choices((27, 28, 29), (45, 45, 10))[0]
        if rng.random() < 0.5:
            nukidora = rng.randint(1, pool.count(30)) if pool.count(30) else 0
            pool.take(30, nukidora)
    else:
        seat_wind = 27 + rng.randrange(4)
        round_wind = rng.choices((27, 28, 29, 30), (45, 45, 8, 2))[0]
    dealer = seat_wind == EAST

    flags: dict[str, bool] = {}
    tsumo = rng.random() < 0.5
    if not melds and not nukidora and tsumo and rng.random() < 0.03:
        flags["tenhou" if dealer else "chiihou"] = True
    else:
        if not opened and rng.random() < 0.5:
            flags["double_riichi" if rng.random() < 0.1 else "riichi"] = True
        if tsumo:
            if (has_kan or nukidora) and rng.random() < 0.2:
                flags["rinshan"] = True
            elif rng.random() < 0.06:
                flags["haitei"] = True
        else:
            # chankan: the robbed kakan holds the other three copies of the winning kind
            held = sum(1 for i in closed if i // 4 == win_kind)
            held += sum(1 for _, ids in melds for i in ids if i // 4 == win_kind)
            if held == 1 and pool.count(win_kind) == 3 and rng.random() < 0.3:
                pool.take(win_kind, 3)
                flags["chankan"] = True
            elif rng.random() < 0.06:
                flags["houtei"] = True
        riichi = flags.get("riichi") or flags.get("double_riichi")
        if riichi and not flags.get("rinshan") and rng.random() < 0.25:
            flags["ippatsu"] = True
    n_kans = sum(1 for kind, _ in melds if kind not in ("chi", "pon"))
    n_ind = 1 + n_kans if rng.random() < 0.9 else rng.randint(1, 5)
    dora_ids = [pool.any_tile() for _ in range(n_ind)]
    riichi = flags.get("riichi") or flags.get("double_riichi")
    ura_ids = [pool.any_tile() for _ in range(n_ind)] if riichi else []

    extra: dict[str, Any] = {"nukidora": nukidora} if sanma else {}
    ctx = WinContext(
        closed=tuple(_code(i) for i in closed),
        win_tile=_code(win_id),
        melds=tuple(Meld(kind, tuple(_code(i) for i in ids),  # type: ignore[arg-type]
                         None if kind == "ankan" else rng.randrange(rules.players))
                    for kind, ids in melds),
        tsumo=tsumo,
        seat_wind=seat_wind,
        round_wind=round_wind,
        dora_indicators=tuple(_code(i) for i in dora_ids),
        ura_indicators=tuple(_code(i) for i in ura_ids),
        rules=rules,
        **flags,
        **extra,
    )
    honba = rng.choice((0, 0, 1, 2, 5)) if sanma else 0
    return GeneratedHand(ctx, closed, melds, win_id, dora_ids, ura_ids, honba)


# ---------------------------------------------------------------------------------------------
# The oracle.
# ---------------------------------------------------------------------------------------------

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


def library_score(h: GeneratedHand) -> Any:
    ctx = h.ctx
    all_ids = list(h.closed_ids) + [i for _, ids in h.meld_ids for i in ids]
    melds = [LibMeld(meld_type=_LIB_MELD[kind], tiles=ids, opened=kind != "ankan")
             for kind, ids in h.meld_ids]
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
        all_ids, h.win_id, melds=melds, dora_indicators=h.dora_ids, config=config,
        ura_dora_indicators=h.ura_ids,
    )


def _our_main_additional(r: WinResult) -> tuple[int, int]:
    if not r.tsumo:
        return r.ron, 0
    if r.dealer:
        return r.tsumo_non_dealer, r.tsumo_non_dealer
    return r.tsumo_dealer, r.tsumo_non_dealer


def compare(h: GeneratedHand) -> str | None:
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


def _compare_payments(h: GeneratedHand, ours: WinResult, lib: Any) -> str | None:
    """Every payer's share with honba (``payments``) against the library's ``cost``."""
    from tenpai.rules.riichi import payments

    n = h.ctx.rules.players
    winner = h.ctx.seat_wind - EAST  # the dealer sits at seat 0
    discarder = None if h.ctx.tsumo else (winner + 1) % n
    deltas = payments(ours, h.ctx.rules, winner=winner, dealer=0, discarder=discarder,
                      honba=h.honba)
    cost = lib.cost
    want = [0] * n
    for seat in range(n):
        if seat == winner:
            continue
        if discarder is not None:
            pay = cost["main"] + cost["main_bonus"] if seat == discarder else 0
        elif seat == 0 or ours.dealer:
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


def describe(h: GeneratedHand) -> str:
    ctx = h.ctx
    melds = " ".join(f"{m.kind}:{T.to_compact(m.tiles)}" for m in ctx.melds)
    flags = [f for f in ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei",
                         "rinshan", "chankan", "tenhou", "chiihou") if getattr(ctx, f)]
    return (f"{T.to_compact(ctx.closed)} win {T.to_mjai(ctx.win_tile)} melds [{melds}] "
            f"seat {T.to_mjai(ctx.seat_wind)} round {T.to_mjai(ctx.round_wind)} {flags} "
            f"dora {T.to_compact(ctx.dora_indicators)} ura {T.to_compact(ctx.ura_indicators)}"
            + (f" nukidora {ctx.nukidora} honba {h.honba}" if ctx.rules.players == 3 else ""))


def main(argv: list[str]) -> int:
    """``python tests/riichi_scoring/riichi_handgen.py N SEED [tenhou|mahjong_soul]``."""
    from tenpai.rules.riichi import PRESETS

    n, seed = int(argv[0]), int(argv[1])
    rules = PRESETS[argv[2] if len(argv) > 2 else "tenhou"]
    rng = random.Random(seed)
    bad = 0
    for _ in range(n):
        hand = generate(rng, rules)
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

"""Words the page shows for seats, yaku and limits, so players read names rather than ids.

Games played by the engine carry engine yaku ids (``yakuhai_chun``), records read from Tenhou
carry Japanese names (``役牌 中``) and MCR games carry the fans' Chinese names (``大三元``).  The
page wants one English name and the native one for each, whatever the source; this module is
that dictionary, kept on the server so the browser needs no tables of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from tenpai.records.yaku_names import ENGINE_YAKU_NAMES, YAKUMAN_HAN, tenhou_yaku_name
from tenpai.rules.mcr.fans import FANS
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.rules.riichi.scoring import base_points

__all__ = [
    "WIND_NAMES", "is_fan", "limit_name", "round_label", "seat_labels", "tile_label", "yaku_label",
]

WIND_NAMES: Final = ("East", "South", "West", "North")

#: the engine's Riichi yaku ids -> the English names players meet in English clients
_ENGLISH: Final[dict[str, str]] = {
    "menzen_tsumo": "Fully concealed hand (tsumo)", "riichi": "Riichi", "ippatsu": "Ippatsu",
    "chankan": "Robbing a kan", "rinshan": "After a kan", "haitei": "Last tile draw",
    "houtei": "Last tile discard", "pinfu": "Pinfu (no-points hand)",
    "tanyao": "All simples", "iipeikou": "Pure double sequence",
    "yakuhai_haku": "White dragon", "yakuhai_hatsu": "Green dragon",
    "yakuhai_chun": "Red dragon", "double_riichi": "Double riichi",
    "chiitoitsu": "Seven pairs", "chanta": "Half outside hand",
    "ittsu": "Pure straight", "sanshoku": "Mixed triple sequence",
    "sanshoku_doukou": "Triple triplets", "sankantsu": "Three kans",
    "toitoi": "All triplets", "sanankou": "Three concealed triplets",
    "shousangen": "Little three dragons", "honroutou": "All terminals and honours",
    "ryanpeikou": "Twice pure double sequence", "junchan": "Fully outside hand",
    "honitsu": "Half flush", "chinitsu": "Full flush", "renhou": "Blessing of man",
    "renhou_yakuman": "Blessing of man", "tenhou": "Blessing of heaven",
    "chiihou": "Blessing of earth", "daisangen": "Big three dragons",
    "suuankou": "Four concealed triplets",
    "suuankou_tanki": "Four concealed triplets (single wait)",
    "tsuuiisou": "All honours", "ryuuiisou": "All green", "chinroutou": "All terminals",
    "chuuren": "Nine gates", "junsei_chuuren": "True nine gates",
    "kokushi": "Thirteen orphans", "kokushi_13": "Thirteen orphans (13-sided wait)",
    "daisuushii": "Big four winds", "shousuushii": "Little four winds",
    "suukantsu": "Four kans", "dora": "Dora", "ura_dora": "Ura-dora", "aka_dora": "Red five",
}

_JAPANESE_TO_ID: Final[dict[str, str]] = {}
for _id, _ja in ENGINE_YAKU_NAMES.items():
    _JAPANESE_TO_ID.setdefault(_ja, _id)

_WINDS_JA: Final = "東南西北"

#: MCR fans by Chinese name -> English name
_FANS_EN: Final[dict[str, str]] = {f.zh: f.en for f in FANS}

_LIMITS: Final[dict[str, str]] = {
    "mangan": "Mangan", "haneman": "Haneman", "baiman": "Baiman", "sanbaiman": "Sanbaiman",
    "kazoe_yakuman": "Counted yakuman", "yakuman": "Yakuman",
    "double_yakuman": "Double yakuman", "triple_yakuman": "Triple yakuman",
}


_HONOURS: Final = ("East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon")


def tile_label(tile: int) -> str:
    """A tile as players say it (5p, red 5m, East, White dragon), not the notation's P or 0m."""
    if tile < 0:
        return "a hidden tile"
    if tile >= 37:
        return f"flower {tile - 36}"
    if tile >= 34:
        return f"red 5{'mps'[tile - 34]}"
    if tile >= 27:
        return _HONOURS[tile - 27]
    return f"{tile % 9 + 1}{'mps'[tile // 9]}"


def round_label(bakaze: int, kyoku: int, honba: int) -> str:
    """A hand's name: East 2, or East 2, 1 honba when repeated."""
    label = f"{WIND_NAMES[bakaze % 4]} {kyoku + 1}"
    return label + (f", {honba} honba" if honba else "")


def is_fan(name: str) -> bool:
    """An MCR fan's Chinese name: fans score points, not han, so no Riichi limit applies."""
    return name in _FANS_EN


def seat_labels(names: Sequence[str]) -> list[str]:
    """Names that tell the seats apart: three ``expert`` opponents become expert 1, 2 and 3.

    Empty names become ``seat N`` so a record without names still has four distinct labels.
    """
    shown = [n if n else f"seat {i}" for i, n in enumerate(names)]
    repeated = {n for n, c in Counter(shown).items() if c > 1}
    counts: Counter[str] = Counter()
    out = []
    for n in shown:
        if n in repeated:
            counts[n] += 1
            out.append(f"{n} {counts[n]}")
        else:
            out.append(n)
    return out


def yaku_label(name: str, seat_wind: int, round_wind: int) -> dict[str, str]:
    """``{"en", "native"}`` for one yaku or fan, whichever vocabulary ``name`` came in.

    The winds need the hand's seat and round wind: the engine writes ``yakuhai_seat_wind``,
    Tenhou writes ``自風 南``.  A name no table knows is shown as it came, in both slots.
    """
    if name in _FANS_EN:
        return {"en": _FANS_EN[name], "native": name}
    if name == "yakuhai_seat_wind":
        return {"en": f"Seat wind ({WIND_NAMES[seat_wind % 4]})",
                "native": tenhou_yaku_name(name, seat_wind, round_wind)}
    if name == "yakuhai_round_wind":
        return {"en": f"Round wind ({WIND_NAMES[round_wind % 4]})",
                "native": tenhou_yaku_name(name, seat_wind, round_wind)}
    for prefix, what in (("自風 ", "Seat wind"), ("場風 ", "Round wind")):
        if name.startswith(prefix) and name[len(prefix):] in _WINDS_JA:
            wind = WIND_NAMES[_WINDS_JA.index(name[len(prefix):])]
            return {"en": f"{what} ({wind})", "native": name}
    yaku_id = _JAPANESE_TO_ID.get(name, name)
    if yaku_id in _ENGLISH:
        return {"en": _ENGLISH[yaku_id], "native": ENGINE_YAKU_NAMES[yaku_id]}
    return {"en": name, "native": name}


def limit_name(han: int | None, fu: int | None, yaku: Sequence[tuple[str, int]]) -> str:
    """The limit a Riichi hand reached ("Mangan", "Yakuman"...), or "" below mangan.

    Yakuman count :data:`YAKUMAN_HAN` each in ``hora.yaku``; other hands go through the
    engine's own limit table (Tenhou's rules: kiriage mangan off, counted yakuman on).
    """
    if han is None or han <= 0:
        return ""
    yakuman = sum(v // YAKUMAN_HAN for n, v in yaku if v >= YAKUMAN_HAN and n != "dora")
    _, limit = base_points(han, fu or 30, yakuman, RiichiRules())
    return _LIMITS.get(limit, limit.replace("_", " ").capitalize())

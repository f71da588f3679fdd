"""Tenhou yaku ids and the Japanese names tenhou.net/6 prints for them.

The names are the ones the tenhou.net/6 JSON format uses (checked against real files), so a
``hora`` event read from an mjlog and one read from tenhou.net/6 JSON carry the same strings.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ENGINE_YAKU_NAMES",
    "ENGLISH_YAKU_IDS",
    "MJAI_YAKU_IDS",
    "YAKUMAN_HAN",
    "YAKU_IDS",
    "YAKU_NAMES",
    "english_key",
    "tenhou_yaku_name",
]

#: index = Tenhou yaku id
YAKU_NAMES: Final[tuple[str, ...]] = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和",
    "断幺九", "一盃口", "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南",
    "場風 西", "場風 北", "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九",
    "一気通貫", "三色同順", "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭",
    "二盃口", "純全帯幺九", "混一色", "清一色", "人和", "天和", "地和", "大三元", "四暗刻",
    "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈", "国士無双",
    "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)

YAKU_IDS: Final[dict[str, int]] = {n: i for i, n in enumerate(YAKU_NAMES)}

#: the han a single yakuman counts for in ``hora.han`` and ``hora.yaku``
YAKUMAN_HAN: Final = 13

#: the Riichi engine's yaku ids (``tenpai.rules.riichi.yaku``) -> Tenhou's names; the two wind
#: yaku take the wind from the hand (:func:`tenhou_yaku_name`)
ENGINE_YAKU_NAMES: Final[dict[str, str]] = {
    "menzen_tsumo": "門前清自摸和", "riichi": "立直", "ippatsu": "一発", "chankan": "槍槓",
    "rinshan": "嶺上開花", "haitei": "海底摸月", "houtei": "河底撈魚", "pinfu": "平和",
    "tanyao": "断幺九", "iipeikou": "一盃口", "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發", "yakuhai_chun": "役牌 中", "double_riichi": "両立直",
    "chiitoitsu": "七対子", "chanta": "混全帯幺九", "ittsu": "一気通貫", "sanshoku": "三色同順",
    "sanshoku_doukou": "三色同刻", "sankantsu": "三槓子", "toitoi": "対々和",
    "sanankou": "三暗刻", "shousangen": "小三元", "honroutou": "混老頭", "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九", "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和",
    "renhou_yakuman": "人和", "tenhou": "天和", "chiihou": "地和", "daisangen": "大三元",
    "suuankou": "四暗刻", "suuankou_tanki": "四暗刻単騎", "tsuuiisou": "字一色",
    "ryuuiisou": "緑一色", "chinroutou": "清老頭", "chuuren": "九蓮宝燈",
    "junsei_chuuren": "純正九蓮宝燈", "kokushi": "国士無双", "kokushi_13": "国士無双１３面",
    "daisuushii": "大四喜", "shousuushii": "小四喜", "suukantsu": "四槓子", "dora": "ドラ",
    "ura_dora": "裏ドラ", "aka_dora": "赤ドラ",
}

#: the yaku names of the original mjai server (mjai-manue, mjai-manue-go write them in
#: ``yakus``) -> the engine's ids.  ``sangenpai`` (all dragon triplets summed into one entry)
#: has no single id: the mjai reader splits it by the hand's dragon triplets.
MJAI_YAKU_IDS: Final[dict[str, str]] = {
    "menzenchin_tsumoho": "menzen_tsumo", "reach": "riichi", "ippatsu": "ippatsu",
    "chankan": "chankan", "rinshankaiho": "rinshan", "haiteiraoyue": "haitei",
    "hoteiraoyui": "houtei", "pinfu": "pinfu", "tanyaochu": "tanyao", "ipeko": "iipeikou",
    "jikaze": "yakuhai_seat_wind", "bakaze": "yakuhai_round_wind",
    "double_reach": "double_riichi", "chitoitsu": "chiitoitsu", "honchantaiyao": "chanta",
    "ikkitsukan": "ittsu", "sanshokudojun": "sanshoku", "sanshokudoko": "sanshoku_doukou",
    "sankantsu": "sankantsu", "toitoiho": "toitoi", "sananko": "sanankou",
    "shosangen": "shousangen", "honroto": "honroutou", "ryanpeko": "ryanpeikou",
    "junchantaiyao": "junchan", "honiso": "honitsu", "chiniso": "chinitsu", "tenho": "tenhou",
    "chiho": "chiihou", "daisangen": "daisangen", "suanko": "suuankou", "tsuiso": "tsuuiisou",
    "ryuiso": "ryuuiisou", "chinroto": "chinroutou", "churenpoton": "chuuren",
    "kokushimuso": "kokushi", "daisushi": "daisuushii", "shosushi": "shousuushii",
    "sukantsu": "suukantsu", "dora": "dora", "uradora": "ura_dora", "akadora": "aka_dora",
}

#: English yaku names (Tenhou's English client, as mjai-reviewer's logs carry them, and the
#: common romanisations) -> the engine's ids, keyed by :func:`english_key`.  Only names with
#: one meaning are here: a bare "Yakuhai" or "Seat Wind" does not say which, so a win naming
#: one is not compared (the replay compares a win's names only when it can read all of them).
ENGLISH_YAKU_IDS: Final[dict[str, str]] = {
    "riichi": "riichi", "reach": "riichi", "doubleriichi": "double_riichi",
    "dabururiichi": "double_riichi", "ippatsu": "ippatsu", "menzentsumo": "menzen_tsumo",
    "menzenchintsumohou": "menzen_tsumo", "fullyconcealedhand": "menzen_tsumo",
    "pinfu": "pinfu", "tanyao": "tanyao", "allsimples": "tanyao", "iipeikou": "iipeikou",
    "iipeiko": "iipeikou", "ryanpeikou": "ryanpeikou", "ryanpeiko": "ryanpeikou",
    "chiitoitsu": "chiitoitsu", "sevenpairs": "chiitoitsu", "honitsu": "honitsu",
    "halfflush": "honitsu", "chinitsu": "chinitsu", "fullflush": "chinitsu",
    "toitoi": "toitoi", "toitoihou": "toitoi", "sanshoku": "sanshoku",
    "sanshokudoujun": "sanshoku", "sanshokudoukou": "sanshoku_doukou", "ittsu": "ittsu",
    "ikkitsuukan": "ittsu", "chanta": "chanta", "chantai": "chanta", "chantaiyao": "chanta",
    "junchan": "junchan", "junchantaiyao": "junchan", "sanankou": "sanankou",
    "sankantsu": "sankantsu", "shousangen": "shousangen", "honroutou": "honroutou",
    "haitei": "haitei", "haiteiraoyue": "haitei", "houtei": "houtei", "houteiraoyui": "houtei",
    "rinshan": "rinshan", "rinshankaihou": "rinshan", "chankan": "chankan", "dora": "dora",
    "uradora": "ura_dora", "akadora": "aka_dora", "reddora": "aka_dora",
    "kokushimusou": "kokushi", "daisangen": "daisangen", "suuankou": "suuankou",
    "suuankoutanki": "suuankou_tanki", "tsuuiisou": "tsuuiisou", "ryuuiisou": "ryuuiisou",
    "chinroutou": "chinroutou", "chuurenpoutou": "chuuren", "junseichuurenpoutou":
    "junsei_chuuren", "daisuushii": "daisuushii", "shousuushii": "shousuushii",
    "suukantsu": "suukantsu", "tenhou": "tenhou", "chiihou": "chiihou",
}


def english_key(name: str) -> str:
    """``"Ura Dora"``, ``"ura-dora"`` and ``"UraDora"`` are one name: lower case, letters only."""
    return "".join(c for c in name.lower() if c.isalpha())


_WINDS: Final = "東南西北"


def tenhou_yaku_name(name: str, seat_wind: int, round_wind: int) -> str:
    """Tenhou's name of a yaku given by the engine's id (``yakuhai_seat_wind`` of the South
    seat is ``自風 南``); a name that is already Tenhou's (or unknown) is returned as is.

    Games played by the engine carry engine ids in ``hora.yaku``; records read from Tenhou
    carry these names, so writers and the replay's value check put both in one vocabulary.
    """
    if name == "yakuhai_seat_wind":
        return f"自風 {_WINDS[seat_wind % 4]}"
    if name == "yakuhai_round_wind":
        return f"場風 {_WINDS[round_wind % 4]}"
    return ENGINE_YAKU_NAMES.get(name, name)

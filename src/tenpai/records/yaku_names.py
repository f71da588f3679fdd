"""Tenhou yaku ids and the Japanese names tenhou.net/6 prints for them.

The names are the ones the tenhou.net/6 JSON format uses (checked against real files), so a
``hora`` event read from an mjlog and one read from tenhou.net/6 JSON carry the same strings.
"""

from __future__ import annotations

from typing import Final

__all__ = ["YAKUMAN_HAN", "YAKU_IDS", "YAKU_NAMES"]

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

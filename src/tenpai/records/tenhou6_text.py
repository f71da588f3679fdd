"""The Japanese strings of tenhou.net/6 results: point labels, yaku labels, draw names, rules.

Kept apart from the reader and writer because both need the same tables and the scoring
arithmetic behind the point label (``30符2飜2000点``, ``満貫2000-4000点``, ``跳満6000点∀``).
"""

from __future__ import annotations

import re
from typing import Final

from tenpai.records.game import RuleFlags
from tenpai.records.yaku_names import YAKU_NAMES

__all__ = [
    "DAN_NAMES",
    "DRAW_KIND_OF_NAME",
    "DRAW_NAMES",
    "YAKUMAN_NAMES",
    "parse_point_label",
    "parse_yaku_label",
    "point_label",
    "rule_disp",
    "yaku_label",
]

YAKUMAN_NAMES: Final = frozenset(YAKU_NAMES[36:52])

DRAW_NAMES: Final = {
    "exhaustive": "流局",
    "nine_terminals": "九種九牌",
    "four_winds": "四風連打",
    "four_riichi": "四家立直",
    "four_kans": "四槓散了",
    "triple_ron": "三家和了",
    "nagashi_mangan": "流し満貫",
}
ALL_TENPAI: Final = "全員聴牌"
ALL_NOTEN: Final = "全員不聴"
DRAW_KIND_OF_NAME: Final = {
    **{v: k for k, v in DRAW_NAMES.items()},
    ALL_TENPAI: "exhaustive",
    ALL_NOTEN: "exhaustive",
}

DAN_NAMES: Final = (
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
)

_ROOM_CHARS: Final = {"ippan": "般", "joukyuu": "上", "tokujou": "特", "houou": "鳳"}


def _ceil100(x: int) -> int:
    return -(-x // 100) * 100


def _limit(han: int, fu: int, yakuman: int) -> tuple[str, int]:
    """(label, base points); label is empty below mangan."""
    if yakuman:
        return "役満", 8000 * yakuman
    if han >= 13:
        return "役満", 8000
    if han >= 11:
        return "三倍満", 6000
    if han >= 8:
        return "倍満", 4000
    if han >= 6:
        return "跳満", 3000
    base = fu * 2 ** (han + 2)
    if han >= 5 or base >= 2000:
        return "満貫", 2000
    return "", base


def point_label(han: int, fu: int | None, yakuman: int, *, tsumo: bool, dealer: bool) -> str:
    """The label Tenhou prints for a win, e.g. ``30符2飜2000点`` or ``満貫2000-4000点``."""
    label, base = _limit(han, fu or 0, yakuman)
    if tsumo and dealer:
        pts = f"{_ceil100(2 * base)}点∀"
    elif tsumo:
        pts = f"{_ceil100(base)}-{_ceil100(2 * base)}点"
    else:
        pts = f"{_ceil100((6 if dealer else 4) * base)}点"
    return (label or f"{fu}符{han}飜") + pts


_POINT_RE: Final = re.compile(
    r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|役満|数え役満))?(.*)点∀?$"
)


def parse_point_label(text: str) -> tuple[int | None, int | None]:
    """(fu, han) of a point label; either is None when the label does not say."""
    m = _POINT_RE.match(text)
    if m is None:
        raise ValueError(f"unreadable point label {text!r}")
    if m.group(1):
        return int(m.group(1)), int(m.group(2))
    return None, None


def yaku_label(name: str, han: int) -> str:
    if name in YAKUMAN_NAMES:
        return f"{name}(役満)"
    return f"{name}({han}飜)"


_YAKU_RE: Final = re.compile(r"^(.+)\((\d+)飜\)$|^(.+)\(役満\)$")


def parse_yaku_label(text: str) -> tuple[str, int]:
    m = _YAKU_RE.match(text)
    if m is None:
        raise ValueError(f"unreadable yaku label {text!r}")
    if m.group(1):
        return m.group(1), int(m.group(2))
    return m.group(3), 13


def rule_disp(rules: RuleFlags) -> str:
    """The short rule caption (``鳳南喰赤``) tenhou.net/6 shows."""
    out = "三" if rules.players == 3 else ""
    out += _ROOM_CHARS.get(rules.room or "", "")
    out += "東" if rules.hanchan is False else "南"  # unknown reads as hanchan, as replay does
    if rules.open_tanyao is not False:
        out += "喰"
    if rules.red_fives is not False:
        out += "赤"
    if rules.fast:
        out += "速"
    return out

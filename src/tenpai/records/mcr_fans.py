"""Chinese Official (MCR) fan names as Botzone prints them, with their values.

Botzone's ``Fan`` line gives names and repeat counts only (``连六*2``); the values make the
``hora.yaku`` entries carry points like every other format and let a reader check the total.
"""

from __future__ import annotations

from typing import Final

__all__ = ["FAN_VALUES"]

_BY_VALUE: Final = {
    88: "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺",
    64: "清幺九 小四喜 小三元 字一色 四暗刻 一色双龙会",
    48: "一色四同顺 一色四节高",
    32: "一色四步高 三杠 混幺九",
    24: "七对 七星不靠 全双刻 清一色 一色三同顺 一色三节高 全大 全中 全小",
    16: "清龙 三色双龙会 一色三步高 全带五 三同刻 三暗刻",
    12: "全不靠 组合龙 大于五 小于五 三风刻",
    8: "花龙 推不倒 三色三同顺 三色三节高 无番和 妙手回春 海底捞月 杠上开花 抢杠和",
    6: "碰碰和 混一色 三色三步高 五门齐 全求人 双暗杠 双箭刻",
    5: "明暗杠",
    4: "全带幺 不求人 双明杠 和绝张",
    2: "箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺",
    1: "一般高 喜相逢 连六 老少副 幺九刻 明杠 缺一门 无字 边张 嵌张 单钓将 自摸 花牌",
}

FAN_VALUES: Final[dict[str, int]] = {
    name: value for value, names in _BY_VALUE.items() for name in names.split()
}

"""Hand-written hands for the "not counted" rules that implementations most often get wrong.

Each case states the fans a careful reading of the rule book gives; the last test also checks
every case against PyMahjongGB (skipped when it is not installed), translating only its 明暗杠.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from mcr_helpers import chow, hand, kong, pung, score

from tenpai.rules.mcr import Meld, Shape

CASES: list[tuple[str, str, str, tuple[Meld, ...], dict[str, Any], dict[str, int]]] = [
    # 123 234 345 form 一色三步高; the second 345 may still combine once: 一般高, not a 2nd step.
    ("shifted chows + double chow", "122333344455m99p", "9p", (), {},
     {"一色三步高": 1, "一般高": 1, "平和": 1, "门前清": 1, "四归一": 1, "缺一门": 1, "单钓将": 1}),
    # 平和 does not stop 连六, 老少副 and 喜相逢; four chows give at most three pair patterns.
    ("all chows with short straight and terminal chows", "123456m123789p55s", "5s", (), {},
     {"平和": 1, "门前清": 1, "连六": 1, "喜相逢": 1, "老少副": 1, "单钓将": 1}),
    # A concealed kong is a concealed pung for 双暗刻, and keeps the hand concealed (不求人).
    ("two concealed pungs with a concealed kong", "123m456m777s99s", "9s",
     (kong("5p", "concealed_kong"),), {"self_drawn": True},
     {"不求人": 1, "双暗刻": 1, "暗杠": 1, "连六": 1, "无字": 1}),
    # Four chows, two relations of each kind: at most three pair patterns (套算一次).
    ("account once", "234567s234567p55m", "5m", (), {},
     {"平和": 1, "门前清": 1, "断幺": 1, "喜相逢": 2, "连六": 1, "单钓将": 1}),
    # 全带五 absorbs 断幺; the four 5p (456p + 555p) still make 四归一.
    ("all fives", "345m456p555p567s55s", "3m", (), {},
     {"全带五": 1, "三色三步高": 1, "门前清": 1, "四归一": 1}),
    # 推不倒 absorbs 缺一门; 999p is a 幺九刻.
    ("reversible tiles", "123p345p888s999p55z", "5z", (), {},
     {"推不倒": 1, "门前清": 1, "双暗刻": 1, "幺九刻": 1, "单钓将": 1}),
    # Nothing at all scores: 无番和 is worth the 8-fan minimum by itself.
    ("chicken hand", "567s789p11z", "5s", (chow("2m"), pung("6p")), {}, {"无番和": 1}),
    # A quad inside seven pairs is two pairs plus 四归一.
    ("seven pairs with a quad", "1111m2233p5577s11z", "1z", (), {}, {"七对": 1, "四归一": 1}),
    # Official: one melded + one concealed kong = 明杠 1 + 暗杠 2 (PyMahjongGB: 明暗杠 5).
    ("melded and concealed kong", "123s456s99s", "3s",
     (kong("5m"), kong("7p", "concealed_kong")), {},
     {"明杠": 1, "暗杠": 1, "连六": 1, "无字": 1, "边张": 1}),
    ("robbing the kong is never the last tile", "123m456p789s123s55z", "1s", (),
     {"robbing_kong": True}, {"花龙": 1, "抢杠和": 1, "门前清": 1, "喜相逢": 1}),
    ("replacement tile absorbs self-drawn", "123m456p123s55z", "1s", (kong("9p"),),
     {"self_drawn": True, "kong_replacement": True},
     {"杠上开花": 1, "明杠": 1, "幺九刻": 1, "喜相逢": 1}),
    ("last tile draw", "123m456p789s123s55z", "1s", (),
     {"self_drawn": True, "last_tile": True},
     {"花龙": 1, "妙手回春": 1, "不求人": 1, "喜相逢": 1}),
    ("last tile claim and last copy", "123m456p789s123s55z", "1s", (),
     {"last_tile": True, "last_copy": True},
     {"花龙": 1, "海底捞月": 1, "和绝张": 1, "门前清": 1, "喜相逢": 1}),
    # 555666777m reads as three pungs or three chows for the same 31; the chow reading is shown.
    ("equal readings prefer pure triple chow", "555666777m23488s", "6m", (), {},
     {"一色三同顺": 1, "平和": 1, "门前清": 1, "断幺": 1, "缺一门": 1}),
    ("knitted straight with a pair wait", "147m258p369s123p55z", "5z", (), {},
     {"组合龙": 1, "门前清": 1, "单钓将": 1}),
    ("knitted straight beside a chow meld", "147m258p369s55z", "5z", (chow("1p"),), {},
     {"组合龙": 1, "单钓将": 1}),
    ("lesser honours and knitted with a full straight", "147m258p369s12345z", "5z", (), {},
     {"全不靠": 1, "组合龙": 1}),
    ("greater honours and knitted", "147m258p3s1234567z", "7z", (), {}, {"七星不靠": 1}),
    # 九莲宝灯 keeps 自摸 (not 不求人) and uses up one of its two 幺九刻.
    ("nine gates", "11123455678999m", "5m", (), {"self_drawn": True},
     {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1, "自摸": 1}),
    ("four concealed pungs self-drawn", "111m333p555s777s99m", "9m", (), {"self_drawn": True},
     {"四暗刻": 1, "幺九刻": 1, "无字": 1, "单钓将": 1, "自摸": 1}),
    # A pung completed by a discard is exposed: 999m does not make 三暗刻.
    ("little three dragons", "555666z77z123m999m", "9m", (), {},
     {"小三元": 1, "混一色": 1, "全带幺": 1, "门前清": 1, "双暗刻": 1, "幺九刻": 1}),
    ("little four winds with seat and round winds", "111222333z44z", "4z", (pung("9m"),),
     {"seat_wind": 1, "prevalent_wind": 0},
     {"小四喜": 1, "混幺九": 1, "三暗刻": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1,
      "单钓将": 1}),
    ("thirteen orphans", "19m19p19s12345677z", "7z", (), {"self_drawn": True},
     {"十三幺": 1, "自摸": 1}),
    ("seven shifted pairs keep all simples", "22334455667788s", "8s", (), {},
     {"连七对": 1, "断幺": 1}),
    ("pure terminal chows", "112233778899m55m", "5m", (), {},
     {"一色双龙会": 1, "门前清": 1, "单钓将": 1}),
]

IDS = [c[0] for c in CASES]


@pytest.mark.parametrize(("name", "concealed", "win", "melds", "kw", "want"), CASES, ids=IDS)
def test_fans(name: str, concealed: str, win: str, melds: tuple[Meld, ...],
              kw: dict[str, Any], want: dict[str, int]) -> None:
    result = score(concealed, win, melds, **kw)
    assert result.counts() == want
    assert result.total == sum(h.points for h in result.fans)


def test_chicken_hand_is_exactly_the_minimum() -> None:
    result = score("567s789p11z", "5s", (chow("2m"), pung("6p")))
    assert result.total == 8 and result.meets_minimum


def test_flowers_never_reach_the_minimum() -> None:
    base = score("123456m123789p55s", "5s")
    assert base.total == 8
    short = score("123s456s99s", "3s", (kong("5m"), kong("7p", "concealed_kong")), flowers=3)
    assert short.total == 9 and short.total_without_flowers == 6
    assert not short.meets_minimum
    assert short.fans[-1].fan.zh == "花牌" and short.fans[-1].count == 3


def test_seven_pairs_also_read_as_a_standard_hand() -> None:
    assert score("22334455667788p", "8p").shape is Shape.SHIFTED_PAIRS
    # Pairs beat 123m 123m 123p 123p (at most three pair patterns there).
    pairs = score("112233m112233p55s", "5s")
    assert pairs.shape is Shape.SEVEN_PAIRS and pairs.counts()["七对"] == 1
    # Four identical chows (一色四同顺 48 + 清一色) beat 七对 + 清一色 + three 四归一.
    quad = score("111122223333m55m", "5m")
    assert quad.shape is Shape.STANDARD
    assert quad.counts() == {"一色四同顺": 1, "清一色": 1, "平和": 1, "门前清": 1}  # 4m also won


def _oracle_counts(ctx: Any) -> Counter[str]:
    mahjonggb = pytest.importorskip("MahjongGB")
    from tenpai.bench.fan import from_mahjonggb, to_mahjonggb

    out = mahjonggb.MahjongFanCalculator(*to_mahjonggb(ctx), verbose=True)
    return from_mahjonggb(out)[0]


@pytest.mark.parametrize(("name", "concealed", "win", "melds", "kw", "want"), CASES, ids=IDS)
def test_pymahjonggb_agrees(name: str, concealed: str, win: str, melds: tuple[Meld, ...],
                            kw: dict[str, Any], want: dict[str, int]) -> None:
    assert _oracle_counts(hand(concealed, win, melds, **kw)) == Counter(want)

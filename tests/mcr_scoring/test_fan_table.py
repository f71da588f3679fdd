"""The fan table itself: 81 classes, official numbers, points and names, sane exclusions."""

from __future__ import annotations

from collections import Counter

from tenpai.rules.mcr import FAN_BY_NAME, FAN_BY_NUMBER, FANS

# How many fans the official table has at each value (88 down to 1; 花牌 counts at 1).
OFFICIAL_SPREAD = {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10,
                   1: 13}


def test_eighty_one_fans_numbered_in_order() -> None:
    assert [f.number for f in FANS] == list(range(1, 82))
    assert len({f.zh for f in FANS}) == 81
    assert len({f.en for f in FANS}) == 81


def test_points_follow_the_official_spread() -> None:
    assert Counter(f.points for f in FANS) == OFFICIAL_SPREAD
    values = [f.points for f in FANS]
    assert values == sorted(values, reverse=True), "the table runs from 88 down to 1"


def test_landmark_entries() -> None:
    assert FAN_BY_NUMBER[1].zh == "大四喜"
    assert FAN_BY_NUMBER[43].en == "Chicken Hand" and FAN_BY_NUMBER[43].points == 8
    assert FAN_BY_NAME["和绝张"].points == 4
    assert FAN_BY_NAME["Flower Tiles"].number == 81


def test_exclusions_point_down_the_table() -> None:
    for f in FANS:
        for other in f.excludes:
            assert other > f.number, f"{f.zh} excludes {FAN_BY_NUMBER[other].zh} above it"
            assert other in FAN_BY_NUMBER

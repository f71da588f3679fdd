"""`sets_distance`: fewest tiles a partial hand must gain for n sets and a pair."""

from __future__ import annotations

import pytest

from tenpai.hand import HandError, sets_distance
from tenpai.tiles import parse_counts


@pytest.mark.parametrize(
    ("hand", "sets", "expected"),
    [
        ("", 0, 2),  # a pair from nothing
        ("", 1, 5),
        ("5m", 0, 1),
        ("123m456p78s11z", 3, 1),  # 78s waits
        ("123m456p78s11z", 2, 0),  # already two sets and a pair
        ("1111m", 1, 2),  # 111m + a pair needs two (a fifth 1m does not exist)
        ("19m19p", 1, 3),  # 11m (one more) + 999m (two more)
    ],
)
def test_sets_distance_by_hand(hand: str, sets: int, expected: int) -> None:
    assert sets_distance(parse_counts(hand) if hand else [0] * 34, sets) == expected


def test_sets_distance_rejects_bad_input() -> None:
    with pytest.raises(HandError):
        sets_distance([5] + [0] * 33, 1)
    with pytest.raises(HandError):
        sets_distance([0] * 34, 5)

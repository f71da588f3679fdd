"""Tenhou's end points (``owari``): hand-checked games, then every Houou record of the corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenpai.records.source import read_text
from tenpai.rules.riichi.end_points import tenhou_end_points


@pytest.mark.parametrize(
    ("scores", "target", "points"),
    [
        # four players, Houou hanchan (GO type 169): 25,500 rounds down to 25, 21,300 to 21
        ((25500, 20700, 32500, 21300), 30_000, (6.0, -29.0, 42.0, -19.0)),
        # a half rounds away from zero: 24,500 -> 25; -4,500 -> -5
        ((-4500, 31200, 48100, 25200), 30_000, (-55.0, 11.0, 59.0, -15.0)),
        # three players, Houou hanchan (GO type 185): return 40,000, uma 0 / -20
        ((13700, 53900, 37400), 40_000, (-46.0, 49.0, -3.0)),
        ((46300, 64200, -5500), 40_000, (6.0, 60.0, -66.0)),
        # ties go to the seat nearer the first dealer
        ((25000, 25000, 25000, 25000), 30_000, (35.0, 5.0, -15.0, -25.0)),
    ],
)
def test_end_points_of_known_games(scores: tuple[int, ...], target: int,
                                   points: tuple[float, ...]) -> None:
    got = tenhou_end_points(scores, target)
    assert got == points
    assert sum(got) == 0


def test_other_table_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="3 or 4 players, got 2 scores"):
        tenhou_end_points((1000, -1000), 30_000)


def test_every_houou_record_of_the_corpus(data_dir: Path) -> None:
    """Each record's own ``owari`` pairs (final score in hundreds, end points) against the rule.
    Log ids carry the lobby's GO type in hex: ``-00a9-`` four-player, ``-00b9-`` three."""
    targets = {"00a9": 30_000, "00b9": 40_000}
    files = [f for f in (data_dir / "riichi" / "tenhou_mjlog").rglob("*gm-00?9-*")
             if f.name.split("-")[1] in targets]
    if not files:
        pytest.skip("no Houou mjlog in the corpus")
    checked = dict.fromkeys(targets, 0)
    for f in files:
        found = re.search(r'owari="([^"]*)"', read_text(f))
        if found is None:  # a log cut before the end has no end points
            continue
        key = f.name.split("-")[1]
        numbers = [float(x) for x in found.group(1).split(",")]
        pairs = list(zip(numbers[0::2], numbers[1::2], strict=True))
        if key == "00b9":
            pairs = pairs[:3]  # the wire's empty fourth position
        scores = [int(hundreds) * 100 for hundreds, _ in pairs]
        assert tenhou_end_points(scores, targets[key]) == tuple(p for _, p in pairs), f
        checked[key] += 1
    assert all(checked.values()), checked

"""Every win in the Botzone text sample: our fans, total and payoffs equal the judge's.

Needs ../shared/data (skipped when absent).  Botzone plays without flowers and has no wall-end
fans in this sample; seat N is wind N and ``Wind`` is the prevalent wind.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from mcr_botzone_text import read_wins

from tenpai.rules.mcr import evaluate, settle

SAMPLE = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def test_fan_lines_and_scores(data_dir: Path) -> None:
    wins = read_wins((data_dir / SAMPLE).read_text(encoding="utf-8"))
    assert len(wins) == 14
    for w in wins:
        result = evaluate(w.ctx)
        assert result is not None, w.match
        assert Counter(result.counts()) == w.fans, w.match
        assert result.total == w.total, w.match
        assert result.meets_minimum, w.match
        assert settle(result, w.winner, w.discarder, "botzone") == w.scores, w.match

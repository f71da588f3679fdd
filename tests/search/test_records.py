"""The placement fit and the wait calibration on real records (skipped without them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.search.calibration import wait_predictions
from tenpai.search.placement_fit import collect_rows, fit_placement, iter_houou_games
from tenpai.search.worlds import WorldSampler

pytestmark = pytest.mark.corpus


def _mjx(data_dir: Path) -> Path:
    return data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx"


def test_placement_fit_on_a_few_houou_games_beats_the_constant_model(data_dir: Path) -> None:
    games = list(iter_houou_games([_mjx(data_dir)]))
    assert games
    rows = collect_rows(games)
    assert len(rows.x["train"]) == len(rows.y["train"]) > 0
    assert all(0 <= y <= 3 for y in rows.y["train"])
    model = fit_placement(rows)
    assert model.metrics["train_log_loss"] < 1.386


def test_wait_predictions_are_probabilities_with_truths(data_dir: Path) -> None:
    pred, actual, used = wait_predictions([_mjx(data_dir)], games=1, worlds=2,
                                          sampler=WorldSampler())
    assert used == 1
    assert len(pred) == len(actual)
    assert all(0.0 <= p <= 1.0 for p in pred) and set(actual) <= {0, 1}

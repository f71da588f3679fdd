"""The calibration bench of the planner's two probability models."""

from __future__ import annotations

import pytest

from tenpai.bench.planner_calibration import Record, calibration_table, main, play_records


def test_the_table_bins_and_scores_by_hand() -> None:
    records = [Record(0, 0, (0.01, 0.5), won=False), Record(0, 0, (0.15, 0.5), won=True),
               Record(1, 2, (0.15, 0.9), won=True)]
    draws = calibration_table(records, 0)
    assert [(r["bin"], r["n"]) for r in draws["rows"]] == [("0.00-0.02", 1), ("0.10-0.20", 2)]
    assert draws["rows"][1]["won"] == 1.0
    assert draws["brier"] == pytest.approx((0.01 ** 2 + 0.85 ** 2 + 0.85 ** 2) / 3)
    claims = calibration_table(records, 1)
    assert claims["mean_predicted"] == pytest.approx(1.9 / 3)
    assert claims["won"] == pytest.approx(2 / 3)
    assert claims["rows"][-1]["bin"] == "0.80-1.00"


def test_played_records_never_predict_less_with_claims() -> None:
    records = play_records(1, 47900, [0.3, 1.0])
    assert records
    for r in records:
        assert 0.0 < r.predicted[0] <= r.predicted[1] <= r.predicted[2] <= 1.0
    assert records == play_records(1, 47900, [0.3, 1.0])


def test_bad_rates_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        main(["--rates", "0.3,2"])
    assert err.value.code == 2
    assert "--rates" in capsys.readouterr().err

"""Learning curves: ``train pg --eval-every`` keeps them in the model card, ``eval curve``
prints and plots them, and a model without one is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.rl.curve import CurveError, curve_from_card, read_curve
from tenpai.rl.pg import PGConfig, train_pg
from tenpai.rl.rewards import RewardConfig


@pytest.fixture(scope="module")
def pg_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("curve") / "pg.pt"
    cfg = PGConfig(
        rules="mcr", options={"preset": "botzone"}, out=str(out), games_per_update=4, tables=4,
        max_games=8, minutes=5, lr=1e-3, checkpoint_minutes=0.0, eval_every=4, eval_deals=2,
        reward=RewardConfig(points_scale=24.0),
    )
    path, progress = train_pg(cfg)
    assert [p["games"] for p in progress.curve] == [4.0, 8.0]
    return path


def test_the_curve_travels_in_the_model_card(pg_model: Path) -> None:
    curve = read_curve(pg_model)
    assert curve.games == 8
    assert [p.games for p in curve.points] == [4, 8]
    for p in curve.points:
        assert p.deals == 2
        assert p.low <= p.win_rate <= p.high
        assert 1.0 <= p.learner_rank <= 4.0 and 1.0 <= p.start_rank <= 4.0


def test_eval_curve_prints_json_and_writes_a_png(pg_model: Path, tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    res = CliRunner().invoke(app, ["eval", "curve", str(pg_model), "--out", str(png), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [p["games"] for p in data["curves"][0]["points"]] == [4, 8]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.glob("*.tmp*"))


def test_a_model_without_a_curve_is_refused_in_one_line(tmp_path: Path) -> None:
    from tenpai.agents.sl_mcr import resolve_mcr_model_path

    res = CliRunner().invoke(app, ["eval", "curve", str(resolve_mcr_model_path("default"))])
    assert res.exit_code == 2
    assert "not a policy-gradient model" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_a_missing_file_and_a_broken_point_are_named() -> None:
    res = CliRunner().invoke(app, ["eval", "curve", "no/such/model.pt"])
    assert res.exit_code == 2 and "no/such/model.pt" in res.output
    with pytest.raises(CurveError, match=r"m\.pt: curve point 1"):
        curve_from_card({"games": 4, "curve": [{"games": 4}]}, "m.pt")

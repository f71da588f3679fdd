"""``eval curve`` of ``pg_planner`` runs: the curve ``train pg-planner`` keeps in its JSON
weights (and checkpoint) is printed as written, round-trips through ``--json``, draws a PNG, and
a file without a usable curve is refused in one line naming it."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.agents.pg_planner import PlannerHead
from tenpai.cli.main import app
from tenpai.rl.planner_curve import (
    PlannerCurveError,
    curve_from_json,
    read_planner_curve,
    versus,
)
from tenpai.rl.planner_pg import CurvePoint, PlannerPGConfig, train_planner_pg


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real seeded run: 2 updates of 2 games, a curve point after each against planner and
    efficiency on 2 development deals; a tiny prior and a large step so the greedy head
    leaves the planner at once (departures and differences not all 0)."""
    out = tmp_path_factory.mktemp("pgp") / "pg_planner.json"
    cfg = PlannerPGConfig(out=str(out), seed=3, deals_per_update=1, samples=2,
                          temperature=1.5, lr=0.5, planner_prior=0.05, max_games=4,
                          eval_every=2, eval_deals=2, eval_efficiency=True,
                          checkpoint_minutes=60)
    train_planner_pg(cfg, progress=lambda _line: None)
    return out


def _info(path: Path) -> dict[str, Any]:
    info = json.loads(path.read_text())["info"]
    assert isinstance(info, dict)
    return info


def _eval(*args: str) -> Any:
    return CliRunner().invoke(app, ["eval", "curve", *args])


def test_the_table_prints_every_point_of_the_file(run: Path) -> None:
    info = _info(run)
    raw = info["curve"]
    assert [(p["games"], p["opponent"]) for p in raw] == [
        (2, "planner"), (2, "efficiency"), (4, "planner"), (4, "efficiency")]
    assert any(p["departures"] for p in raw) and any(p["place_half"] for p in raw)
    res = _eval(str(run))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].startswith(f"{run}: pg_planner, 4 training games (2 updates) against planner, "
                               f"{info['cpu_seconds'] / 60:.1f} CPU min")
    rows = [line for line in lines if line.lstrip().startswith("games")]
    assert len(rows) == len(raw)
    for p in raw:
        row = next(r for r in rows if f"games {p['games']:>7,} vs {p['opponent']}" in r)
        assert f"places {p['place_diff']:+.3f} ± {p['place_half']:.3f}" in row
        assert f"points per seat-game {p['score_diff']:+.2f} ± {p['score_half']:.2f}" in row
        assert f"departures {p['departures']:,}/{p['decisions']:,}" in row
        assert f"deals changed {p['changed_games']}/{p['deals']}" in row


def test_json_round_trips_the_files_curve(run: Path) -> None:
    res = _eval(str(run), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    info = _info(run)
    (c,) = data["curves"]
    assert c["kind"] == "pg_planner" and c["source"] == "weights" and data["plot"] is None
    assert c["points"] == info["curve"]
    assert (c["games"], c["updates"]) == (info["games"], info["updates"])
    assert c["cpu_minutes"] == pytest.approx(info["cpu_seconds"] / 60)
    assert curve_from_json(json.loads(run.read_text()), "x").as_dict() | {"label": c["label"]} == c


def test_the_checkpoint_holds_the_same_curve(run: Path) -> None:
    ckpt = run.with_name(run.name + ".ckpt")
    weights, checkpoint = read_planner_curve(run), read_planner_curve(ckpt)
    assert checkpoint.source == "checkpoint" and weights.source == "weights"
    assert checkpoint.points == weights.points and checkpoint.games == weights.games
    assert "(a checkpoint" in _eval(str(ckpt)).stdout


def test_out_writes_a_png(run: Path, tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    res = _eval(str(run), str(run.with_name(run.name + ".ckpt")), "--out", str(png))
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[-1] == f"plot: {png}"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert not list(tmp_path.glob("*.tmp*"))


def _head_file(path: Path, info: dict[str, Any]) -> Path:
    """Weights written the way the trainer writes them (``PlannerHead.save``)."""
    head = PlannerHead.start()
    head.info = info
    head.save(path)
    return path


def test_points_from_before_opponents_were_counted_read_as_planner(tmp_path: Path) -> None:
    old = {k: v for k, v in asdict(CurvePoint(512, 25, -0.01, 0.04, -0.2, 0.9, 30, 61.0)).items()
           if k not in ("opponent", "decisions", "departures")}
    path = _head_file(tmp_path / "old.json",
                      {"games": 1024, "updates": 32, "cpu_seconds": 903.0, "curve": [old]})
    curve = read_planner_curve(path)
    assert curve.points == (CurvePoint(512, 25, -0.01, 0.04, -0.2, 0.9, 30, 61.0),)
    assert curve.trained_against == "planner" and curve.cpu_minutes == pytest.approx(15.05)


def test_greedy_bot_runs_name_their_comparison(tmp_path: Path) -> None:
    point = asdict(CurvePoint(64, 4, 0.25, 0.5, 3.0, 6.0, 2, 9.0, "greedy-bots", 100, 7))
    path = _head_file(tmp_path / "bots.json", {
        "settings": {"opponents": "greedy-bots"}, "games": 64, "updates": 2,
        "cpu_seconds": 60.0, "curve": [point]})
    res = _eval(str(path))
    assert res.exit_code == 0, res.output
    assert "against greedy-bots" in res.stdout.splitlines()[0]
    assert f"vs {versus('greedy-bots')}: places +0.250 ± 0.500" in res.stdout
    assert versus("greedy-bots") == "planner among greedy bots"


def _refused(path: Path, why: str) -> None:
    res = _eval(str(path))
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    assert str(path) in res.output and why in res.output


def test_files_without_a_usable_curve_are_refused_in_one_line(tmp_path: Path) -> None:
    _refused(_head_file(tmp_path / "start.json", {}), "without a learning curve")
    _refused(_head_file(tmp_path / "empty.json", {"games": 0, "curve": []}), "has no point")
    _refused(_head_file(tmp_path / "bad.json", {"curve": [{"games": 2}]}),
             "curve point 1 is malformed")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something/1"}')
    _refused(other, "neither pg_planner weights")
    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "tenpai-pg-planner/1", "info": {"cur')
    _refused(cut, "not JSON")
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    _refused(text, "not a readable model file")


def test_a_curve_point_error_names_the_file() -> None:
    with pytest.raises(PlannerCurveError, match=r"^run\.json: curve point 2"):
        curve_from_json({"format": "tenpai-pg-planner/1", "info": {"curve": [
            asdict(CurvePoint(2, 1, 0, 0, 0, 0, 0, 1.0)), {"games": "x"}]}}, "run.json")


def test_a_model_and_a_pg_planner_file_together_are_refused(run: Path) -> None:
    from tenpai.agents.sl_mcr import resolve_mcr_model_path

    model = resolve_mcr_model_path("default")
    res = _eval(str(run), str(model))
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    assert str(run) in res.output and str(model) in res.output and "separate calls" in res.output

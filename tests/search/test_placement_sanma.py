"""The three-player placement model: the fit recovers a planted model, the shipped file loads
and beats both baselines on held-out games, a model of the other table size is refused in one
line, and the three-player rank utilities."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from tenpai.search.placement import (
    TENHOU_SANMA,
    PlacementError,
    PlacementModel,
    TablePosition,
    features_for,
    hands_left,
    load_placement_model,
    parse_utility,
    placement_features,
)
from tenpai.search.placement_fit import PlacementRows, fit_placement, scores_only_table


def _position(rng: random.Random) -> TablePosition:
    a = rng.randrange(0, 70001, 100)
    b = rng.randrange(0, 105001 - a, 100) if a < 105000 else 0
    return TablePosition((a, b, 105000 - a - b), rng.randrange(2), rng.randrange(3),
                         rng.randrange(4), rng.randrange(3), "hanchan")


def _rows(positions: list[TablePosition]) -> np.ndarray:
    return np.asarray([placement_features(p, s) for p in positions for s in range(3)])


def test_the_fit_recovers_a_planted_three_player_model() -> None:
    rng = random.Random(3)
    x = _rows([_position(rng) for _ in range(3000)])
    k = len(features_for(3))
    assert x.shape[1] == k
    nprng = np.random.default_rng(4)
    planted = PlacementModel(nprng.normal(0.0, 0.6, (k + 1, 3)), x.mean(axis=0),
                             x.std(axis=0) + 1e-9, 3)
    p = planted.predict_rows(x)
    y = np.array([nprng.choice(3, p=row) for row in p])
    rows = PlacementRows(players=3)
    rows.x["train"] = x.tolist()
    rows.y["train"] = y.tolist()
    rows.games["train"] = 3000
    fitted = fit_placement(rows, l2=1.0)
    assert fitted.players == 3 and fitted.weights.shape == (k + 1, 3)
    fresh = _rows([_position(rng) for _ in range(500)])
    gap = np.abs(fitted.predict_rows(fresh) - planted.predict_rows(fresh)).mean()
    assert gap < 0.03, gap
    # a model fitted on labels that ignore the features is far from the planted one
    shuffled = PlacementRows(players=3)
    shuffled.x["train"] = rows.x["train"]
    shuffled.y["train"] = nprng.permutation(y).tolist()
    blind = fit_placement(shuffled, l2=1.0)
    assert np.abs(blind.predict_rows(fresh) - planted.predict_rows(fresh)).mean() > 3 * gap


def test_scores_only_baseline_reads_the_current_rank() -> None:
    x = _rows([TablePosition((50000, 35000, 20000), 0, 0, 0, 0, "hanchan")] * 4)
    table = scores_only_table(x, np.array([0, 1, 2] * 4), 3)
    # every leader finished first, every last seat third (add-one smoothed)
    assert table[0].argmax() == 0 and table[2].argmax() == 2
    assert np.allclose(table.sum(axis=1), 1.0)


def test_the_shipped_three_player_model_beats_both_baselines_on_held_out_games() -> None:
    model = load_placement_model(players=3)
    assert model.players == 3
    m = model.metrics
    assert m["heldout_games"] > 50
    assert m["heldout_log_loss"] < m["heldout_log_loss_scores_only"] < m[
        "heldout_log_loss_constant"]


def test_more_points_never_lower_the_three_player_utility() -> None:
    model = load_placement_model(players=3)
    for bakaze, kyoku in ((0, 0), (1, 0), (1, 2)):
        values = []
        for mine in range(10000, 70001, 5000):
            pos = TablePosition((mine, 35000, 35000), bakaze, kyoku, 0, 0, "hanchan")
            values.append(TENHOU_SANMA.of(model.table_probs(pos)[0]))
        assert all(b > a for a, b in itertools.pairwise(values)), (bakaze, kyoku, values)
    p = model.table_probs(TablePosition((45000, 38000, 22000), 1, 1, 1, 1, "hanchan"))
    assert np.allclose(p.sum(axis=0), 1.0, atol=1e-3)


def test_three_seats_have_three_hands_per_wind() -> None:
    assert hands_left(0, 0, "hanchan", 3) == (5, False)
    assert hands_left(1, 2, "hanchan", 3) == (0, False)
    assert hands_left(2, 0, "hanchan", 3) == (0, True)
    assert hands_left(0, 2, "tonpuu", 3) == (0, False)
    assert hands_left(0, 0, "hanchan") == (7, False)  # four players unchanged


def test_a_model_of_the_other_table_size_is_refused_in_one_line(tmp_path: Path) -> None:
    four = tmp_path / "four.json"
    four.write_text(json.dumps(load_placement_model().to_json()))
    with pytest.raises(PlacementError, match="a 4-player placement model; the table has 3") as e:
        load_placement_model(four, players=3)
    assert "\n" not in str(e.value)
    three = tmp_path / "three.json"
    three.write_text(json.dumps(load_placement_model(players=3).to_json()))
    with pytest.raises(PlacementError, match="a 3-player placement model; the table has 4"):
        load_placement_model(three, players=4)
    assert load_placement_model(three).players == 3  # no size asked: the file's own
    odd = load_placement_model(players=3).to_json()
    odd["players"] = 5
    five = tmp_path / "five.json"
    five.write_text(json.dumps(odd))
    with pytest.raises(PlacementError, match="5 players"):
        load_placement_model(five)


def test_three_player_utilities() -> None:
    assert parse_utility("", 3).weights == (120.0, 0.0, -135.0)
    assert parse_utility("uma", 3).weights == (15.0, 0.0, -15.0)
    assert parse_utility("3,0,-3", 3).weights == (3.0, 0.0, -3.0)
    for bad in ("90,45,0,-135", "1,2,3", "1,1,1", "x"):
        with pytest.raises(ValueError):
            parse_utility(bad, 3)
    with pytest.raises(ValueError, match="three numbers"):
        parse_utility("1,2", 3)


def test_train_placement_model_for_three_players_refuses_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    empty = tmp_path / "empty"
    empty.mkdir()
    out = str(tmp_path / "m.json")
    r = CliRunner().invoke(app, ["train", "placement-model", str(empty), "--players", "3",
                                 "--out", out])
    assert r.exit_code == 2
    assert "no complete three-player game" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["train", "placement-model", str(empty), "--players", "5",
                                 "--out", out])
    assert r.exit_code == 2 and "--players must be 3 or 4" in r.output

"""Opponent-model files: the shipped default loads, bad files give one typed error, and the
agent refuses to start on them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tenpai.reading.models import FORMAT, ModelFileError, load_models


def test_default_models_load_and_predict() -> None:
    m = load_models()
    probs = m.rank_probs((40000, 20000, 20000, 20000), 0, 0, False, 0)
    assert sum(probs) == pytest.approx(1.0)
    assert probs[0] > 0.8  # a 20,000-point lead before the last hand wins almost always
    assert m.metrics["tenpai"]["auc"] > 0.8


def _write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "m.json"
    p.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return p


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="no such opponent-model file"):
        load_models(tmp_path / "absent.json")


def test_corrupt_json(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="not valid JSON"):
        load_models(_write(tmp_path, "{ not json"))


def test_wrong_format(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="format"):
        load_models(_write(tmp_path, {"format": "something/else"}))


def test_features_changed(tmp_path: Path) -> None:
    good = load_models().to_json()
    good["features"]["deal_in"] = ["genbutsu"]
    with pytest.raises(ModelFileError, match="other features"):
        load_models(_write(tmp_path, good))


def test_truncated_weights(tmp_path: Path) -> None:
    good = load_models().to_json()
    good["deal_in"]["weights"] = good["deal_in"]["weights"][:-1]
    with pytest.raises(ModelFileError):
        load_models(_write(tmp_path, good))


def test_missing_model(tmp_path: Path) -> None:
    good = load_models().to_json()
    del good["rank"]
    with pytest.raises(ModelFileError, match="malformed"):
        load_models(_write(tmp_path, good))
    assert good["format"] == FORMAT


def test_agent_refuses_bad_file(tmp_path: Path) -> None:
    from tenpai.mdp.agent import MDPAgent

    with pytest.raises(ModelFileError):
        MDPAgent(0, models=_write(tmp_path, "[]"))


def test_round_trip(tmp_path: Path) -> None:
    m = load_models()
    m.save(tmp_path / "copy.json")
    again = load_models(tmp_path / "copy.json")
    assert again.to_json() == m.to_json()


def test_save_round_trips_and_leaves_no_temp_file(tmp_path: Path) -> None:
    """The save goes through the records' atomic write: the same models load back, nothing
    else is left in the folder, and under the usual umask the file is readable by others (a
    model file is meant to be shared)."""
    models = load_models()
    target = tmp_path / "sub" / "models.json"
    old_mask = os.umask(0o022)
    try:
        models.save(target)
    finally:
        os.umask(old_mask)
    assert load_models(target).to_json() == models.to_json()
    assert [p.name for p in target.parent.iterdir()] == ["models.json"]
    assert target.stat().st_mode & 0o777 == 0o644

"""The dataset, train and eval commands end to end on a few real games."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

FOLDER = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"
runner = CliRunner()


def test_dataset_build_writes_a_manifest(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    r = runner.invoke(
        app,
        [
            "dataset",
            "build",
            str(data_dir / FOLDER),
            str(out),
            "--encoder",
            "gao56",
            "--kinds",
            "discard,pon",
            "--games",
            "2",
        ],
    )
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["encoder"] == "gao56@1" and len(m["games"]) == 2
    assert set(m["classes"]) == {"discard", "pon"}


def test_bad_paths_and_options_exit_with_2(tmp_path: Path) -> None:
    r = runner.invoke(app, ["dataset", "build", str(tmp_path / "nope"), str(tmp_path / "o")])
    assert r.exit_code == 2
    r = runner.invoke(app, ["dataset", "build", str(tmp_path), str(tmp_path / "o"), "-e", "x"])
    assert r.exit_code == 2


def test_eval_agreement_json(data_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tenpai.models.bundle import ModelError, resolve_model_path

    try:
        resolve_model_path("default")
    except ModelError:
        pytest.skip("no default weights installed")
    r = runner.invoke(
        app,
        [
            "eval",
            "agreement",
            str(data_dir / FOLDER),
            "--model",
            "default",
            "--games",
            "1",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["games"] == 1
    for key in ("discards", "top1", "top2", "top3", "pon", "chi", "riichi"):
        assert key in report
    assert report["discards"]["n"] > 100
    assert 0.3 < report["top1"] <= report["top2"] <= report["top3"] <= 1.0
    r = runner.invoke(app, ["eval", "agreement", str(data_dir / FOLDER), "-m", str(tmp_path)])
    assert r.exit_code == 2


def test_train_sl_half_stores_float16_weights(
    gao56_discards: Callable[[int], Path], tmp_path: Path
) -> None:
    torch = pytest.importorskip("torch")
    from tenpai.models.bundle import ModelBundle

    ds, out = gao56_discards(12), tmp_path / "m.pt"  # the first with a dev game
    tiny = ["--arch-options", '{"width": 8, "blocks": 1}', "--max-samples", "300"]
    common = ["train", "sl", str(ds), "-o", str(out), *tiny, "--dev-limit", "200"]
    r = runner.invoke(app, [*common, "--eval-every", "300"])
    assert r.exit_code == 0, r.output
    full = torch.load(out, weights_only=True)["heads"]["discard"]["state"]
    r = runner.invoke(app, [*common, "--eval-every", "300", "--half"])
    assert r.exit_code == 0, r.output
    halved = torch.load(out, weights_only=True)["heads"]["discard"]["state"]
    floats = [k for k, v in full.items() if v.is_floating_point()]
    assert floats and all(full[k].dtype == torch.float32 for k in floats)
    assert all(halved[k].dtype == torch.float16 for k in floats)
    assert ModelBundle.load(out).heads["discard"].card["kind"] == "discard"  # still loads

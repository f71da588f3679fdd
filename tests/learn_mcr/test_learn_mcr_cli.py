"""``tenpai dataset build / train sl / eval agreement --rules mcr`` through the typer app.

The end-to-end test builds the whole Botzone corpus (132 games replay and encode in a few
seconds, so no subset is needed) and trains with a tiny budget; the error tests use small
stand-in files in ``tmp_path`` and need neither the records nor, mostly, torch.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

runner = CliRunner()


def _fake_dataset(root: Path, rules: str) -> Path:
    """A directory whose manifest claims ``rules`` (and an MCR encoder), without arrays: enough
    for the checks that run before any data is read."""
    root.mkdir()
    manifest = {"format": "tenpai-sl-dataset/1", "rules": rules, "encoder": "mcr_stack002@1",
                "classes": {"chi": 4}, "shape": [19, 34]}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


def test_build_train_eval_on_the_botzone_records(data_dir: Path, tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from tenpai.models.bundle import ModelBundle

    records = data_dir / "mcr"
    if not records.is_dir():
        pytest.skip(f"no MCR records in {data_dir}")
    ds, model = tmp_path / "ds", tmp_path / "m.pt"
    r = runner.invoke(app, ["dataset", "build", str(records), str(ds), "--rules", "mcr"])
    assert r.exit_code == 0, r.output
    m = json.loads((ds / "manifest.json").read_text())
    assert (m["format"], m["rules"]) == ("tenpai-sl-dataset/1", "mcr")
    assert m["encoder"] == "mcr_stack002@1"  # the MCR default encoder
    # 107 train games replay; one holds no decision at all, and the shared builder (as the
    # Riichi one always did) lists only games that contribute rows.
    assert m["games_per_split"] == {"train": 106, "dev": 13, "test": 12}
    assert m["counts"]["dev"]["discard"] == 1079
    assert "train: discard 7,345" in r.stderr

    # The rules come from the manifest: no --rules needed.
    r = runner.invoke(app, ["train", "sl", str(ds), "-o", str(model), "--minutes", "0.02"])
    assert r.exit_code == 0, r.output
    assert "discard: best dev top-1" in r.stdout
    train = ["train", "sl", str(ds), "-o", str(model), "--rules", "mcr", "--kind", "chi"]
    r = runner.invoke(app, [*train, "--minutes", "0.01", "--arch", "resnet", "--half"])
    assert r.exit_code == 0, r.output
    stored = torch.load(model, weights_only=True)["heads"]
    assert {v.dtype for h in stored.values() for v in h["state"].values()} >= {torch.float16}
    assert not any(v.dtype == torch.float32 for h in stored.values() for v in h["state"].values())
    bundle = ModelBundle.load(model)
    assert bundle.encoder == "mcr_stack002@1" and set(bundle.heads) == {"discard", "chi"}
    card = json.loads((tmp_path / "m.pt.discard.card.json").read_text())
    assert card["kind"] == "discard" and card["rules"] == "mcr"
    assert card["train_samples_available"] == 7345 and card["hyper_parameters"]["eval_every"] == 0

    evaluate = ["eval", "agreement", str(records), "--rules", "mcr"]
    r = runner.invoke(app, [*evaluate, "-m", str(model), "--split", "dev", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert {"discards", "top1", "top2", "top3", "games", "encoder", "model", "split"} <= set(report)
    assert (report["rules"], report["split"], report["games"]) == ("mcr", "dev", 13)
    assert report["discards"]["n"] == 1079 and report["top1"] == report["discards"]["top1"]
    assert 0.0 < report["top1"] <= report["top2"] <= report["top3"] <= 1.0
    assert report["chi"]["n"] == 159 and len(report["chi"]["confusion"]) == 4
    assert "peng" not in report  # no such head in this model

    # The shipped MCR weights, human-readable output.
    r = runner.invoke(app, [*evaluate, "--split", "test"])
    assert r.exit_code == 0, r.output
    assert "games 12 (split test); model default (mcr_stack002@1)" in r.stdout
    assert "discards 753: top-1" in r.stdout
    for kind in ("chi", "peng", "gang"):
        assert f"\n{kind} " in r.stdout
    assert "always pass" in r.stdout and "F1" in r.stdout


def test_a_model_of_the_other_rules_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tenpai.agents.sl_mcr import resolve_mcr_model_path
    from tenpai.models.bundle import ModelError, resolve_model_path

    try:
        riichi, mcr = resolve_model_path("default"), resolve_mcr_model_path("default")
    except ModelError:
        pytest.skip("default weights not installed")
    r = runner.invoke(
        app, ["eval", "agreement", str(tmp_path), "--rules", "mcr", "-m", str(riichi)]
    )
    assert r.exit_code == 2
    assert "is a riichi model" in r.stderr and "--rules riichi" in r.stderr
    r = runner.invoke(app, ["eval", "agreement", str(tmp_path), "-m", str(mcr)])
    assert r.exit_code == 2
    assert "is a mcr model" in r.stderr and "--rules mcr" in r.stderr
    # Adding an MCR head to a Riichi model file: refused before any data is read.
    ds = _fake_dataset(tmp_path / "ds", "mcr")
    copy = tmp_path / "riichi.pt"
    copy.write_bytes(riichi.read_bytes())
    r = runner.invoke(app, ["train", "sl", str(ds), "-o", str(copy), "--kind", "chi"])
    assert r.exit_code == 2
    assert "reads gao" in r.stderr and "heads of one model must share an encoder" in r.stderr


def test_rules_must_match_the_dataset_manifest(tmp_path: Path) -> None:
    riichi = _fake_dataset(tmp_path / "riichi", "riichi")
    r = runner.invoke(
        app, ["train", "sl", str(riichi), "-o", str(tmp_path / "m.pt"), "--rules", "mcr"]
    )
    assert r.exit_code == 2
    assert "is a riichi dataset" in r.stderr and "--rules mcr was given" in r.stderr
    mcr = _fake_dataset(tmp_path / "mcr", "mcr")
    r = runner.invoke(
        app, ["train", "sl", str(mcr), "-o", str(tmp_path / "m.pt"), "--rules", "riichi"]
    )
    assert r.exit_code == 2 and "is a mcr dataset" in r.stderr
    r = runner.invoke(app, ["train", "sl", str(mcr), "-o", str(tmp_path / "m.pt"), "--kind", "pon"])
    assert r.exit_code == 2 and "'pon'" in r.stderr and "peng" in r.stderr
    old = tmp_path / "old"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({"format": "tenpai-sl-mcr-dataset/1"}))
    r = runner.invoke(app, ["train", "sl", str(old), "-o", str(tmp_path / "m.pt")])
    assert r.exit_code == 2 and "rebuild it with tenpai dataset build --rules mcr" in r.stderr


def test_filters_without_meaning_for_mcr_records_are_refused(tmp_path: Path) -> None:
    build = ["dataset", "build", str(tmp_path), str(tmp_path / "o"), "--rules", "mcr"]
    r = runner.invoke(app, [*build, "--room", "houou", "--max-loss", "0"])
    assert r.exit_code == 2
    assert "--room, --max-loss do not apply to --rules mcr records" in r.stderr
    r = runner.invoke(
        app, ["eval", "agreement", str(tmp_path), "--rules", "mcr", "--max-loss", "0"]
    )
    assert r.exit_code == 2 and "--max-loss does not apply to --rules mcr" in r.stderr
    r = runner.invoke(app, [*build[:4], "--rules", "nope"])
    assert r.exit_code == 2 and "unknown rules 'nope'; known: riichi, mcr, suits108" in r.stderr


def test_bad_mcr_build_inputs_exit_with_2(tmp_path: Path) -> None:
    def build(*args: str) -> tuple[int, str]:
        r = runner.invoke(app, ["dataset", "build", *args, "--rules", "mcr"])
        return r.exit_code, r.stderr

    code, err = build(str(tmp_path / "nope"), str(tmp_path / "o"))
    assert code == 2 and "no such file or folder" in err
    code, err = build(str(tmp_path), str(tmp_path / "o"), "-e", "mcr_nothing")
    assert code == 2 and "unknown mcr encoder" in err
    code, err = build(str(tmp_path), str(tmp_path / "o"), "-e", "gao68")
    assert code == 2 and "gao68 is a riichi encoder" in err
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x")
    code, err = build(str(tmp_path / "full"), str(tmp_path / "o"))  # a folder without MCR games
    assert code == 2 and "no mcr game" in err
    assert not (tmp_path / "o" / "manifest.json").exists()

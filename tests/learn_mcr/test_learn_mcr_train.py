"""The shared trainer on an MCR dataset: MCR's defaults from the registry, one check per epoch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset  # noqa: E402
from tenpai.learn.rulesets import get_rules  # noqa: E402
from tenpai.models.bundle import ModelBundle  # noqa: E402
from tenpai.train.sl import TrainConfig, resolve_config, train_head  # noqa: E402

TEXT = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def test_unset_fields_take_the_rule_sets_defaults() -> None:
    mcr = resolve_config(TrainConfig(kind="chi"), get_rules("mcr"))
    assert (mcr.batch_size, mcr.weight_decay, mcr.patience, mcr.eval_every) == (128, 1e-4, 8, 0)
    assert (mcr.max_minutes, mcr.dev_limit, mcr.max_epochs) == (0.5, None, 200)
    assert resolve_config(TrainConfig(), get_rules("mcr")).max_minutes == 2.5
    riichi = resolve_config(TrainConfig(batch_size=64), get_rules("riichi"))
    assert (riichi.batch_size, riichi.eval_every, riichi.dev_limit) == (64, 50_000, 20_000)


def test_a_head_trains_in_epochs_on_botzone_games(data_dir: Path, tmp_path: Path) -> None:
    src = data_dir / TEXT
    if not src.is_file():
        pytest.skip(f"{TEXT} not in the shared data")
    ds = tmp_path / "ds"
    opts = BuildOptions.for_rules("mcr", kinds=("discard",), splits=("train",))
    manifest = build_dataset([src], ds, opts)
    assert manifest["rules"] == "mcr" and manifest["encoder"] == "mcr_stack002@1"
    cfg = TrainConfig(kind="discard", max_epochs=3, dev_split="train", dev_limit=None, seed=1)
    card = train_head(ds, tmp_path / "m.pt", cfg, log=lambda _s: None)
    # Whole epochs: one dev check after each of the three, then the final one.
    assert [h["samples"] for h in card["history"][:3]] == [
        pytest.approx(card["train_samples_available"] * e, abs=2) for e in (1, 2, 3)
    ]
    assert card["rules"] == "mcr" and card["hyper_parameters"]["batch_size"] == 128
    assert card["config"] == get_rules("mcr").arch_config("resnet", (19, 34), 34, "discard")
    bundle = ModelBundle.load(tmp_path / "m.pt")
    assert bundle.encoder == "mcr_stack002@1" and set(bundle.heads) == {"discard"}


def test_an_old_separate_mcr_dataset_asks_for_a_rebuild(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "tenpai-sl-mcr-dataset/1"}))
    with pytest.raises(DatasetError, match="rebuild it with tenpai dataset build --rules mcr"):
        train_head(tmp_path, tmp_path / "m.pt", TrainConfig(), log=lambda _s: None)

"""Issue-19 models and losses: seq_gru reads the past through its GRU; weighted and focal loss."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("torch")

import torch

from tenpai.models.build import build_model
from tenpai.models.losses import class_weights, make_loss
from tenpai.models.networks import ModelConfigError


def _rows(batch: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 5, (batch, 91, 34), generator=g, dtype=torch.uint8)


def test_seq_gru_scores_every_class_and_reads_the_past_turns() -> None:
    torch.manual_seed(0)
    model = build_model({"arch": "seq_gru", "in_channels": 91, "classes": 34}).eval()
    x = _rows(4, 1)
    out = model(x)
    assert out.shape == (4, 34)
    older = x.clone()
    older[:, :9] = 0  # the oldest turn only reaches the trunk through the GRU
    assert not torch.allclose(model(older), out)
    context = x.clone()
    context[:, 63:] = 0
    assert not torch.allclose(model(context), out)
    out.sum().backward()
    gru = model.gru
    assert isinstance(gru, torch.nn.GRU)
    assert all(p.grad is not None for p in gru.parameters())


def test_seq_gru_refuses_an_input_too_small_for_its_steps() -> None:
    with pytest.raises(ModelConfigError, match="cannot hold"):
        build_model({"arch": "seq_gru", "in_channels": 40, "classes": 34})


def test_class_weights_balance_the_classes() -> None:
    w = class_weights([900, 100, 0])
    assert float(w[2]) == 0.0
    # each seen class carries the same total weight, and the weighted count stays N
    assert torch.isclose(w[0] * 900, w[1] * 100)
    assert torch.isclose((w * torch.tensor([900.0, 100.0, 0.0])).sum(), torch.tensor(1000.0))
    mild = class_weights([900, 100], power=0.5)
    assert 1.0 < float(mild[1] / mild[0]) < float(w[1] / w[0])
    with pytest.raises(ValueError):
        class_weights([0, 0])


def test_losses_reduce_to_cross_entropy_when_they_should() -> None:
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(32, 4, generator=g)
    y = torch.randint(0, 4, (32,), generator=g)
    ce = torch.nn.functional.cross_entropy(logits, y)
    assert torch.isclose(make_loss("focal", gamma=0.0)(logits, y), ce)
    assert torch.isclose(make_loss("weighted", weights=torch.ones(4))(logits, y), ce)
    assert make_loss("focal", gamma=2.0)(logits, y) < ce  # easy samples count less
    heavy = make_loss("weighted", weights=torch.tensor([0.1, 1.0, 1.0, 1.0]))
    assert not torch.isclose(heavy(logits, y), ce)
    with pytest.raises(ValueError, match="unknown loss"):
        make_loss("hinge")
    with pytest.raises(ValueError, match="needs class weights"):
        make_loss("weighted")


@pytest.mark.parametrize("loss", ["weighted", "focal"])
def test_train_sl_with_another_loss_records_it(
    gao56_discards: Callable[[int], Path], tmp_path: Path, loss: str
) -> None:
    from tenpai.models.bundle import ModelBundle
    from tenpai.train.sl import TrainConfig, train_head

    ds = gao56_discards(2)
    cfg = TrainConfig(
        kind="discard",
        arch="resnet",
        arch_options={"width": 8, "blocks": 1},
        max_samples=512,
        eval_every=0,
        dev_split="train",
        loss=loss,
        seed=1,
    )
    card = train_head(ds, tmp_path / "m.pt", cfg, log=lambda _s: None)
    assert card["hyper_parameters"]["loss"] == loss
    assert "discard" in ModelBundle.load(tmp_path / "m.pt").heads
    from tenpai.learn.shard_metrics import score_dataset

    scored = score_dataset(tmp_path / "m.pt", ds, "train")["discard"]
    assert scored["n"] == card["train_samples_available"]
    assert 0.0 <= scored["top1"] <= scored["top2"] <= scored["top3"] <= 1.0
    with pytest.raises(ValueError, match="unknown loss"):
        train_head(ds, tmp_path / "n.pt", TrainConfig(loss="hinge", dev_split="train"))


def test_seq7_and_seq_gru_through_build_train_and_eval(data_dir: Path, tmp_path: Path) -> None:
    """The three commands select the new encoder and arch by name, end to end."""
    import json

    from typer.testing import CliRunner

    from tenpai.cli.main import app

    folder = data_dir / "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"
    if not folder.is_dir():
        pytest.skip("the small Houou folder is not in the shared data")
    runner = CliRunner()
    ds, out = tmp_path / "ds", tmp_path / "m.pt"
    r = runner.invoke(
        app,
        ["dataset", "build", str(folder), str(ds), "-e", "seq7", "--kinds", "discard",
         "--games", "12"],
    )  # fmt: skip  (the twelfth game is the folder's first dev game)
    assert r.exit_code == 0, r.output
    tiny = '{"width": 8, "blocks": 1, "hidden": 16, "step_width": 8}'
    r = runner.invoke(
        app,
        ["train", "sl", str(ds), "-o", str(out), "--arch", "seq_gru", "--arch-options", tiny,
         "--max-samples", "256", "--eval-every", "0", "--seed", "2"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    r = runner.invoke(
        app, ["eval", "agreement", str(folder), "--model", str(out), "--games", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["encoder"] == "seq7@1" and report["discards"]["n"] > 100


def test_select_by_f1_keeps_the_checkpoint_with_the_best_call_f1(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A weighted call head is chosen by its F1 of "called", not by cross-entropy."""
    from tenpai.learn.dataset import BuildOptions, build_dataset
    from tenpai.train.sl import TrainConfig, train_head

    src = data_dir / "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"
    if not src.is_dir():
        pytest.skip("the small Houou folder is not in the shared data")
    ds = tmp_path / "ds"
    build_dataset([src], ds, BuildOptions(encoder="gao56", kinds=("pon",), limit=6))
    cfg = TrainConfig(
        kind="pon", arch="resnet", arch_options={"width": 8, "blocks": 1}, max_samples=2048,
        eval_every=256, patience=100, dev_split="train", loss="weighted", seed=2,
        select_by="f1", batch_size=64,
    )  # fmt: skip
    card = train_head(ds, tmp_path / "m.pt", cfg, log=lambda _s: None)
    f1s = [m["f1"] for m in card["history"]]
    assert len(f1s) >= 8 and all(0.0 <= f <= 1.0 for f in f1s)
    assert card["dev_best"]["f1"] == max(f1s)
    assert card["hyper_parameters"]["select_by"] == "f1"
    # Scripted dev figures where the two criteria disagree: loss is best at the second check,
    # F1 at the fourth; every later evaluation is worse on both.
    import tenpai.train.sl as sl

    script = [(0.60, 0.10), (0.50, 0.20), (0.55, 0.30), (0.58, 0.40)]
    for select_by, want in (("f1", 3), ("loss", 1)):
        figures = iter(script)

        def scripted(*_a: object, figures: Iterator[tuple[float, float]] = figures,
                     **_k: object) -> dict[str, float]:  # fmt: skip
            loss, f1 = next(figures, (0.90, 0.0))
            return {"loss": loss, "top1": 0.5, "n": 1.0, "f1": f1}

        monkeypatch.setattr(sl, "evaluate", scripted)
        run = replace(cfg, select_by=select_by)
        got = train_head(ds, tmp_path / f"{select_by}.pt", run, log=lambda _s: None)
        assert len(got["history"]) > len(script)
        assert (got["dev_best"]["loss"], got["dev_best"]["f1"]) == script[want]
    monkeypatch.undo()
    with pytest.raises(ValueError, match="select_by f1 is for call"):
        train_head(ds, tmp_path / "d.pt", replace(cfg, kind="discard"), log=lambda _s: None)
    with pytest.raises(ValueError, match="unknown select_by"):
        train_head(ds, tmp_path / "d.pt", replace(cfg, select_by="auc"), log=lambda _s: None)

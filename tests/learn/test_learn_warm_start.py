"""Continuing a head from an existing model and the cosine learning-rate schedule."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from tenpai.models.build import build_model  # noqa: E402
from tenpai.models.bundle import Head, ModelBundle, ModelError  # noqa: E402
from tenpai.train.sl import TrainConfig, _warm_start, scheduled_lr, train_head  # noqa: E402

HEAD = {"arch": "resnet", "in_channels": 57, "classes": 34, "width": 8, "blocks": 1}


def test_constant_schedule_keeps_the_rate() -> None:
    cfg = TrainConfig(lr=3e-4)
    assert [scheduled_lr(cfg, p) for p in (0.0, 0.5, 1.0)] == [3e-4] * 3


def test_cosine_schedule_falls_from_lr_to_lr_min() -> None:
    cfg = TrainConfig(lr=1e-3, lr_min=1e-5, schedule="cosine")
    assert math.isclose(scheduled_lr(cfg, 0.0), 1e-3)
    assert math.isclose(scheduled_lr(cfg, 0.5), (1e-3 + 1e-5) / 2)
    assert math.isclose(scheduled_lr(cfg, 1.0), 1e-5)
    assert math.isclose(scheduled_lr(cfg, 7.0), 1e-5)  # past the budget: stays at the floor
    rates = [scheduled_lr(cfg, i / 10) for i in range(11)]
    assert all(a > b for a, b in itertools.pairwise(rates))


def _parent(tmp_path: Path) -> Path:
    torch.manual_seed(5)
    bundle = ModelBundle("gao56@1")
    card = {"kind": "discard", "cpu_minutes": 2.5}
    bundle.heads["discard"] = Head("discard", HEAD, build_model(HEAD).eval(), card)
    path = tmp_path / "parent.pt"
    bundle.save(path)
    return path


def test_warm_start_takes_the_parent_head(tmp_path: Path) -> None:
    path = _parent(tmp_path)
    config, module, card = _warm_start(
        TrainConfig(kind="discard", init_from=str(path)), {"encoder": "gao56@1"}
    )
    assert config == HEAD and card["cpu_minutes"] == 2.5
    parent = ModelBundle.load(path).heads["discard"].module.state_dict()
    assert all(torch.equal(parent[k], v) for k, v in module.state_dict().items())


@pytest.mark.parametrize(
    "cfg, encoder, message",
    [
        (TrainConfig(kind="pon"), "gao56@1", "no 'pon' head"),
        (TrainConfig(kind="discard"), "gao86@1", "reads gao56@1"),
        (TrainConfig(kind="discard", arch="gao_cnn"), "gao56@1", "keeps the discard head"),
        (TrainConfig(kind="discard", arch_options={"width": 16}), "gao56@1", "keeps the"),
    ],
)
def test_warm_start_refuses_mismatches(
    tmp_path: Path, cfg: TrainConfig, encoder: str, message: str
) -> None:
    cfg.init_from = str(_parent(tmp_path))
    with pytest.raises(ModelError, match=message):
        _warm_start(cfg, {"encoder": encoder})


def test_unknown_schedule_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown schedule"):
        train_head(tmp_path, tmp_path / "m.pt", TrainConfig(schedule="step"))


def test_continued_run_records_its_parent(
    gao56_discards: Callable[[int], Path], tmp_path: Path
) -> None:
    ds = gao56_discards(2)
    first = tmp_path / "first.pt"
    base = TrainConfig(kind="discard", max_minutes=2, seed=3, dev_split="train", max_samples=600)
    options = {"width": 8, "blocks": 1}
    parent = train_head(ds, first, replace(base, arch_options=options), log=lambda _s: None)
    second = tmp_path / "second.pt"
    cfg = replace(base, schedule="cosine", lr_min=1e-5, init_from=str(first))
    card = train_head(ds, second, cfg, log=lambda _s: None)
    assert card["config"] == parent["config"]
    assert card["init_from"]["train_samples_seen"] == parent["train_samples_seen"]
    assert card["cpu_minutes_total"] == pytest.approx(
        card["cpu_minutes"] + parent["cpu_minutes"], abs=0.011
    )
    assert ModelBundle.load(second).heads["discard"].card["hyper_parameters"]["schedule"] == (
        "cosine"
    )


def test_encoder_mismatch_with_the_output_is_refused_before_training(
    gao56_discards: Callable[[int], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = gao56_discards(1)
    out = tmp_path / "other.pt"
    ModelBundle("gao86@1").save(out)
    before = out.read_bytes()

    def no_training(*_a: object, **_k: object) -> None:
        raise AssertionError("training started despite the encoder mismatch")

    monkeypatch.setattr("tenpai.train.sl.ShardStream", no_training)
    with pytest.raises(ModelError, match="heads of one model must share an encoder"):
        train_head(ds, out, TrainConfig(kind="discard"), log=lambda _s: None)
    assert out.read_bytes() == before

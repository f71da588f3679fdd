"""Training a head on tiny synthetic arrays: the masked loss and the kept best weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tenpai.learn.mcr.dataset import Arrays  # noqa: E402
from tenpai.learn.mcr.evaluate import agreement  # noqa: E402
from tenpai.learn.mcr.run import arch_config  # noqa: E402
from tenpai.learn.mcr.train import masked_loss, train_head  # noqa: E402
from tenpai.models.bundle import ModelBundle  # noqa: E402


def test_masked_loss_ignores_illegal_classes() -> None:
    logits = torch.tensor([[5.0, 0.0, 0.0]])
    y = torch.tensor([1])
    only_legal = masked_loss(logits, y, torch.tensor([[False, True, True]]))
    assert abs(float(only_legal) - float(np.log(2))) < 1e-5


def _learnable(n: int, seed: int) -> Arrays:
    """The label is the kind held three times: a rule a small net learns quickly."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n, 352), dtype=np.uint8)
    y = rng.integers(0, 34, n)
    for i in range(n):
        x[i, rng.choice(34, 8)] = 1
        x[i, y[i]] = 3
    legal = x[:, :34] > 0
    return Arrays(x, y.astype(np.int64), legal)


def test_a_head_learns_and_round_trips(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    config = arch_config("ffn", (352,), 34, "chi")  # the small FFN
    config["classes"] = 34
    head = train_head("discard", config, _learnable(600, 1), _learnable(200, 2),
                      minutes=0.3, max_epochs=25, seed=3)
    assert head.card["best_dev_acc"] > 0.6
    bundle = ModelBundle(encoder="mcr_ffn352@1", heads={"discard": head})
    bundle.save(tmp_path / "m.pt", half=True)
    scores = agreement(ModelBundle.load(tmp_path / "m.pt"), {"discard": _learnable(200, 4)})
    top = scores["discard"]
    assert top["top1"] > 0.6 and top["top3"] >= top["top1"]

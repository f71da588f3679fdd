"""Models, checkpoints and the training loop (skipped without torch)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tenpai.models.build import build_model  # noqa: E402
from tenpai.models.bundle import Head, ModelBundle, ModelError  # noqa: E402
from tenpai.models.planes import expand  # noqa: E402
from tenpai.train.sl import TrainConfig, masked_logits, train_head  # noqa: E402


def test_expand_fills_cells_from_the_left() -> None:
    rows = torch.tensor([[[0, 1, 4, 3]]], dtype=torch.uint8)
    planes = expand(rows)
    assert planes.shape == (1, 1, 4, 4)
    assert planes[0, 0].tolist() == [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 0]]


@pytest.mark.parametrize(
    "config, x_shape",
    [
        ({"arch": "gao_cnn", "in_channels": 57, "classes": 34}, (3, 57, 34)),
        ({"arch": "gao_cnn", "in_channels": 57, "classes": 34, "hidden": 300}, (3, 57, 34)),
        (
            {"arch": "resnet", "in_channels": 69, "classes": 4, "width": 16, "blocks": 1},
            (3, 69, 34),
        ),
        ({"arch": "ffn", "in_features": 352, "classes": 2, "hidden": [32, 16]}, (3, 352)),
    ],
)
def test_architectures_map_inputs_to_class_scores(
    config: dict[str, Any], x_shape: tuple[int, ...]
) -> None:
    torch.manual_seed(0)
    model = build_model(config).eval()
    x = torch.randint(0, 5, x_shape, dtype=torch.uint8)
    assert model(x).shape == (3, config["classes"])


def test_gao_cnn_has_the_thesis_parameter_count() -> None:
    # Fig. 6.1 lists 343,158 parameters for 68 planes, 24 of them in batch norms over the
    # width axis (12 + 8 + 4); ours normalise the 100 filters instead.  Convolutions and the
    # dense layer must match exactly.
    model = build_model({"arch": "gao_cnn", "in_channels": 68, "classes": 34})
    weights = sum(
        p.numel()
        for m in model.modules()
        if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))
        for p in m.parameters()
    )
    assert weights == 343_158 - 24


def test_unknown_arch_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown model arch"):
        build_model({"arch": "transformer"})


def test_masked_logits_hide_illegal_classes() -> None:
    logits = torch.tensor([[3.0, 1.0, 2.0]])
    legal = torch.tensor([[False, True, True]])
    assert masked_logits(logits, legal).argmax().item() == 2


def _random_bundle() -> ModelBundle:
    torch.manual_seed(1)
    b = ModelBundle("gao56@1")
    for kind, classes in (("discard", 34), ("pon", 2)):
        cfg = {"arch": "resnet", "in_channels": 57, "classes": classes, "width": 8, "blocks": 1}
        b.heads[kind] = Head(kind, cfg, build_model(cfg).eval(), {"kind": kind})
    return b


@pytest.mark.parametrize("half", [False, True])
def test_bundle_round_trip_is_weights_only(tmp_path: Path, half: bool) -> None:
    b = _random_bundle()
    path = tmp_path / "m.pt"
    b.save(path, half=half)
    again = ModelBundle.load(path)
    assert again.encoder == "gao56@1" and set(again.heads) == {"discard", "pon"}
    x = np.random.default_rng(0).integers(0, 5, (4, 57, 34), dtype=np.uint8)
    tol = 5e-2 if half else 1e-6
    assert np.allclose(b.logits("discard", x), again.logits("discard", x), atol=tol)
    payload = torch.load(path, weights_only=True)  # plain containers only
    assert json.loads(payload["heads"]["pon"]["card_json"]) == {"kind": "pon"}


def test_bad_model_files_raise_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such model"):
        ModelBundle.load(tmp_path / "missing.pt")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a readable model"):
        ModelBundle.load(junk)
    with pytest.raises(ModelError, match="no 'chi' head"):
        _random_bundle().logits("chi", np.zeros((1, 57, 34), dtype=np.uint8))


def test_training_writes_a_head_and_a_card(
    gao56_discards: Callable[[int], Path], tmp_path: Path
) -> None:
    ds = gao56_discards(4)
    out = tmp_path / "model.pt"
    cfg = TrainConfig(
        kind="discard",
        arch="resnet",
        arch_options={"width": 16, "blocks": 1},
        max_samples=1500,
        eval_every=500,
        max_minutes=2,
        seed=3,
        dev_split="train",
    )
    card = train_head(ds, out, cfg, log=lambda _s: None)
    assert card["encoder"] == "gao56@1" and card["train_samples_seen"] >= 1500
    assert card["stopped_by"] in ("sample budget", "early stopping", "max epochs")
    assert 0.0 <= card["dev_best"]["top1"] <= card["dev_best"]["top3"] <= 1.0
    # The trained head beats a uniform guess among the legal tiles (about 1 in 9).
    assert card["dev_best"]["top1"] > 0.2
    bundle = ModelBundle.load(out)
    assert bundle.heads["discard"].card["hyper_parameters"]["seed"] == 3


def test_an_ensemble_head_averages_its_members_and_survives_a_round_trip(tmp_path: Path) -> None:
    from tenpai.models.bundle import ensemble_head

    heads = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        cfg = {"arch": "resnet", "in_channels": 5, "classes": 34, "width": 8, "blocks": 1}
        heads.append(Head("discard", cfg, build_model(cfg).eval(), {"cpu_minutes": 1.5}))
    b = ModelBundle("gao56@1", {"discard": ensemble_head(heads)})
    assert b.heads["discard"].card["cpu_minutes_total"] == 3.0
    x = np.random.default_rng(0).integers(0, 5, size=(7, 5, 34)).astype(np.uint8)
    with torch.inference_mode():
        want = torch.stack([h.module(torch.from_numpy(x)) for h in heads]).mean(0).numpy()
    assert np.allclose(b.logits("discard", x), want, atol=1e-5)
    b.save(tmp_path / "e.pt")
    again = ModelBundle.load(tmp_path / "e.pt")
    assert np.allclose(again.logits("discard", x), want, atol=1e-5)
    odd = Head("pon", {**heads[0].config, "classes": 2}, heads[0].module, {})
    with pytest.raises(ModelError, match="members differ"):
        ensemble_head([heads[0], odd])


def test_an_ensemble_member_of_a_narrower_encoder_reads_the_leading_channels(
    tmp_path: Path,
) -> None:
    """A gao86e run votes in a gao86e_la ensemble, reading exactly the channels it was trained
    on; a wrong channel count or an encoder that is not a prefix is refused."""
    from tenpai.learn.dataset import DatasetError
    from tenpai.learn.project import prefix_channels
    from tenpai.models.bundle import ensemble_head
    from tenpai.models.networks import ModelConfigError

    assert prefix_channels("gao86e@1", "gao86e_la@1") == 91
    with pytest.raises(DatasetError, match="not the first channels"):
        prefix_channels("gao86e_sc", "gao86e_la")
    heads = []
    for seed, width in ((1, 4), (2, 6)):
        torch.manual_seed(seed)
        cfg = {"arch": "resnet", "in_channels": width, "classes": 34, "width": 8, "blocks": 1}
        heads.append(Head("discard", cfg, build_model(cfg).eval(), {}))
    b = ModelBundle("gao56@1", {"discard": ensemble_head(heads, takes=[4, 6])})
    x = np.random.default_rng(0).integers(0, 5, size=(7, 6, 34)).astype(np.uint8)
    t = torch.from_numpy(x)
    with torch.inference_mode():
        want = ((heads[0].module(t[:, :4]) + heads[1].module(t)) / 2).numpy()
    b.save(tmp_path / "x.pt")
    assert np.allclose(ModelBundle.load(tmp_path / "x.pt").logits("discard", x), want, atol=1e-5)
    from tenpai.models.bundle import ensemble_members

    again = ensemble_members(ModelBundle.load(tmp_path / "x.pt").heads["discard"])
    assert [h.config for h in again] == [h.config for h in heads]
    assert ensemble_members(heads[0]) == [heads[0]]
    for bad in ([4], [0, 6], [4.5, 6]):
        with pytest.raises(ModelConfigError):
            build_model({"arch": "ensemble", "members": [h.config for h in heads], "takes": bad})


def test_suit_averaged_scores_are_suit_symmetric(tmp_path: Path) -> None:
    """Relabelling the input's suits relabels the averaged discard scores the same way."""
    from tenpai.train.augment import SUIT_ORDERS

    torch.manual_seed(5)
    b = ModelBundle("gao56@1")
    for kind, classes in (("discard", 34), ("pon", 2)):
        cfg = {"arch": "resnet", "in_channels": 5, "classes": classes, "width": 8, "blocks": 1}
        b.heads[kind] = Head(kind, cfg, build_model(cfg).eval(), {})
    x = np.random.default_rng(1).integers(0, 5, size=(4, 5, 34)).astype(np.uint8)
    base = b.logits("discard", x, suit_average=True)
    plain = b.logits("discard", x)
    assert not np.allclose(base, plain)  # an untrained net is not symmetric by itself
    for order in SUIT_ORDERS[1:]:
        moved = b.logits("discard", x[:, :, order], suit_average=True)
        assert np.allclose(moved, base[:, order], atol=1e-5)
        pon = b.logits("pon", x[:, :, order], suit_average=True)
        assert np.allclose(pon, b.logits("pon", x, suit_average=True), atol=1e-5)
    with pytest.raises(ModelError, match="planes"):
        b.logits("discard", np.zeros((2, 170), np.uint8), suit_average=True)

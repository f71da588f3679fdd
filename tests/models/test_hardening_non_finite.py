"""Issue 39, item 9: a model whose weights are NaN (or any weight infinite) is refused with one
line naming the file and the tensor; before, it loaded and played (every score NaN, so an
arbitrary legal action each time)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

torch = pytest.importorskip("torch")

from tenpai.cli.main import app  # noqa: E402
from tenpai.models.build import build_model  # noqa: E402
from tenpai.models.bundle import FORMAT, ModelBundle, ModelError, resolve_model_path  # noqa: E402

_SMALL = {"arch": "resnet", "in_channels": 4, "classes": 34, "width": 8, "blocks": 1}


def _small(tmp_path: Path, poison: Any) -> Path:
    module = build_model(_SMALL)
    state = {k: v.clone() for k, v in module.state_dict().items()}
    poison(state)
    p = tmp_path / "m.pt"
    torch.save({"format": FORMAT, "encoder": "gao56", "heads": {"discard": {
        "config_json": json.dumps(_SMALL), "card_json": "{}", "state": state}}}, p)
    return p


def _all_nan(state: dict[str, Any]) -> None:
    for v in state.values():
        if v.is_floating_point():
            v.fill_(float("nan"))


def _one_inf(state: dict[str, Any]) -> None:
    name = next(k for k, v in state.items() if v.is_floating_point() and v.numel() > 1)
    state[name].view(-1)[1] = float("inf")


@pytest.mark.parametrize("poison", [_all_nan, _one_inf])
def test_non_finite_weights_are_refused(tmp_path: Path, poison: Any) -> None:
    path = _small(tmp_path, poison)
    with pytest.raises(ModelError, match="NaN or infinite") as err:
        ModelBundle.load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_the_shipped_models_are_finite() -> None:
    assert ModelBundle.load(resolve_model_path("default")).heads


def _nan_sl_model(tmp_path: Path) -> Path:
    """The shipped sl model with every weight NaN, saved as a model file."""
    bundle = ModelBundle.load(resolve_model_path("default"))
    for head in bundle.heads.values():
        with torch.no_grad():
            for p in head.module.parameters():
                p.fill_(float("nan"))
    out = tmp_path / "nan.pt"
    bundle.save(out)
    return out


def test_an_agent_with_a_nan_model_does_not_play(tmp_path: Path) -> None:
    model = _nan_sl_model(tmp_path)
    res = CliRunner().invoke(app, ["arena", "--agents", "sl_model,random,random,random",
                                   "--games", "4", "--workers", "1", "--no-progress"],
                             env={"TENPAI_SL_MODEL": str(model)})
    assert res.exit_code == 2, (res.output[-800:], res.exception)
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in res.stderr, res.stderr
    assert "NaN or infinite" in err[0] and str(model) in err[0]


def test_an_mcts_model_with_nan_weights(tmp_path: Path) -> None:
    from tenpai.mcts.model import MCTSModel, MCTSModelError, resolve_model

    model = MCTSModel.load(resolve_model("default"))
    with torch.no_grad():
        next(iter(model.net.parameters())).fill_(float("nan"))
    out = tmp_path / "mcts.pt"
    model.save(out)
    with pytest.raises(MCTSModelError, match="NaN or infinite"):
        MCTSModel.load(out)

"""Issue 20, second group: model files that load but are malformed, and hostile arch options,
end in a typed error naming the file and head; no config may allocate an absurd network."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from tenpai.models.build import build_model  # noqa: E402
from tenpai.models.bundle import FORMAT, ModelBundle, ModelError, resolve_model_path  # noqa: E402
from tenpai.models.networks import MAX_PARAMETERS, ModelConfigError  # noqa: E402

_SMALL = {"arch": "resnet", "in_channels": 4, "classes": 34, "width": 8, "blocks": 1}


def _payload(config: dict[str, Any]) -> dict[str, Any]:
    module = build_model(config)
    return {"format": FORMAT, "encoder": "gao56", "heads": {"discard": {
        "config_json": json.dumps(config), "card_json": "{}",
        "state": {k: v.clone() for k, v in module.state_dict().items()}}}}


def _save(tmp_path: Path, payload: Any) -> Path:
    p = tmp_path / "m.pt"
    torch.save(payload, p)
    return p


def test_a_well_formed_file_still_loads(tmp_path: Path) -> None:
    bundle = ModelBundle.load(_save(tmp_path, _payload(_SMALL)))
    assert list(bundle.heads) == ["discard"]
    assert ModelBundle.load(resolve_model_path("default")).heads  # the shipped model


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.pop("heads"), "lacks its encoder name or its heads"),
    (lambda p: p["heads"]["discard"].pop("state"), "lacks its config or its weights"),
    (lambda p: p["heads"]["discard"]["state"].pop("head.4.weight"), "missing ['head.4.weight']"),
    (lambda p: p["heads"]["discard"]["state"].update(x=torch.zeros(1)), "unexpected ['x']"),
    (lambda p: p["heads"]["discard"]["state"].update({"head.4.bias": torch.zeros(7)}),
     "has shape (7,), the network needs (34,)"),
    (lambda p: p["heads"]["discard"].update(config_json="{"), "not JSON"),
    (lambda p: p["heads"]["discard"].update(state=[1, 2]), "not a table of tensors"),
])
def test_malformed_files_give_model_errors(tmp_path: Path, damage: Any, message: str) -> None:
    payload = _payload(_SMALL)
    damage(payload)
    with pytest.raises(ModelError) as info:
        ModelBundle.load(_save(tmp_path, payload))
    assert message in str(info.value) and "m.pt" in str(info.value)


def test_an_absurd_width_in_a_file_is_refused_before_allocating(tmp_path: Path) -> None:
    payload = _payload(_SMALL)
    payload["heads"]["discard"]["config_json"] = json.dumps({**_SMALL, "width": 1_000_000})
    start = time.monotonic()
    with pytest.raises(ModelError, match="parameters; the limit is"):
        ModelBundle.load(_save(tmp_path, payload))
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("options, message", [
    ({"width": "x"}, "'width' must be a whole number"),
    ({"width": True}, "'width' must be a whole number"),
    ({"width": -3}, "'width' must be a whole number"),
    ({"dropout": "0.1"}, "'dropout' must be a number"),
    ({"wdth": 3}, "takes no option 'wdth'"),
    ({"blocks": 10_000, "width": 512}, "parameters; the limit is"),
])
def test_bad_arch_options_are_config_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ModelConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        build_model({**_SMALL, **options})
    assert MAX_PARAMETERS >= 10_000_000


@pytest.mark.corpus
def test_train_sl_with_a_non_numeric_width_is_a_clear_error(data_dir: Path,
                                                             tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app
    from tenpai.learn.dataset import BuildOptions, build_dataset

    src = data_dir / "riichi" / "tenhou_mjlog" / "thewaxmango_mahjong-hands" / "logs_2022-01"
    if not src.is_dir():
        pytest.skip("the small Houou folder is not in the shared data")
    ds = tmp_path / "ds"
    build_dataset([src], ds, BuildOptions(encoder="gao56", kinds=("discard",), limit=1))
    res = CliRunner().invoke(app, ["train", "sl", str(ds), "--kind", "discard",
                                   "--arch-options", '{"width": "x"}', "--out",
                                   str(tmp_path / "m.pt")])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2
    assert "'width' must be a whole number >= 0, not 'x'" in " ".join(res.output.split())

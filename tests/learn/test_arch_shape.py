"""Issue 20 (recheck): ``train sl --arch ffn`` on a plane dataset (and a plane network on a flat
one) is one line, not a torch shape error from inside the first batch."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app


@pytest.fixture(scope="module")
def plane_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two 108-tile games recorded and built (planes (43, 34)); no shared data needed."""
    root = tmp_path_factory.mktemp("s108")
    run = CliRunner().invoke
    assert run(app, ["dataset", "record", str(root / "recs"), "--rules", "suits108",
                     "--games", "2"]).exit_code == 0
    assert run(app, ["dataset", "build", str(root / "recs"), str(root / "ds"),
                     "--rules", "suits108"]).exit_code == 0
    return root / "ds"


def test_ffn_on_planes_is_one_line(plane_dataset: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    res = CliRunner().invoke(app, ["train", "sl", str(plane_dataset), "--out",
                                   str(tmp_path / "m.pt"), "--arch", "ffn", "--minutes", "0.05"])
    assert res.exit_code == 2  # before: exit 1 with a RuntimeError traceback (6493x34 · 43x1024)
    assert res.stderr.strip().splitlines() == [
        f"error: {plane_dataset}: --arch ffn needs a flat encoder such as ffn352; this "
        "dataset's encoder s108@1 gives shape (43, 34)"]
    assert not (tmp_path / "m.pt").exists()

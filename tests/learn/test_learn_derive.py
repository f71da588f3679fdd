"""Deriving gao86e shards from gao86 ones gives what a direct gao86e build writes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset, load_manifest
from tenpai.learn.derive import derive_dataset

FOLDER = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"


def test_derived_shards_equal_a_direct_build(data_dir: Path, tmp_path: Path) -> None:
    src = data_dir / FOLDER
    if not src.is_dir():
        pytest.skip(f"{FOLDER} not in the shared data")
    build_dataset([src], tmp_path / "a", BuildOptions(encoder="gao86", limit=2, shard_size=400))
    build_dataset([src], tmp_path / "b", BuildOptions(encoder="gao86e", limit=2, shard_size=400))
    derived = derive_dataset(tmp_path / "a", tmp_path / "c")
    direct = load_manifest(tmp_path / "b")
    assert derived["encoder"] == direct["encoder"] == "gao86e@1"
    assert derived["shape"] == direct["shape"] and derived["counts"] == direct["counts"]
    assert derived["derived_from"]["encoder"] == "gao86@1"
    assert len(direct["shards"]) > 3
    for shard in direct["shards"]:
        with np.load(tmp_path / "b" / shard["path"]) as want, np.load(
            tmp_path / "c" / shard["path"]
        ) as got:
            assert set(want.files) == set(got.files)
            for name in want.files:
                assert np.array_equal(want[name], got[name]), (shard["path"], name)
    with pytest.raises(DatasetError, match="already holds a dataset"):
        derive_dataset(tmp_path / "a", tmp_path / "c")
    with pytest.raises(DatasetError, match="cannot derive gao86e from gao86e@1"):
        derive_dataset(tmp_path / "b", tmp_path / "d")


def test_derive_command_reports_and_refuses_clearly(data_dir: Path, tmp_path: Path) -> None:
    src = data_dir / FOLDER
    if not src.is_dir():
        pytest.skip(f"{FOLDER} not in the shared data")
    build_dataset([src], tmp_path / "a", BuildOptions(encoder="gao68", limit=1, shard_size=400))
    runner = CliRunner()
    r = runner.invoke(app, ["dataset", "derive", str(tmp_path / "a"), str(tmp_path / "b")])
    assert r.exit_code == 2 and "cannot derive gao86e from gao68@1" in r.output
    assert not (tmp_path / "b" / "manifest.json").exists()
    r = runner.invoke(app, ["dataset", "derive", str(tmp_path / "none"), str(tmp_path / "c")])
    assert r.exit_code == 2 and "no manifest" in r.output

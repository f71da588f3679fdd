"""Dataset build: shards match the manifest, the split rule is stable, bad targets are refused."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tenpai.learn.dataset import (
    BuildOptions,
    DatasetError,
    build_dataset,
    load_manifest,
    shard_paths,
    split_of,
)

FOLDER = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"


def test_split_rule_is_a_fixed_hash_of_the_game_id() -> None:
    assert split_of("2022010115gm-00a9-0000-8afc6ce8") == split_of(
        "2022010115gm-00a9-0000-8afc6ce8"
    )
    shares = Counter(split_of(f"game-{i}") for i in range(20000))
    assert abs(shares["train"] / 20000 - 0.90) < 0.01
    assert abs(shares["dev"] / 20000 - 0.05) < 0.01
    # Pinned: changing the rule would silently move games between train and test.
    assert [split_of(f"g{i}") for i in range(11)] == _PINNED


_PINNED = ["train"] * 5 + ["test"] + ["train"] * 4 + ["dev"]


@pytest.fixture(scope="module")
def built(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = data_dir / FOLDER
    if not src.is_dir():
        pytest.skip(f"{FOLDER} not in the shared data")
    out = tmp_path_factory.mktemp("ds") / "gao68"
    build_dataset([src], out, BuildOptions(encoder="gao68", limit=3, shard_size=500))
    return out


def test_manifest_counts_equal_the_shards(built: Path) -> None:
    m = load_manifest(built)
    assert m["encoder"] == "gao68@1" and m["shape"] == [69, 34]
    assert sum(m["games_per_split"].values()) == len(m["games"]) == 3
    for split, counts in m["counts"].items():
        for kind, n in counts.items():
            total = 0
            for p in shard_paths(built, split, kind):
                with np.load(p) as z:
                    assert z["x"].shape[1:] == (69, 34) and z["x"].dtype == np.uint8
                    assert len(z["y"]) == len(z["legal"]) == len(z["game"]) == len(z["x"])
                    legal = z["legal"]
                    assert legal[np.arange(len(z["y"])), z["y"]].all()
                    total += len(z["y"])
            assert total == n, (split, kind)
    assert not list(built.rglob("*.tmp*"))
    assert m["options"]["max_loss"] == 1500 and m["options"]["rooms"] == ["houou"]
    json.dumps(m)


def test_games_land_in_the_split_of_their_id(built: Path) -> None:
    m = load_manifest(built)
    for s in m["shards"]:
        with np.load(built / s["path"]) as z:
            for g in set(z["game"].tolist()):
                assert split_of(m["games"][g]) == s["split"]


def test_existing_dataset_and_unknown_options_are_refused(built: Path, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="already holds a dataset"):
        build_dataset([], built, BuildOptions())
    with pytest.raises(DatasetError, match="unknown riichi decision kind"):
        build_dataset([], tmp_path / "x", BuildOptions(kinds=("tsumo",)))
    with pytest.raises(DatasetError, match="no manifest"):
        load_manifest(tmp_path)


def test_worker_processes_write_the_same_dataset(
    built: Path, data_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "two"
    opts = BuildOptions(encoder="gao68", limit=3, shard_size=500)
    build_dataset([data_dir / FOLDER], out, opts, workers=2)
    one, two = load_manifest(built), load_manifest(out)
    for key in ("games", "counts", "skipped", "shards", "sources"):
        assert one[key] == two[key], key
    for shard in one["shards"]:
        with np.load(built / shard["path"]) as a, np.load(out / shard["path"]) as b:
            for name in a.files:
                assert np.array_equal(a[name], b[name]), (shard["path"], name)

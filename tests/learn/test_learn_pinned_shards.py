"""Pinned digests of small datasets of every rule set: a refactor must not change the data.

The Riichi and MCR digests were computed from datasets written by the two separate pipelines
that came before the shared layer (their arrays, per split and kind, with each row's game id),
so they also prove that the shared builder writes what the old ones wrote.  The digest does
not depend on the shard layout: rows are gathered per (split, kind) in shard order (the old MCR
builder also wrote empty arrays where the shared one writes no shard).  If one of these fails,
an encoder, a decision rule or the builder changed: that is a new encoder version or a
documented change, never a silent one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from tenpai.learn.dataset import BuildOptions, build_dataset, load_manifest

RIICHI = "riichi/tenhou_mjlog/thewaxmango_mahjong-hands/logs_2022-01"
MCR = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def dataset_digest(root: Path) -> str:
    """SHA-256 over each (split, kind)'s x, y (as int64), legal and row game ids."""
    manifest = load_manifest(root)
    parts: dict[tuple[str, str], list[tuple[np.ndarray, ...]]] = {}
    ids: dict[tuple[str, str], list[str]] = {}
    for shard in manifest["shards"]:
        key = (shard["split"], shard["kind"])
        with np.load(root / shard["path"]) as z:
            parts.setdefault(key, []).append((z["x"], z["y"], z["legal"]))
            ids.setdefault(key, []).extend(manifest["games"][i] for i in z["game"])
    h = hashlib.sha256()
    for key in sorted(parts):
        x, y, legal = (np.concatenate([p[i] for p in parts[key]]) for i in range(3))
        h.update(repr(key).encode())
        h.update(np.ascontiguousarray(x).tobytes())
        h.update(y.astype(np.int64).tobytes())
        h.update(np.ascontiguousarray(legal).tobytes())
        h.update("\n".join(ids[key]).encode())
    return h.hexdigest()


@pytest.mark.parametrize(
    ("rules", "source", "changes", "digest"),
    [
        (
            "riichi",
            RIICHI,
            {"encoder": "gao86e", "limit": 4, "rooms": None, "shard_size": 400},
            "52147ff81b39260ea107ae11e43ef069906fe1407f09897485955c02252e3c7e",
        ),
        ("mcr", MCR, {}, "da8bc6df4fe4c0ceb8d01ec86e0c8771e0bd8a07c9500c3058655ad85f15b8f7"),
        (
            "mcr",
            MCR,
            {"encoder": "mcr_ffn352"},
            "6209b67a6ed984ef9bd974b8f2f55730ec53d4f89e63ed46eaf8b77832c6a69c",
        ),
    ],
)
def test_record_datasets_keep_their_digest(
    data_dir: Path,
    tmp_path: Path,
    rules: str,
    source: str,
    changes: dict[str, object],
    digest: str,
) -> None:
    src = data_dir / source
    if not src.exists():
        pytest.skip(f"{source} not in the shared data")
    build_dataset([src], tmp_path / "ds", BuildOptions.for_rules(rules, **changes))
    assert dataset_digest(tmp_path / "ds") == digest


def test_suits108_selfplay_dataset_keeps_its_digest(tmp_path: Path) -> None:
    from tenpai.agents import make_agent
    from tenpai.learn.suits108.records import write_selfplay_records

    write_selfplay_records(tmp_path / "rec", 2, ["expert", "efficiency"] * 2, 5, make_agent)
    build_dataset([tmp_path / "rec"], tmp_path / "ds", BuildOptions.for_rules("suits108"))
    digest = "60ff0cb30100576635e939204a64512ae672a1604afb132daa082dea2e4d86e3"
    assert dataset_digest(tmp_path / "ds") == digest

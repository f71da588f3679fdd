"""Turn a built ``gao86`` dataset into a ``gao86e`` one without replaying the records.

Replaying two thousand Houou games takes most of an hour on one core; the efficiency channels
of ``gao86e`` only need the viewer's hand and the tiles it has seen, which ``gao86`` shards
already store as exact counts (hand, four rivers, four melds, dora indicators).  So the new
channels are computed from the stored rows and appended, and everything else — labels, legal
masks, game indices, splits, options, skipped games — is carried over.  A test checks that a
derived shard equals the one ``dataset build --encoder gao86e`` writes for the same games.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.atomic import atomic_path, write_text_atomic
from tenpai.learn.dataset import DatasetError, load_manifest
from tenpai.learn.encoders.efficiency import WIDTH, efficiency_rows
from tenpai.learn.rulesets import get_encoder

__all__ = ["DERIVABLE", "derive_dataset"]

#: (source encoder tag, target encoder name) pairs this module can convert.
DERIVABLE = {("gao86@1", "gao86e")}

_HAND, _RIVERS, _MELDS, _DORA = 0, slice(2, 6), slice(6, 10), 10


def extend_rows(x: np.ndarray) -> np.ndarray:
    """(N, 87, 34) ``gao86`` rows → (N, 91, 34) ``gao86e`` rows."""
    n, c, k = x.shape
    out = np.zeros((n, c + WIDTH, k), dtype=np.uint8)
    out[:, :c] = x
    seen = (
        x[:, _HAND].astype(np.int16)
        + x[:, _DORA]
        + x[:, _RIVERS].sum(axis=1, dtype=np.int16)
        + x[:, _MELDS].sum(axis=1, dtype=np.int16)
    )
    unseen = np.clip(4 - seen, 0, 4)
    for i in range(n):
        efficiency_rows(x[i, _HAND].tobytes(), unseen[i].tolist(), out[i], c)
    return out


def derive_dataset(
    src: str | Path,
    out: str | Path,
    encoder: str = "gao86e",
    *,
    on_shard: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write ``src`` re-encoded for ``encoder`` under ``out``; returns the new manifest."""
    manifest = load_manifest(src)
    if (manifest["encoder"], encoder) not in DERIVABLE:
        raise DatasetError(
            f"{src}: cannot derive {encoder} from {manifest['encoder']}; "
            f"supported: {', '.join(f'{a} -> {b}' for a, b in sorted(DERIVABLE))}"
        )
    enc = get_encoder(encoder)
    root = Path(out)
    if (root / "manifest.json").exists():
        raise DatasetError(f"{root} already holds a dataset; choose an empty directory")
    for shard in manifest["shards"]:
        source = Path(src) / shard["path"]
        target = root / shard["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with np.load(source) as z:
                arrays = {name: z[name] for name in z.files}
        except (OSError, KeyError, ValueError) as exc:
            raise DatasetError(f"{source}: unreadable shard: {exc}") from exc
        arrays["x"] = extend_rows(arrays["x"])
        with atomic_path(target, keep_suffix=True) as tmp:  # savez appends .npz to other names
            np.savez_compressed(tmp, **arrays)
        if on_shard is not None:
            on_shard(shard["path"])
    new = dict(manifest)
    new["encoder"] = enc.tag
    new["shape"] = list(enc.shape)
    new["options"] = {**manifest["options"], "encoder": enc.name}
    new["derived_from"] = {"path": os.fspath(src), "encoder": manifest["encoder"]}
    write_text_atomic(root / "manifest.json", json.dumps(new, indent=1))
    return new

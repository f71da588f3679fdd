"""Feed training batches from a dataset's ``.npz`` shards without loading them all at once.

An epoch visits the shards in a seeded random order and each shard's samples in a seeded
random order, so memory stays at one shard (about 60 MB for 20,000 ``gao86`` samples) and a
run is reproducible.  The dev split is small and is loaded whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tenpai.learn.dataset import DatasetError, shard_paths

__all__ = ["Batch", "ShardStream", "label_counts", "load_split"]


@dataclass(frozen=True, slots=True)
class Batch:
    """Inputs, labels and legal-class masks of a batch (numpy; the trainer moves them)."""

    x: np.ndarray
    y: np.ndarray
    legal: np.ndarray


def _load(path: Path) -> Batch:
    try:
        with np.load(path) as z:
            return Batch(z["x"], z["y"].astype(np.int64), z["legal"])
    except (OSError, KeyError, ValueError) as exc:
        raise DatasetError(f"{path}: unreadable shard: {exc}") from exc


def load_split(root: str | Path, split: str, kind: str, limit: int | None = None) -> Batch:
    """Every sample of one split and kind (the first ``limit`` when given) in one Batch."""
    parts: list[Batch] = []
    n = 0
    for p in shard_paths(root, split, kind):
        b = _load(p)
        parts.append(b)
        n += len(b.y)
        if limit is not None and n >= limit:
            break
    if not parts:
        raise DatasetError(f"{root}: no {split} shards for {kind!r}")
    out = Batch(
        np.concatenate([b.x for b in parts]),
        np.concatenate([b.y for b in parts]),
        np.concatenate([b.legal for b in parts]),
    )
    if limit is not None:
        out = Batch(out.x[:limit], out.y[:limit], out.legal[:limit])
    return out


def label_counts(paths: list[Path], classes: int) -> list[int]:
    """How often each class is the label in these shards (reads only the labels)."""
    counts = np.zeros(classes, dtype=np.int64)
    for p in paths:
        try:
            with np.load(p) as z:
                counts += np.bincount(z["y"].astype(np.int64), minlength=classes)[:classes]
        except (OSError, KeyError, ValueError) as exc:
            raise DatasetError(f"{p}: unreadable shard: {exc}") from exc
    return [int(c) for c in counts]


class ShardStream:
    """Shuffled mini-batches over the shards of one split and kind, epoch after epoch."""

    def __init__(self, root: str | Path, split: str, kind: str, batch_size: int, seed: int) -> None:
        self.paths = shard_paths(root, split, kind)
        if not self.paths:
            raise DatasetError(f"{root}: no {split} shards for {kind!r}")
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def epoch(self) -> Iterator[Batch]:
        for i in self.rng.permutation(len(self.paths)):
            shard = _load(self.paths[i])
            order = self.rng.permutation(len(shard.y))
            for start in range(0, len(order), self.batch_size):
                idx = order[start : start + self.batch_size]
                if len(idx) < 2:  # batch norm needs two samples
                    continue
                yield Batch(shard.x[idx], shard.y[idx], shard.legal[idx])

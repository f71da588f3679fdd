"""Cut a dataset of a wide encoder down to a narrower one by channel name, merging builds.

An ablation wants one dataset per encoder, all over the same games.  Replaying the records
once per arm costs minutes of CPU each; but every issue-19 encoder (``gao86e_sc`` … ``seq7``)
is a selection, by channel name, of ``gao86e_all``'s rows (they are composed from the same
fill functions, and ``tests/learn/test_learn_issue19.py`` checks that the selection equals a
direct encoding), so one ``gao86e_all`` build serves every arm.

The same step merges builds: a train-only build with ``--limit`` (a fixed subset of the train
games) and a ``--split dev,test`` build (the whole standard dev and test splits) become one
dataset, with the game indices of the second renumbered.  Its manifest records the sources.

    python -m tenpai.learn.project SRC [SRC ...] OUT --encoder gao86e_sc
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.atomic import atomic_path, write_text_atomic
from tenpai.learn.dataset import DatasetError, load_manifest, manifest_rules
from tenpai.learn.rulesets import get_rules

__all__ = ["channel_index", "prefix_channels", "project_dataset"]


def channel_index(source: Sequence[str], target: Sequence[str]) -> np.ndarray:
    """Positions in ``source`` of each ``target`` channel; DatasetError naming a missing one."""
    where = {n: i for i, n in enumerate(source)}
    missing = [n for n in target if n not in where]
    if missing:
        raise DatasetError(f"the source encoder has no channel {missing[0]!r}")
    return np.array([where[n] for n in target], dtype=np.int64)


def prefix_channels(narrow: str, wide: str, rules: str = "riichi") -> int:
    """How many leading channels of encoder ``wide`` make up encoder ``narrow`` (a network
    trained on ``narrow`` can then read ``wide``'s input cut to that many channels, e.g. as an
    ensemble member, :func:`tenpai.models.bundle.ensemble_head`'s ``takes``).  Names may carry
    their ``@version``.  DatasetError when ``narrow``'s channels are not ``wide``'s first ones.
    """
    learning = get_rules(rules)
    a = learning.get_encoder(narrow.split("@")[0])
    b = learning.get_encoder(wide.split("@")[0])
    n = len(a.channels)
    if a.layout != "planes" or b.layout != "planes" or list(b.channels[:n]) != list(a.channels):
        raise DatasetError(f"{narrow}'s channels are not the first channels of {wide}")
    return n


def _add(total: dict[str, Any], part: dict[str, Any]) -> None:
    for key, value in part.items():
        if isinstance(value, dict):
            _add(total.setdefault(key, {}), value)
        else:
            total[key] = total.get(key, 0) + value


def project_dataset(sources: Sequence[str | Path], out: str | Path, encoder: str) -> dict[str, Any]:
    """Write ``out``: the samples of every source dataset, inputs cut to ``encoder``'s channels.

    Sources must share rules and encoder, and no game may appear in two of them.
    """
    manifests = [load_manifest(s) for s in sources]
    if not manifests:
        raise DatasetError("no source dataset")
    first = manifests[0]
    rules = get_rules(manifest_rules(first))
    for m, s in zip(manifests, sources):
        if manifest_rules(m) != rules.name or m["encoder"] != first["encoder"]:
            raise DatasetError(
                f"{s}: {m['encoder']} ({manifest_rules(m)}) does not match "
                f"{first['encoder']} ({rules.name})"
            )
    src_enc = rules.get_encoder(first["encoder"])
    dst_enc = rules.get_encoder(encoder)
    if src_enc.layout != "planes" or dst_enc.layout != "planes":
        raise DatasetError("only plane encoders can be cut by channel")
    index = channel_index(src_enc.channels, dst_enc.channels)
    root = Path(out)
    if (root / "manifest.json").exists():
        raise DatasetError(f"{root} already holds a dataset; choose an empty directory")
    games: list[str] = []
    shards: list[dict[str, Any]] = []
    numbers: dict[tuple[str, str], int] = {}
    totals: dict[str, Any] = {}
    for m, s in zip(manifests, sources):
        dupes = set(games) & set(m["games"])
        if dupes:
            raise DatasetError(f"{s}: game {sorted(dupes)[0]} is already in an earlier source")
        offset = len(games)
        games += m["games"]
        for shard in m["shards"]:
            split, kind = shard["split"], shard["kind"]
            with np.load(Path(s) / shard["path"]) as z:
                x, y, legal, game = z["x"], z["y"], z["legal"], z["game"]
            n = numbers.get((split, kind), 0)
            numbers[(split, kind)] = n + 1
            rel = Path(split) / f"{kind}-{n:05d}.npz"
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path, keep_suffix=True) as tmp:  # savez appends .npz otherwise
                np.savez_compressed(
                    tmp,
                    x=np.ascontiguousarray(x[:, index]),
                    y=y,
                    legal=legal,
                    game=(game + offset).astype(np.int32),
                )
            shards.append({"path": rel.as_posix(), "split": split, "kind": kind, "n": len(y)})
        _add(totals, {k: m[k] for k in ("games_per_split", "counts", "nonzero_labels", "skipped")})
    manifest = dict(first)
    manifest.update(totals)
    manifest.update(
        encoder=dst_enc.tag,
        layout=dst_enc.layout,
        shape=list(dst_enc.shape),
        games=games,
        shards=shards,
        sources=[f for m in manifests for f in m["sources"]],
        projected_from=[
            {"path": os.fspath(s), "encoder": m["encoder"], "options": m["options"]}
            for m, s in zip(manifests, sources)
        ],
    )
    manifest["options"] = dict(first["options"], encoder=encoder)
    write_text_atomic(root / "manifest.json", json.dumps(manifest, indent=1))
    return manifest


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m tenpai.learn.project SRC [SRC ...] OUT --encoder NAME``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("paths", nargs="+", help="source datasets, then the output directory")
    p.add_argument("--encoder", required=True, help="the narrower encoder to cut to")
    a = p.parse_args(argv)
    if len(a.paths) < 2:
        p.error("give at least one source and the output directory")
    m = project_dataset(a.paths[:-1], a.paths[-1], a.encoder)
    print(f"{a.paths[-1]}: {m['encoder']}, games {m['games_per_split']}, counts {m['counts']}")


if __name__ == "__main__":
    main()

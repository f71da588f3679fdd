"""Score a model on a built dataset's split, no replay: the ablation's cheap, fixed yardstick.

``tenpai eval agreement`` replays the records and scores every decision (no loss filter); for
an ablation of many arms that costs a replay per arm and split.  The dataset's shards already
hold every decision of the split, encoded, with its label and legal classes (under the build's
filters, here Gao's 1,500-point loss filter), so each arm is scored on exactly the same
decisions by the same arithmetic (:mod:`tenpai.learn.agreement`: top-1/2/3 for discards,
accuracy and call precision/recall/F1 for the other heads).  Needs torch (the ``learn`` extra).

    python -m tenpai.learn.shard_metrics MODEL DATASET --split dev [--json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.learn.agreement import call_metrics, topk_agreement
from tenpai.learn.dataset import DatasetError, load_manifest, shard_paths

__all__ = ["score_dataset"]


def score_dataset(
    model: str | Path, dataset: str | Path, split: str = "dev", batch: int = 2048
) -> dict[str, Any]:
    """Metrics of every head of ``model`` that the dataset has decisions for."""
    from tenpai.learn.shards import load_split
    from tenpai.models.bundle import ModelBundle

    bundle = ModelBundle.load(model)
    manifest = load_manifest(dataset)
    if bundle.encoder != manifest["encoder"]:
        raise DatasetError(f"{model} reads {bundle.encoder} but {dataset} is {manifest['encoder']}")
    out: dict[str, Any] = {"model": str(model), "dataset": str(dataset), "split": split}
    for kind, classes in manifest["classes"].items():
        if kind not in bundle.heads or not shard_paths(dataset, split, kind):
            continue
        data = load_split(dataset, split, kind)
        scores = np.concatenate(
            [bundle.logits(kind, data.x[s : s + batch]) for s in range(0, len(data.y), batch)]
        )
        if kind == "discard":
            out[kind] = topk_agreement(scores, data.y, data.legal)
        else:
            m = call_metrics(scores, data.y, data.legal, int(classes))
            m.pop("confusion")
            out[kind] = m
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m tenpai.learn.shard_metrics MODEL DATASET --split dev [--json]``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", help="the model file to score")
    p.add_argument("dataset", help="a dataset folder built by tenpai dataset build")
    p.add_argument("--split", default="dev", choices=("train", "dev", "test"),
                   help="the split scored (default %(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    r = score_dataset(a.model, a.dataset, a.split)
    if a.json:
        print(json.dumps(r))
        return
    for kind, m in r.items():
        if not isinstance(m, dict):
            continue
        if kind == "discard":
            print(
                f"{kind}: n {m['n']:,} top-1 {m['top1']:.2%} top-2 {m['top2']:.2%} "
                f"top-3 {m['top3']:.2%}"
            )
        else:
            print(
                f"{kind}: n {m['n']:,} ({m['positives']:,} called) accuracy "
                f"{m['accuracy']:.2%} precision {m['precision']:.2%} recall {m['recall']:.2%} "
                f"F1 {m['f1']:.3f}"
            )


if __name__ == "__main__":
    main()

"""Run a model over replayed records and measure its agreement with the players (needs torch).

Decisions are gathered exactly as for a dataset (:func:`tenpai.learn.decisions.iter_decisions`)
and scored in batches; the metrics come from :mod:`tenpai.learn.agreement`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.learn.agreement import call_metrics, topk_agreement
from tenpai.learn.dataset import BuildOptions, iter_replayed_games
from tenpai.learn.decisions import NUM_CLASSES, iter_decisions
from tenpai.learn.encoders import get_encoder
from tenpai.models.bundle import ModelBundle

__all__ = ["evaluate_agreement"]


def evaluate_agreement(
    paths: Sequence[str | Path],
    bundle: ModelBundle,
    opts: BuildOptions,
    batch: int = 4096,
    *,
    suit_average: bool = False,
) -> dict[str, Any]:
    """``{"games", "discards": {...}, "top1", "top2", "top3", "pon": {...}, ...}``.

    ``suit_average`` scores each decision as the mean over its six suit relabellings
    (:meth:`ModelBundle.logits`).
    """
    enc = get_encoder(bundle.encoder)
    kinds = tuple(k for k in bundle.heads if k in NUM_CLASSES)
    xs: dict[str, list[np.ndarray]] = {k: [] for k in kinds}
    ys: dict[str, list[int]] = {k: [] for k in kinds}
    legal: dict[str, list[np.ndarray]] = {k: [] for k in kinds}
    games = 0
    for _gid, events in iter_replayed_games(paths, opts):
        games += 1
        points = list(iter_decisions(events, kinds=kinds, max_loss=opts.max_loss))
        if not points:
            continue
        encoded = enc.encode_batch([d.view for d in points])
        for x, d in zip(encoded, points):
            mask = np.zeros(NUM_CLASSES[d.kind], dtype=bool)
            mask[list(d.legal)] = True
            xs[d.kind].append(x)
            ys[d.kind].append(d.label)
            legal[d.kind].append(mask)
    report: dict[str, Any] = {
        "games": games,
        "encoder": bundle.encoder,
        "suit_average": suit_average,
    }
    for kind in kinds:
        if not ys[kind]:
            report[kind] = {"n": 0}
            continue
        x = np.stack(xs[kind])
        scores = np.concatenate(
            [
                bundle.logits(kind, x[s : s + batch], suit_average=suit_average)
                for s in range(0, len(x), batch)
            ]
        )
        y = np.asarray(ys[kind])
        mask = np.stack(legal[kind])
        if kind == "discard":
            report["discards"] = topk_agreement(scores, y, mask)
        else:
            report[kind] = call_metrics(scores, y, mask, NUM_CLASSES[kind])
    report.setdefault("discards", {"n": 0, "top1": None, "top2": None, "top3": None})
    for k in ("top1", "top2", "top3"):
        report[k] = report["discards"][k]
    return report

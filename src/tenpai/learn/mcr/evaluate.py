"""Agreement of a trained MCR model with the players of held-out records.

Discards: top-1/2/3 among the kinds in hand.  Calls (chi, peng, gang): accuracy, the
"always pass" baseline accuracy (most windows are passes, so accuracy alone flatters), the
confusion matrix (rows = player, columns = model) and precision, recall and F1 of "called".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tenpai.learn.mcr.dataset import Arrays
from tenpai.models.bundle import ModelBundle

__all__ = ["agreement"]


def _masked(bundle: ModelBundle, kind: str, a: Arrays) -> np.ndarray:
    logits = bundle.logits(kind, a.x)
    return np.where(a.legal, logits, -np.inf)


def agreement(bundle: ModelBundle, arrays: dict[str, Arrays]) -> dict[str, Any]:
    """Scores of every head of ``bundle`` that has samples in ``arrays``."""
    out: dict[str, Any] = {}
    for kind, a in arrays.items():
        if kind not in bundle.heads or len(a) == 0:
            continue
        scores = _masked(bundle, kind, a)
        if kind == "discard":
            rank = np.argsort(-scores, axis=1)
            hit = rank == a.y[:, None]
            out[kind] = {"n": len(a), **{f"top{k}": float(hit[:, :k].any(1).mean())
                                         for k in (1, 2, 3)}}
            continue
        pred = scores.argmax(1)
        n_cls = scores.shape[1]
        conf = np.zeros((n_cls, n_cls), dtype=int)
        np.add.at(conf, (a.y, pred), 1)
        tp = int(((a.y != 0) & (pred != 0)).sum())
        called_pred = int((pred != 0).sum())
        called_true = int((a.y != 0).sum())
        precision = tp / called_pred if called_pred else 0.0
        recall = tp / called_true if called_true else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[kind] = {
            "n": len(a),
            "called": called_true,
            "accuracy": float((pred == a.y).mean()),
            "pass_baseline": float((a.y == 0).mean()),
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "confusion": conf.tolist(),
        }
    return out

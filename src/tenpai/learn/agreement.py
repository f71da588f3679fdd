"""Agreement with human decisions: top-k for discards, confusion-matrix metrics for calls.

Pure numpy so the arithmetic is testable without torch.  Predictions are always restricted to
the legal classes of each decision (a model can never "agree" by naming a tile not in hand).
For a call head the positive class is "called" (any label other than 0): precision, recall and
F1 are of that class; a chi called with the wrong shape counts as a miss for accuracy but as a
call for precision/recall (the shape accuracy among true calls is reported separately).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["call_metrics", "masked_argsort", "topk_agreement"]


def masked_argsort(scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Classes of each row from best to worst score, illegal classes last."""
    masked = np.where(legal, scores, -np.inf)
    order: np.ndarray = np.argsort(-masked, axis=1, kind="stable")
    return order


def topk_agreement(scores: np.ndarray, labels: np.ndarray, legal: np.ndarray) -> dict[str, Any]:
    """Share of decisions whose human choice is among the model's best 1, 2 and 3 legal classes."""
    n = len(labels)
    if n == 0:
        return {"n": 0, "top1": None, "top2": None, "top3": None}
    order = masked_argsort(scores, legal)[:, :3]
    hit = order == labels[:, None]
    return {
        "n": int(n),
        "top1": float(hit[:, :1].any(axis=1).mean()),
        "top2": float(hit[:, :2].any(axis=1).mean()),
        "top3": float(hit[:, :3].any(axis=1).mean()),
    }


def call_metrics(
    scores: np.ndarray, labels: np.ndarray, legal: np.ndarray, classes: int
) -> dict[str, Any]:
    """Accuracy, confusion matrix (rows = human, columns = model) and call precision/recall/F1."""
    n = len(labels)
    if n == 0:
        return {"n": 0}
    pred = masked_argsort(scores, legal)[:, 0]
    conf = np.zeros((classes, classes), dtype=np.int64)
    np.add.at(conf, (labels, pred), 1)
    tp = int(((labels != 0) & (pred != 0)).sum())
    fp = int(((labels == 0) & (pred != 0)).sum())
    fn = int(((labels != 0) & (pred == 0)).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    out: dict[str, Any] = {
        "n": int(n),
        "positives": int((labels != 0).sum()),
        "accuracy": float((pred == labels).mean()),
        # Most windows are passes, so accuracy alone flatters: this is "always pass".
        "pass_baseline": float((labels == 0).mean()),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "confusion": conf.tolist(),
    }
    if classes > 2:
        both = (labels != 0) & (pred != 0)
        out["shape_accuracy"] = float((pred[both] == labels[both]).mean()) if both.any() else None
    return out

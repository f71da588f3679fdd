"""Logistic regression in numpy: binary (soft labels allowed) and multinomial, with metrics.

scikit-learn is not a dependency of the project, and the models here are small (a few to a
few dozen features, up to a few hundred thousand rows), so a plain Newton / IRLS solver with
an L2 penalty is exact, deterministic and fast.  The one place for these fits: the MDP
agent's opponent models (:mod:`tenpai.mdp.fit`) and the placement model
(:mod:`tenpai.search.placement_fit`) both use them.  Features are standardised inside the model
(mean and scale are stored with the weights) so one penalty strength suits every feature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["BinaryModel", "SoftmaxModel", "auc", "fit_binary", "fit_softmax", "log_loss"]

_EPS = 1e-12


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
    return out


@dataclass(frozen=True, slots=True)
class BinaryModel:
    """P(y = 1 | x) = sigmoid(w · (x - mean) / scale + b)."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Probabilities for the rows of ``x`` (n × d, or one row of d)."""
        z = (np.asarray(x, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)
        return _sigmoid(z @ np.asarray(self.weights) + self.bias)

    def predict_one(self, x: list[float]) -> float:
        """One probability without numpy overhead (hot path of the agent)."""
        z = self.bias
        for xi, m, s, w in zip(x, self.mean, self.scale, self.weights):
            z += w * (xi - m) / s
        z = max(-40.0, min(40.0, z))
        return 1.0 / (1.0 + float(np.exp(-z)))

    def to_json(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "bias": self.bias, "mean": list(self.mean),
                "scale": list(self.scale)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BinaryModel:
        w, m, s = (tuple(float(v) for v in d[k]) for k in ("weights", "mean", "scale"))
        if not (len(w) == len(m) == len(s)) or any(v <= 0 for v in s):
            raise ValueError("binary model: weights, mean and scale differ in length or scale <= 0")
        return cls(w, float(d["bias"]), m, s)


@dataclass(frozen=True, slots=True)
class SoftmaxModel:
    """P(y = c | x) = softmax(W (x - mean) / scale + b)_c."""

    weights: tuple[tuple[float, ...], ...]  # classes × features
    bias: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(np.asarray(x, dtype=float)) - np.asarray(self.mean)) / np.asarray(
            self.scale
        )
        logits = z @ np.asarray(self.weights).T + np.asarray(self.bias)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        p: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return p

    def to_json(self) -> dict[str, Any]:
        return {"weights": [list(r) for r in self.weights], "bias": list(self.bias),
                "mean": list(self.mean), "scale": list(self.scale)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SoftmaxModel:
        w = tuple(tuple(float(v) for v in row) for row in d["weights"])
        m, s = (tuple(float(v) for v in d[k]) for k in ("mean", "scale"))
        b = tuple(float(v) for v in d["bias"])
        if len(b) != len(w) or any(len(r) != len(m) for r in w) or len(s) != len(m):
            raise ValueError("softmax model: weight, bias, mean and scale shapes disagree")
        return cls(w, b, m, s)


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return (x - mean) / scale, mean, scale


def fit_binary(
    x: np.ndarray,
    y: np.ndarray,
    *,
    l2: float = 1.0,
    iters: int = 30,
    weight: np.ndarray | None = None,
) -> BinaryModel:
    """Maximum penalised likelihood by Newton's method; ``y`` may hold soft labels in [0, 1].

    The penalty ``l2`` is on the standardised weights (not the bias), in units of samples, so
    it matters only where data are thin (the sparse per-turn buckets of the tenpai model).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 2 or len(x) != len(y) or len(y) == 0:
        raise ValueError(f"fit_binary: need n × d features and n labels, got {x.shape}, {y.shape}")
    z, mean, scale = _standardise(x)
    n, d = z.shape
    sw = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    a = np.hstack([z, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    prior = np.full(d + 1, l2)
    prior[-1] = 0.0
    for _ in range(iters):
        p = _sigmoid(a @ theta)
        grad = a.T @ (sw * (p - y)) + prior * theta
        hess = (a * (sw * p * (1 - p))[:, None]).T @ a + np.diag(prior + 1e-9)
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return BinaryModel(tuple(theta[:-1].tolist()), float(theta[-1]), tuple(mean.tolist()),
                       tuple(scale.tolist()))


def fit_softmax(
    x: np.ndarray, y: np.ndarray, classes: int, *, l2: float = 1.0, iters: int = 30
) -> SoftmaxModel:
    """Multinomial logistic regression by Newton's method, the last class as the base.

    The last class's weights and bias are fixed at 0: with them free the penalised problem
    has one more degree of freedom than the data decide, and fixing them makes it strictly
    convex, so Newton's steps reach the one optimum in a handful of iterations (``iters`` is
    a cap; it stops when a step moves no weight by 1e-7).  The penalty ``l2`` is on the
    standardised weights, not the biases, in units of samples as in :func:`fit_binary`.
    The Hessian is ``(classes - 1) × (features + 1)`` square: meant for a few dozen features.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=int)
    if x.ndim != 2 or len(x) != len(y) or len(y) == 0 or classes < 2:
        raise ValueError(f"fit_softmax: need n × d features, n labels and 2+ classes, got "
                         f"{x.shape}, {y.shape}, {classes}")
    z, mean, scale = _standardise(x)
    z = np.hstack([z, np.ones((len(z), 1))])
    n, d = z.shape
    k = classes - 1
    w = np.zeros((d, k))
    onehot = np.eye(classes)[y][:, :k]
    penalty = np.full(d, l2)
    penalty[-1] = 0.0
    for _ in range(iters):
        logits = np.hstack([z @ w, np.zeros((n, 1))])
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        pk = p[:, :k]
        grad = (z.T @ (pk - onehot)).T.reshape(-1) + (penalty[None, :] * w.T).reshape(-1)
        hess = np.zeros((k * d, k * d))
        for a in range(k):
            for b in range(k):
                c = pk[:, a] * ((a == b) - pk[:, b])
                hess[a * d:(a + 1) * d, b * d:(b + 1) * d] = (z * c[:, None]).T @ z
        hess += np.diag(np.tile(penalty, k))
        step = np.linalg.solve(hess, grad)
        w -= step.reshape(k, d).T
        if float(np.abs(step).max()) < 1e-7:
            break
    full = np.hstack([w, np.zeros((d, 1))])  # (features + 1) × classes, bias last
    return SoftmaxModel(tuple(tuple(r) for r in full[:-1].T.tolist()), tuple(full[-1].tolist()),
                        tuple(mean.tolist()), tuple(scale.tolist()))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-likelihood: binary when ``p`` is 1-D, multinomial when 2-D."""
    p = np.asarray(p, dtype=float)
    y = np.asarray(y)
    if p.ndim == 1:
        q = np.clip(p, _EPS, 1 - _EPS)
        return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y.astype(int)], _EPS, 1.0))))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """Area under the ROC curve by the rank-sum formula (ties share ranks); NaN if one class."""
    p = np.asarray(p, dtype=float)
    y = np.asarray(y) > 0.5
    pos, neg = int(y.sum()), int((~y).sum())
    if pos == 0 or neg == 0:
        return float("nan")
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sp = p[order]
    i = 0
    while i < len(sp):
        j = i
        while j + 1 < len(sp) and sp[j + 1] == sp[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return float((ranks[y].sum() - pos * (pos + 1) / 2.0) / (pos * neg))
